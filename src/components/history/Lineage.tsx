import { useEffect, useState } from "react";
import type { RunMeta } from "../../engine/store/db-schema.ts";
import { openRun } from "../../state/run/open.ts";
import { runStore } from "../../state/storage/runStore.ts";
import { useStudio } from "../../state/slices/store.ts";
import { KIND_LABELS } from "./format.ts";
import { LinkButton } from "../ui/LinkButton.tsx";

/** A run kind as history rows name it ("re-run", not "rerun"). */
const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind;

/** The open run's parent and children, as links. */
export function Lineage() {
  const runId = useStudio((s) => s.record.id);
  const parentId = useStudio((s) => s.record.parentId);
  const rows = useStudio((s) => s.historyRows);
  const [links, setLinks] = useState<{ parent?: RunMeta; children: RunMeta[] }>({ children: [] });
  useEffect(() => {
    const store = runStore();
    if (!store) return;
    let live = true;
    void Promise.all([
      parentId ? store.byRunId(parentId) : Promise.resolve(undefined),
      store.childrenOf(runId),
    ]).then(([parent, children]) => live && setLinks({ parent, children }));
    return () => {
      live = false;
    };
  }, [runId, parentId, rows]);
  if (!links.parent && !links.children.length) return null;
  const go = (key: string) => void openRun(key);
  return (
    <div className="small history-lineage" data-testid="history-lineage">
      <div className="muted">The open run</div>
      {links.parent && (
        <div>
          Continues{" "}
          <LinkButton testId="lineage-parent" onClick={() => go(links.parent!.key)}>
            {links.parent.title || links.parent.question} ({kindLabel(links.parent.kind)} ·{" "}
            {new Date(links.parent.createdAt).toLocaleTimeString()})
          </LinkButton>
        </div>
      )}
      {links.children.length > 0 && (
        <div>
          Continued by{" "}
          {links.children.map((c) => (
            <button
              key={c.key}
              type="button"
              className="link"
              data-testid="lineage-child"
              onClick={() => go(c.key)}
            >
              {c.title ? `${c.title} · ` : ""}
              {kindLabel(c.kind)} · {new Date(c.createdAt).toLocaleTimeString()}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
