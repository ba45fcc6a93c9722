import { DEFAULT_TEMPLATE, templateProblems } from "../../engine/conductor/prompt.ts";
import {
  CONDUCTOR_KEY_ID,
  boundKey,
  movedSecretMessage,
  originOf,
} from "../../state/slices/keybinding.ts";
import { useStudio } from "../../state/slices/store.ts";
import type { Credentials } from "../pool/ConnectionTest.tsx";
import { EndpointTest } from "../pool/ConnectionTest.tsx";
import { KeyMovedNote } from "../pool/KeyMovedNote.tsx";
import { EndpointModelField } from "../pool/ModelField.tsx";
import { useHeldSecret } from "../pool/useHeldSecret.ts";
import { ConductorPreview } from "./ConductorPreview.tsx";
import { ConductorPriceFields } from "./ConductorPriceFields.tsx";
import { InBrowserSection } from "./InBrowserSection.tsx";
import { chooseConductor, namedWorkersAdvice } from "./namedWorkers.ts";
import { FallbackSettings } from "./FallbackSettings.tsx";
import { RecursionSettings } from "./RecursionSettings.tsx";
import { RemoteGrammarField } from "./RemoteGrammarField.tsx";
import { NumberField } from "../ui/NumberField.tsx";
import { CheckboxField } from "../ui/CheckboxField.tsx";

/** The remote Conductor's key where it is bound to its endpoint, or why nothing may be sent. */
function conductorCredentials(): Credentials {
  const s = useStudio.getState();
  const moved = movedSecretMessage(s, CONDUCTOR_KEY_ID, "The Conductor");
  if (moved) return moved;
  const apiKey = boundKey(s, CONDUCTOR_KEY_ID);
  return apiKey ? { apiKey } : {};
}

/** Where the Conductor can run, as the radio buttons offer it. */
const BACKENDS = [
  { backend: "webllm", label: "In this browser (WebGPU, free and private)" },
  { backend: "remote", label: "Remote endpoint (OpenAI-compatible)" },
] as const;

/** Which Conductor plans (in this browser or a remote endpoint), its generation and its prompt. */
export function ConductorSettings() {
  const conductor = useStudio((s) => s.conductor);
  const origin = originOf(conductor.baseURL);
  // A key entered for another origin is neither shown nor sent (keybinding.ts).
  const { state: keyState, held: heldKey, from: keyFrom } = useHeldSecret(CONDUCTOR_KEY_ID, origin);
  const conductorKey = keyState === "bound" ? heldKey : "";
  const rememberKeys = useStudio((s) => s.rememberKeys);
  const customRecords = useStudio((s) => s.customRecords);
  const advice = namedWorkersAdvice(conductor, customRecords);
  const st = useStudio.getState;
  const problems = templateProblems(conductor.template);
  return (
    <section data-testid="conductor-settings">
      <h3>Conductor</h3>
      <div className="row">
        {BACKENDS.map(({ backend, label }) => (
          <label key={backend} className="chip">
            <input
              type="radio"
              name="conductor-backend"
              data-testid={`backend-${backend}`}
              checked={conductor.backend === backend}
              onChange={() => chooseConductor({ backend })}
            />
            {label}
          </label>
        ))}
      </div>
      {conductor.backend === "webllm" ? (
        <InBrowserSection />
      ) : (
        <div className="grid2">
          <p className="muted small span2">
            vLLM or SGLang serving the trained Conductor, or a frontier model prompted with the same
            protocol.
          </p>
          <label className="field">
            Base URL
            <input
              data-testid="conductor-baseurl"
              value={conductor.baseURL}
              onChange={(e) => st().setConductor({ baseURL: e.target.value })}
            />
          </label>
          <EndpointModelField
            baseURL={conductor.baseURL}
            model={conductor.model}
            testId="conductor-model"
            onChange={(model) => chooseConductor({ model })}
            onPick={(model) => chooseConductor({ model })}
            credentials={conductorCredentials}
          />
          <label className="field">
            {rememberKeys
              ? "API key (remembered in this browser)"
              : "API key (kept in memory only)"}
            <input
              type="password"
              autoComplete="off"
              data-testid="conductor-key"
              data-key-state={keyState}
              placeholder={
                keyState === "moved" ? `enter a key for ${origin ?? "this endpoint"}` : ""
              }
              value={conductorKey}
              onChange={(e) => st().setKey(CONDUCTOR_KEY_ID, e.target.value, origin ?? "")}
            />
            {keyState === "moved" && (
              <KeyMovedNote id={CONDUCTOR_KEY_ID} from={keyFrom} to={origin} />
            )}
          </label>
          <div className="span2">
            <EndpointTest
              baseURL={conductor.baseURL}
              model={conductor.model}
              credentials={conductorCredentials}
            />
          </div>
          <RemoteGrammarField />
        </div>
      )}
      <div className="grid2">
        <NumberField
          label="Temperature"
          min={0}
          max={2}
          step={0.1}
          testId="conductor-temperature"
          value={conductor.temperature}
          onChange={(raw) =>
            st().setConductor({ temperature: Math.min(2, Math.max(0, Number(raw) || 0)) })
          }
        />
        <NumberField
          label="Max new tokens"
          min={64}
          max={8192}
          step={64}
          testId="conductor-max-tokens"
          value={conductor.maxTokens}
          onChange={(raw) =>
            st().setConductor({ maxTokens: Math.max(1, Math.round(Number(raw) || 1024)) })
          }
        />
        <ConductorPriceFields />
        <CheckboxField
          testId="named-workers"
          checked={conductor.namedWorkers}
          onChange={(checked) => st().setConductor({ namedWorkers: checked })}
        >
          Show worker names and notes to the Conductor
        </CheckboxField>
        {/* The hint always matches the box: the default's reason, or that it differs from it. */}
        <p className="muted small" data-testid="named-workers-hint">
          {conductor.namedWorkers === advice.on ? (
            advice.reason
          ) : (
            <>
              {conductor.namedWorkers ? "On" : "Off"}, unlike the default for this Conductor (
              {advice.on ? "on" : "off"}): {advice.reason.replace(/^(On|Off) by default: /, "")}{" "}
              <button
                type="button"
                className="link"
                data-testid="named-workers-default"
                onClick={() => st().setConductor({ namedWorkers: advice.on })}
              >
                Use the default
              </button>
            </>
          )}
        </p>
      </div>
      <ConductorPreview />
      <details className="template-editor">
        <summary>Prompt template</summary>
        <p className="muted small">
          Placeholders: {"{{question}}"}, {"{{workers}}"}, {"{{max_steps}}"}. Paste the wording your
          checkpoint was trained on.
        </p>
        <textarea
          data-testid="template"
          rows={12}
          value={conductor.template}
          onChange={(e) => st().setConductor({ template: e.target.value })}
        />
        {problems.length > 0 && (
          <p className="warning" data-testid="template-problems">
            Missing: {problems.join(", ")}. The studio appends the question and worker list where
            they are missing.
          </p>
        )}
        <button
          type="button"
          data-testid="template-reset"
          disabled={conductor.template === DEFAULT_TEMPLATE}
          onClick={() => st().setConductor({ template: DEFAULT_TEMPLATE })}
        >
          Reset to default
        </button>
      </details>
      <RecursionSettings />
      <FallbackSettings />
    </section>
  );
}
