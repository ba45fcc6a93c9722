import { useRef } from "react";
import type { ReactNode } from "react";

/**
 * A button that opens the file picker for one JSON file, with the hidden `input[type=file]` that
 * tests drive directly (`${testId}-input`). The input is cleared so the same file can be chosen again.
 */
export function JsonFileButton(props: {
  testId: string;
  children: ReactNode;
  onFile: (file: File) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" data-testid={props.testId} onClick={() => input.current?.click()}>
        {props.children}
      </button>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        data-testid={`${props.testId}-input`}
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) props.onFile(file);
        }}
      />
    </>
  );
}
