import type { ColumnMapping } from "../../engine/eval/dataset/item-schema.ts";
import { mappedItems } from "../../state/eval/evalController.ts";
import { useStudio } from "../../state/slices/store.ts";

const FIELDS: [keyof ColumnMapping, string][] = [
  ["question", "Question"],
  ["answer", "Reference answer"],
  ["choices", "Choices"],
  ["id", "Id"],
  ["kind", "Kind"],
  ["tests", "Tests"],
  ["category", "Category"],
];

const cell = (v: unknown) =>
  v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v);

/** Maps the file's columns to fields, with the first rows and the bad rows shown before anything runs. */
export function MappingEditor() {
  const table = useStudio((s) => s.evalSetup.table);
  const mapping = useStudio((s) => s.evalSetup.mapping);
  const skipBad = useStudio((s) => s.evalSetup.skipBad);
  const patchSetup = useStudio((s) => s.patchEvalSetup);
  if (!table)
    return (
      <section className="eval-card eval-mapping" aria-label="Columns">
        <h3>2. Columns</h3>
        <p className="muted" data-testid="eval-columns-hint">
          Load a question set to map its columns.
        </p>
      </section>
    );
  const { items, bad } = mappedItems();
  return (
    <section className="eval-card eval-mapping" aria-label="Columns">
      <h3>2. Columns</h3>
      <div className="row wrap">
        {FIELDS.map(([field, label]) => (
          <label key={field}>
            {label}
            <select
              data-testid={`map-${field}`}
              value={mapping[field] ?? ""}
              onChange={(e) =>
                patchSetup({ mapping: { ...mapping, [field]: e.target.value || undefined } })
              }
            >
              {field !== "question" && <option value="">(none)</option>}
              {table.columns.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      <p className="muted" data-testid="eval-count">
        {items.length} question(s){bad.length ? `, ${bad.length} bad row(s)` : ""}
      </p>
      <div className="preview">
        <table>
          <thead>
            <tr>
              {FIELDS.filter(([f]) => mapping[f]).map(([f, label]) => (
                <th key={f}>{label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.slice(0, 5).map((r) => (
              <tr key={r.line}>
                {FIELDS.filter(([f]) => mapping[f]).map(([f]) => (
                  <td key={f}>{cell(r.values[mapping[f]!]).slice(0, 120)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {bad.length > 0 && (
        <div className="bad-rows" data-testid="bad-rows">
          <ul>
            {bad.slice(0, 20).map((b) => (
              <li key={`${b.line}-${b.message}`}>
                line {b.line}: {b.message}
              </li>
            ))}
          </ul>
          <label>
            <input
              type="checkbox"
              checked={skipBad}
              onChange={(e) => patchSetup({ skipBad: e.target.checked })}
            />{" "}
            skip bad rows
          </label>
        </div>
      )}
    </section>
  );
}
