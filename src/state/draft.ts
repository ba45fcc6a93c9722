import { z } from "zod";
import type { WorkflowDoc } from "../engine/graph/document.ts";
import { interrupted } from "../engine/run/continue.ts";
import { AccessSchema } from "../engine/schema/workflow.ts";
import { isBusy } from "./controller.ts";
import { resultsFor, showRun, writtenAt } from "./open.ts";
import { runStore } from "./runStore.ts";
import type { StudioState } from "./store.ts";
import { useStudio } from "./store.ts";

/** The draft's stored version; a new shape adds a migration in `readDraft`. */
export const DRAFT_VERSION = 1;
const DRAFT_KEY = "draft";
/** Autosave waits this long after the last change. */
export const DRAFT_DEBOUNCE_MS = 300;

const DraftSchema = z.object({
  question: z.string(),
  doc: z.object({
    steps: z.array(
      z.object({
        id: z.string(),
        worker: z.number().int().nonnegative(),
        subtask: z.string(),
        access: AccessSchema,
      }),
    ),
    positions: z.record(z.string(), z.object({ x: z.number(), y: z.number() })),
  }),
  /** The run that was open, by its stored key. */
  openKey: z.string().nullable(),
});
export type Draft = z.infer<typeof DraftSchema>;

function draftOf(s: StudioState): Draft {
  return { question: s.question, doc: s.history.present, openKey: s.openKey };
}

/** Reads a stored draft of any version this app knows; null when there is none or it is unreadable. */
function readDraft(stored: { version: number; value: unknown } | undefined): Draft | null {
  if (!stored || stored.version > DRAFT_VERSION) return null;
  const parsed = DraftSchema.safeParse(stored.value);
  return parsed.success ? parsed.data : null;
}

const sameSteps = (
  doc: WorkflowDoc,
  steps: { worker: number; subtask: string; access: unknown }[],
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
export async function restoreDraft(): Promise<void> {
  const store = runStore();
  if (!store) return;
  const draft = readDraft(await store.getValue(DRAFT_KEY));
  if (!draft) return;
  const s = useStudio.getState();
  if (draft.openKey) {
    const got = await store.getRun(draft.openKey);
    if (got?.ok) {
      let record = got.record;
      const stopped = interrupted(record);
      if (stopped !== record) {
        record = stopped;
        await store.saveRun(record);
      }
      const round0 = record.rounds[0]?.steps ?? [];
      const keepsDoc = sameSteps(draft.doc, round0.length ? round0 : []);
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

/** Saves the draft (debounced) as it changes. */
export function autosaveDraft(): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = "";
  const save = () => {
    timer = null;
    const draft = draftOf(useStudio.getState());
    const text = JSON.stringify(draft);
    if (text === last) return;
    last = text;
    void runStore()?.setValue(DRAFT_KEY, DRAFT_VERSION, draft);
  };
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
