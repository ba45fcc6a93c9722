import {
  contextWindowFor,
  CONTEXT_WINDOWS,
  vramAtContext,
} from "../../engine/llm/webllm/catalogue.ts";
import { CATALOGUE } from "../../state/models/inbrowserController.ts";
import { useStudio } from "../../state/slices/store.ts";
import { formatMB as mb } from "./DownloadConfirm.tsx";
import { CheckboxField } from "../ui/CheckboxField.tsx";

/** The in-browser Conductor's plan grammar switch and context window. */
export function InBrowserPlanOptions() {
  const grammar = useStudio((s) => s.conductor.webllmGrammar);
  const chosen = useStudio((s) => s.conductor.webllmContextWindow);
  const modelId = useStudio((s) => s.conductor.webllmModelId);
  const custom = useStudio((s) => s.customRecords);
  const st = useStudio.getState;
  const model = CATALOGUE.find((m) => m.id === modelId);
  const window = contextWindowFor(modelId, chosen, custom);
  const memory = (tokens: number) => {
    if (!model) return "";
    const extra = vramAtContext(model, tokens) - model.vramMB;
    const sign = extra >= 0 ? "+" : "−";
    return ` · GPU memory ${mb(vramAtContext(model, tokens))} (${sign}${mb(Math.abs(extra))})`;
  };
  return (
    <div className="grid2">
      <CheckboxField
        testId="webllm-grammar"
        checked={grammar}
        onChange={(checked) => st().setConductor({ webllmGrammar: checked })}
      >
        Constrain the plan with a grammar (it always parses and fits the pool; off lets the model
        write freely)
      </CheckboxField>
      <label className="field span2">
        Context window (applies on the next load)
        <select
          data-testid="webllm-context"
          value={chosen ?? ""}
          onChange={(e) =>
            st().setConductor({
              webllmContextWindow: e.target.value === "" ? null : Number(e.target.value),
            })
          }
        >
          <option value="">
            Default: {contextWindowFor(modelId, null, custom).toLocaleString("en-US")} tokens
            {memory(contextWindowFor(modelId, null, custom))}
          </option>
          {CONTEXT_WINDOWS.map((n) => (
            <option key={n} value={n}>
              {n.toLocaleString("en-US")} tokens{memory(n)}
            </option>
          ))}
        </select>
        <span className="muted small" data-testid="webllm-context-note">
          {model
            ? `WebLLM's record measures ${mb(model.vramMB)} at ${model.contextWindow.toLocaleString("en-US")} tokens; ${window.toLocaleString("en-US")} tokens take ${mb(vramAtContext(model, window))}.`
            : `Your conversion loads with ${window.toLocaleString("en-US")} tokens.`}{" "}
          A prompt that does not fit is shortened where safe (the carried answer) or refused.
        </span>
      </label>
    </div>
  );
}
