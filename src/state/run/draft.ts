// The unsaved draft: saved as the user edits, restored on load, guarded on unload.
import { z } from "zod";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import { interrupted } from "../../engine/run/continue.ts";
import type { MigrationSequence } from "../../engine/schema/migrate.ts";
import { migrationSequence, upgrade } from "../../engine/schema/migrate.ts";
import { AccessSchema } from "../../engine/schema/workflow.ts";
import { isBusy } from "./controller.ts";
import { DRAFT_KEY } from "./draftKey.ts";
import { resultsFor, showRun, writtenAt } from "./open.ts";
import { runStore } from "../storage/runStore.ts";
import type { StudioState } from "../slices/store.ts";
import { useStudio } from "../slices/store.ts";

function draftSchema<W extends z.ZodType>(worker: W) {
  return z.object({
    question: z.string(),
    doc: z.object({
      steps: z.array(
        z.object({ id: z.string(), worker, subtask: z.string(), access: AccessSchema }),
      ),
      positions: z.record(z.string(), z.object({ x: z.number(), y: z.number() })),
    }),
    /** The run that was open, by its stored key. */
    openKey: z.string().nullable(),
  });
}
const DraftSchema = draftSchema(z.string());
const DraftV1Schema = draftSchema(z.number().int().nonnegative());
export type Draft = z.infer<typeof DraftSchema>;

/**
 * The stored draft's migrations, over `{ version, value }`. Step 2: a step names its worker by id
 * (version 1 held its place in the pool): the place becomes the id of the worker at that place in
 * `pool` (the pool it was drafted with: the settings pool, which only changes by the user's hand);
 * a place past its end becomes "" (no worker chosen), which the step shows.
 */
function draftMigrations(pool: readonly { id: string }[]): MigrationSequence {
  return migrationSequence("draft", [
    {
      id: 2,
      up: (stored) => {
        // A version 1 draft that is not one (ids already) is unreadable, not half-migrated.
        const v1 = DraftV1Schema.parse(stored.value);
        const steps = v1.doc.steps.map((st) => ({ ...st, worker: pool[st.worker]?.id ?? "" }));
        return { ...stored, value: { ...v1, doc: { ...v1.doc, steps } } };
      },
    },
  ]);
}
/** The draft's stored version; a new shape adds a step to `draftMigrations`. */
export const DRAFT_VERSION = draftMigrations([]).current;
export { DRAFT_KEY };
/** Autosave waits this long after the last change. */
export const DRAFT_DEBOUNCE_MS = 300;

function draftOf(s: StudioState): Draft {
  return { question: s.question, doc: s.history.present, openKey: s.openKey };
}

/**
 * Reads the stored draft of any version this app knows (draftMigrations); null when there is none
 * or it is unreadable.
 */
export function readDraft(
  storage: Pick<Storage, "getItem">,
  pool: readonly { id: string }[],
): Draft | null {
  let raw: unknown;
  try {
    raw = JSON.parse(storage.getItem(DRAFT_KEY) ?? "null");
  } catch {
    return null;
  }
  const stored = upgrade(draftMigrations(pool), raw);
  if (!stored.ok) return null;
  const parsed = DraftSchema.safeParse(stored.doc.value);
  return parsed.success ? parsed.data : null;
}

const sameSteps = (
  doc: WorkflowDoc,
  steps: { worker: string; subtask: string; access: unknown }[],
) =>
  doc.steps.length === steps.length &&
  doc.steps.every(
    (s, i) =>
      s.worker === steps[i]?.worker &&
      s.subtask === steps[i]?.subtask &&
      JSON.stringify(s.access) === JSON.stringify(steps[i]?.access),
  );

/**
 * Brings back the draft and the run that was open. A run that was in flight when the page went
 * away is stored as interrupted (finished steps and partial text kept) and can be resumed.
 */
export async function restoreDraft(storage: Storage = localStorage): Promise<void> {
  const s = useStudio.getState();
  const draft = readDraft(storage, s.pool);
  if (!draft) return;
  const store = runStore();
  if (draft.openKey && store) {
    const got = await store.getRun(draft.openKey);
    if (got?.ok) {
      let record = got.record;
      const stopped = interrupted(record);
      if (stopped !== record) {
        record = stopped;
        await store.saveRun(record);
      }
      const round0 = record.rounds[0]?.steps ?? [];
      const keepsDoc = sameSteps(draft.doc, round0);
      showRun(
        record,
        { key: draft.openKey, exportedAt: writtenAt(got.text) },
        keepsDoc ? draft.doc : undefined,
      );
      const st = useStudio.getState();
      if (!keepsDoc) {
        // The draft was edited after the run: the edits win, the run stays in history.
        st.resetDoc(draft.doc);
        st.setRunStepIds(draft.doc.steps.map((x) => x.id));
        st.setRecord(record, {});
      } else
        st.setRecord(
          record,
          resultsFor(
            record,
            draft.doc.steps.map((x) => x.id),
          ),
        );
      st.resetDoc(useStudio.getState().history.present);
      st.setQuestion(draft.question);
      return;
    }
  }
  s.setQuestion(draft.question);
  s.resetDoc(draft.doc);
  s.setOpen({ openKey: null });
}

/** Saves the draft (debounced) as it changes, and at once when the page is hidden or left. */
export function autosaveDraft(
  storage: Storage = localStorage,
  page: Pick<Window, "addEventListener" | "removeEventListener"> | null = typeof window ===
  "undefined"
    ? null
    : window,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = "";
  const save = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const text = JSON.stringify({ version: DRAFT_VERSION, value: draftOf(useStudio.getState()) });
    if (text === last) return;
    last = text;
    try {
      storage.setItem(DRAFT_KEY, text);
    } catch {
      // A full localStorage: the stored runs are unaffected; the draft waits for the next change.
      last = "";
    }
  };
  page?.addEventListener("pagehide", save);
  const unsubscribe = useStudio.subscribe((s, prev) => {
    if (
      s.question === prev.question &&
      s.history.present === prev.history.present &&
      s.openKey === prev.openKey
    )
      return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(save, DRAFT_DEBOUNCE_MS);
  });
  return () => {
    unsubscribe();
    page?.removeEventListener("pagehide", save);
    if (timer !== null) clearTimeout(timer);
  };
}

/** While a plan or run is in flight, leaving the page asks first. */
export function guardUnload(target: Pick<Window, "addEventListener"> = window): void {
  target.addEventListener("beforeunload", (e: BeforeUnloadEvent) => {
    if (!isBusy()) return;
    e.preventDefault();
    e.returnValue = "";
  });
}
