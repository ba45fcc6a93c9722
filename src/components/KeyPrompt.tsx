import { useState } from "react";
import { ownerOfSecret } from "../state/slices/keybinding.ts";
import { useStudio } from "../state/slices/store.ts";
import { Modal } from "./ui/Modal.tsx";

/** A key-ring id's label: the API key, or the custom header it holds. */
function labelOf(id: string): string {
  if (ownerOfSecret(id) === id) return "API key";
  return `Header ${id.slice(id.indexOf("header:") + "header:".length)}`;
}

/**
 * Asks for the keys a reload cleared (keys held in memory only) before anything that would call
 * their endpoints: Resume, Retry, Re-run, Run, an evaluation's Resume. Nothing is called until
 * every key is given; Cancel calls nothing.
 */
export function KeyPrompt() {
  const prompt = useStudio((s) => s.keyPrompt);
  if (!prompt) return null;
  return <KeyPromptDialog key={prompt.needs.map((n) => n.owner).join(" ")} />;
}

function KeyPromptDialog() {
  const prompt = useStudio((s) => s.keyPrompt)!;
  const [values, setValues] = useState<Record<string, string>>({});
  const close = () => useStudio.getState().setKeyPrompt(null);
  const ids = prompt.needs.flatMap((n) => n.ids);
  const ready = ids.every((id) => values[id]?.trim());
  const go = () => {
    if (!ready) return;
    const st = useStudio.getState();
    for (const id of ids) st.setKey(id, values[id]!.trim());
    close();
    prompt.then();
  };
  const names = prompt.needs.map((n) => n.name);
  return (
    <Modal
      className="dialog key-prompt"
      testId="key-prompt"
      onClose={close}
      labelledBy="key-prompt-title"
      backdrop={{ className: "dialog-backdrop key-prompt-backdrop", closesOnClick: false }}
    >
      <header className="dialog-head">
        <h2 id="key-prompt-title">Keys needed: {prompt.what}</h2>
      </header>
      <p data-testid="key-prompt-names">
        The reload cleared the key{ids.length === 1 ? "" : "s"} of {names.join(", ")} (keys are kept
        in memory only). Enter {ids.length === 1 ? "it" : "them"} to continue; nothing is called
        until then.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          go();
        }}
      >
        {prompt.needs.map((need) => (
          <fieldset key={need.owner} className="key-prompt-owner">
            <legend>{need.name}</legend>
            {need.ids.map((id) => (
              <label key={id} className="field">
                {labelOf(id)}
                <input
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  data-testid="key-prompt-input"
                  aria-label={`${labelOf(id)} for ${need.name}`}
                  value={values[id] ?? ""}
                  onChange={(e) => setValues((v) => ({ ...v, [id]: e.target.value }))}
                />
              </label>
            ))}
          </fieldset>
        ))}
        <div className="row">
          <button type="submit" className="primary" disabled={!ready} data-testid="key-prompt-go">
            {prompt.what}
          </button>
          <button type="button" onClick={close} data-testid="key-prompt-cancel">
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
