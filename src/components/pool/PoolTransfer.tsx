import { useState } from "react";
import { JsonFileButton } from "../ui/JsonFileButton.tsx";
import { download } from "../../state/run/files.ts";
import { importPool } from "../../engine/pool/transfer.ts";
import { importPoolFile, poolExportText } from "../../state/slices/pool.ts";
import { useStudio } from "../../state/slices/store.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { LosingSteps } from "./RemoveWorker.tsx";

type Message = { text: string; error: boolean };

/** Export the pool as JSON (without keys) and import a pool file, asking before it replaces one. */
export function PoolTransfer() {
  const [message, setMessage] = useState<Message | null>(null);
  const [pending, setPending] = useState<{
    name: string;
    text: string;
    workers: Worker[];
  } | null>(null);
  const size = useStudio((s) => s.pool.length);
  const apply = (name: string, text: string) => {
    const result = importPoolFile(text);
    setMessage(
      result.ok
        ? { text: `Imported ${name}. ${result.keys}`, error: false }
        : { text: `Could not import ${name}: ${result.message}`, error: true },
    );
  };
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
      {pending ? (
        <span className="row" data-testid="confirm-import-pool">
          Replace the {size} worker{size === 1 ? "" : "s"} with the {pending.workers.length} in{" "}
          {pending.name}?
          <LosingSteps next={pending.workers} />
          <button
            type="button"
            className="danger"
            data-testid="confirm-import-pool-yes"
            onClick={() => {
              apply(pending.name, pending.text);
              setPending(null);
            }}
          >
            Replace
          </button>
          <button type="button" onClick={() => setPending(null)}>
            Keep mine
          </button>
        </span>
      ) : (
        <JsonFileButton
          testId="import-pool"
          onFile={(file) =>
            void file
              .text()
              .then((text) => {
                // A bad file says why at once; a good one asks before it replaces a pool.
                const checked = importPool(text);
                setMessage(null);
                if (!checked.ok)
                  setMessage({
                    text: `Could not import ${file.name}: ${checked.message}`,
                    error: true,
                  });
                else if (useStudio.getState().pool.length > 0)
                  setPending({ name: file.name, text, workers: checked.workers });
                else apply(file.name, text);
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
      )}
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
