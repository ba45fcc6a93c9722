import { useState } from "react";
import { SAMPLE_SETS } from "../../engine/eval/dataset/samples.ts";
import type { BenchmarkPreset } from "../../engine/eval/dataset/presets.ts";
import { BENCHMARK_PRESETS } from "../../engine/eval/dataset/presets.ts";
import { loadHfQuestions } from "../../state/eval/evalHf.ts";
import { loadQuestionText, loadSample } from "../../state/eval/evalController.ts";
import { useStudio } from "../../state/slices/store.ts";
import { HubTokenField } from "./HubTokenField.tsx";

/** Where the questions come from: a sample set, a file, or a Hugging Face dataset's rows. */
export function SourcePicker() {
  const sourceName = useStudio((s) => s.evalSetup.sourceName);
  const [hf, setHf] = useState({
    dataset: "",
    config: "default",
    split: "test",
    offset: 0,
    length: 50,
  });
  const [hfMessage, setHfMessage] = useState<string | null>(null);
  // The commit to pin a re-read to: filled in with the commit each read was at.
  const [revision, setRevision] = useState("");
  const loadHf = async (
    source = hf,
    pin: string | null = revision.trim() || null,
    preset?: BenchmarkPreset,
  ) => {
    setHfMessage("Loading…");
    const message = await loadHfQuestions(source, pin, preset);
    setHfMessage(message);
    const read = useStudio.getState().evalSetup.hfSource;
    if (!message && read?.revision) setRevision(read.revision);
  };
  const loadPreset = (p: BenchmarkPreset) => {
    setHf(p.source);
    setRevision(p.revision ?? "");
    void loadHf(p.source, p.revision, p);
  };
  return (
    <section className="eval-card eval-source-card" aria-label="Question set">
      <h3>1. Questions</h3>
      <div className="row wrap">
        {SAMPLE_SETS.map((set) => (
          <button
            key={set.id}
            type="button"
            data-testid={`sample-${set.id}`}
            onClick={() => loadSample(set)}
            title={set.description}
          >
            {set.name} <small>({set.items.length})</small>
          </button>
        ))}
        <label className="file-button">
          Import JSONL / JSON / CSV…
          <input
            type="file"
            accept=".jsonl,.ndjson,.json,.csv,.tsv"
            data-testid="eval-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void file.text().then((t) => loadQuestionText(t, file.name));
              e.target.value = "";
            }}
          />
        </label>
      </div>
      <details className="hf">
        <summary>From the Hugging Face Hub</summary>
        <HubTokenField />
        <div className="row wrap" aria-label="Benchmark presets">
          {BENCHMARK_PRESETS.map((p) => (
            <button
              key={p.id}
              type="button"
              data-testid={`preset-${p.id}`}
              title={`${p.note} (${p.source.dataset}, ${p.source.config}/${p.source.split}, scorer ${p.scorer})`}
              onClick={() => loadPreset(p)}
            >
              {p.name}
              {p.gated && <small> (gated)</small>}
            </button>
          ))}
        </div>
        <div className="row wrap">
          {(["dataset", "config", "split"] as const).map((k) => (
            <label key={k}>
              {k}
              <input
                value={hf[k]}
                onChange={(e) => {
                  setHf({ ...hf, [k]: e.target.value });
                  setRevision(""); // another dataset: its pin no longer applies
                }}
                placeholder={k === "dataset" ? "owner/name" : ""}
              />
            </label>
          ))}
          <label>
            first row
            <input
              type="number"
              min={0}
              value={hf.offset}
              onChange={(e) => setHf({ ...hf, offset: Number(e.target.value) })}
            />
          </label>
          <label>
            rows
            <input
              type="number"
              min={1}
              max={1000}
              value={hf.length}
              onChange={(e) => setHf({ ...hf, length: Number(e.target.value) })}
            />
          </label>
          <label title="The dataset's commit: a load refuses a dataset that has moved on from it">
            pinned revision
            <input
              data-testid="hf-revision"
              value={revision}
              placeholder="(the latest; recorded)"
              onChange={(e) => setRevision(e.target.value)}
            />
          </label>
          <button type="button" disabled={!hf.dataset.trim()} onClick={() => void loadHf()}>
            Load rows
          </button>
        </div>
        {hfMessage && <p className="muted">{hfMessage}</p>}
      </details>
      {sourceName && (
        <p className="muted" data-testid="eval-source">
          Loaded: {sourceName}
        </p>
      )}
    </section>
  );
}
