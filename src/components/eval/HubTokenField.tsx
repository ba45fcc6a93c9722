import { HF_TOKEN_ID, hubOrigin, originOf } from "../../state/slices/keybinding.ts";
import { useStudio } from "../../state/slices/store.ts";

const selectToken = (s: { keys: Record<string, string> }) => s.keys[HF_TOKEN_ID] ?? "";
const selectRemember = (s: { rememberKeys: boolean }) => s.rememberKeys;

/**
 * The Hugging Face token for gated datasets (GPQA-Diamond). Held in the key ring like a worker's
 * key: in memory unless keys are remembered, never exported, and sent to the Hub's APIs only.
 */
export function HubTokenField() {
  const token = useStudio(selectToken);
  const remember = useStudio(selectRemember);
  return (
    <label className="field" title="Sent only to the Hugging Face Hub, never exported or logged">
      Hugging Face token for gated datasets (
      {remember ? "remembered in this browser" : "kept in memory only"})
      <input
        type="password"
        autoComplete="off"
        data-testid="hf-token"
        placeholder="hf_… (GPQA-Diamond needs one)"
        value={token}
        onChange={(e) =>
          useStudio.getState().setKey(HF_TOKEN_ID, e.target.value, originOf(hubOrigin.url) ?? "")
        }
      />
    </label>
  );
}
