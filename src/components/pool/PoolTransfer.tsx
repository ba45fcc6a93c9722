import { useState } from "react";
import { JsonFileButton } from "../ui/JsonFileButton.tsx";
import { download } from "../../state/files.ts";
import { importPoolFile, poolExportText } from "../../state/pool.ts";

/** Export the pool as JSON (without keys) and import a pool file. */
export function PoolTransfer() {
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  return (
    <span className="row">
      <button
        type="button"
        data-testid="export-pool"
        title="Save the pool as JSON. Keys are never included."
        onClick={() => download(poolExportText(), "conductor-pool.json")}
      >
        Export pool
      </button>
      <JsonFileButton
        testId="import-pool"
        onFile={(file) =>
          void file
            .text()
            .then((text) => {
              const result = importPoolFile(text);
              setMessage(
                result.ok
                  ? { text: `Imported ${file.name}. ${result.keys}`, error: false }
                  : { text: `Could not import ${file.name}: ${result.message}`, error: true },
              );
            })
            .catch((err: unknown) =>
              setMessage({
                text: `Could not read ${file.name}: ${err instanceof Error ? err.message : String(err)}`,
                error: true,
              }),
            )
        }
      >
        Import pool…
      </JsonFileButton>
      {message && (
        <span
          className={message.error ? "pool-message error" : "pool-message"}
          role={message.error ? "alert" : "status"}
          data-testid="pool-transfer-message"
        >
          {message.text}
        </span>
      )}
    </span>
  );
}
