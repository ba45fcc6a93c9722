import { chooseConductor } from "./namedWorkers.ts";
import { useState } from "react";
import { customModelRecord } from "../../engine/llm/webllm/custom.ts";
import { useStudio } from "../../state/slices/store.ts";

/** Adds a custom model record: the user's own MLC conversion of Conductor weights. */
export function CustomModelForm() {
  const [id, setId] = useState("Conductor-7B-q4f16_1-MLC");
  const [weightsUrl, setWeightsUrl] = useState("");
  const [modelLib, setModelLib] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const add = () => {
    const result = customModelRecord({ id, weightsUrl, modelLib: modelLib.trim() || undefined });
    if (!result.ok) return setMessage({ ok: false, text: result.message });
    const st = useStudio.getState();
    const others = st.customRecords.filter((r) => r.model_id !== result.record.model_id);
    st.setInBrowser({ customRecords: [...others, result.record] });
    chooseConductor({ webllmModelId: result.record.model_id });
    setMessage({ ok: true, text: ["Added.", ...result.notes].join(" ") });
  };
  return (
    <details className="custom-model">
      <summary>Use my own conversion of the Conductor weights…</summary>
      <p className="muted small">
        A Qwen2.5-7B fine-tune converted with MLC LLM reuses the prebuilt Qwen2-7B model library of
        the same quantisation, which is the default below. docs/conductor-weights.md says how to
        convert weights.
      </p>
      <label className="field">
        Model id (ends with the quantisation, e.g. -q4f16_1-MLC)
        <input data-testid="custom-id" value={id} onChange={(e) => setId(e.target.value)} />
      </label>
      <label className="field">
        Weights URL (absolute; a Hugging Face repo or a folder laid out as …/resolve/main/)
        <input
          data-testid="custom-url"
          placeholder="https://huggingface.co/you/Conductor-7B-q4f16_1-MLC"
          value={weightsUrl}
          onChange={(e) => setWeightsUrl(e.target.value)}
        />
      </label>
      <label className="field">
        Model library URL (optional)
        <input
          data-testid="custom-lib"
          value={modelLib}
          onChange={(e) => setModelLib(e.target.value)}
        />
      </label>
      <button type="button" data-testid="custom-add" onClick={add}>
        Add model
      </button>
      {message && (
        <p className={message.ok ? "small" : "error-box"} data-testid="custom-message">
          {message.text}
        </p>
      )}
    </details>
  );
}
