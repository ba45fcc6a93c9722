import type { ReactNode } from "react";
import type { Access } from "../../engine/schema/workflow.ts";
import { useStudio } from "../../state/slices/store.ts";

/** Access of one step: all earlier steps, none, or chosen ones (docs/protocol.md §1.1). */
export function AccessEditor({ id, index, access }: { id: string; index: number; access: Access }) {
  const set = (next: Access) => useStudio.getState().edit({ kind: "setAccess", id, access: next });
  const mode = access === "all" ? "all" : access.length === 0 ? "none" : "chosen";
  const chosen = access === "all" ? [] : access;
  return (
    <fieldset className="access-editor" data-testid="access-editor">
      <legend>Sees</legend>
      <ModeRadio id={id} checked={mode === "all"} onChange={() => set("all")}>
        all earlier steps
      </ModeRadio>
      <ModeRadio id={id} checked={mode === "none"} onChange={() => set([])}>
        none (only the question)
      </ModeRadio>
      <ModeRadio
        id={id}
        checked={mode === "chosen"}
        disabled={index === 0}
        onChange={() => set(index > 0 ? [index - 1] : [])}
      >
        chosen steps
      </ModeRadio>
      {mode === "chosen" && (
        <div className="row wrap">
          {Array.from({ length: index }, (_, i) => (
            <label key={i} className="chip">
              <input
                type="checkbox"
                checked={chosen.includes(i)}
                onChange={(e) =>
                  set(e.target.checked ? [...chosen, i] : chosen.filter((c) => c !== i))
                }
              />
              step {i + 1}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** One of the three access modes, a radio button in the step's group. */
function ModeRadio({
  id,
  checked,
  disabled,
  onChange,
  children,
}: {
  id: string;
  checked: boolean;
  disabled?: boolean;
  onChange: () => void;
  children: ReactNode;
}) {
  return (
    <label>
      <input
        type="radio"
        name={`access-${id}`}
        checked={checked}
        disabled={disabled}
        onChange={onChange}
      />
      {children}
    </label>
  );
}
