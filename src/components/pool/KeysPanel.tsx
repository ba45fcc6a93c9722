import { useState } from "react";
import { useStudio } from "../../state/slices/store.ts";

const selectRemember = (s: { rememberKeys: boolean }) => s.rememberKeys;
const selectKeyCount = (s: { keys: Record<string, string> }) => Object.keys(s.keys).length;

/** Where keys are kept: in memory (default) or, on explicit opt-in, in this browser; and forgetting. */
export function KeysPanel() {
  const remember = useStudio(selectRemember);
  const count = useStudio(selectKeyCount);
  const [forgotten, setForgotten] = useState(false);
  const st = useStudio.getState;
  return (
    <div className="keys-panel" data-testid="keys-panel">
      <label className="field checkbox">
        <input
          type="checkbox"
          data-testid="remember-keys"
          checked={remember}
          onChange={(e) => {
            setForgotten(false);
            st().setRememberKeys(e.target.checked);
          }}
        />
        Remember keys in this browser
      </label>
      <p className={remember ? "warning" : "muted small"} data-testid="keys-warning">
        {remember
          ? "Keys are saved unencrypted in this browser's storage. Anyone who uses this browser " +
            "profile, and any script running on this page, can read them. Use only on your own " +
            "computer, and prefer keys with a spending limit."
          : "Keys are kept in memory only and are gone when you close or reload this page."}
      </p>
      <div className="row">
        <button
          type="button"
          className="danger"
          data-testid="forget-keys"
          disabled={count === 0 && !remember}
          onClick={() => {
            st().forgetAllKeys();
            setForgotten(true);
          }}
        >
          Forget all keys
        </button>
        <span className="muted small" role="status" data-testid="keys-status">
          {forgotten
            ? "All keys forgotten, here and in this browser's storage."
            : `${count} key${count === 1 ? "" : "s"} held${remember ? ", remembered in this browser" : ", in memory only"}.`}
        </span>
      </div>
    </div>
  );
}
