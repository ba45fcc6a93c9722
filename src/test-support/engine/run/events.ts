// Builders of the run events that the recorder's tests write as logs: each takes the event's time
// and its fields, with round 0 and no messages unless a test gives them.
import type { EventOf, RunEventType } from "../../../engine/schema/events.ts";

/** The events with a time and a round that these builders make. */
type Timed =
  | "plan_start"
  | "plan_retry"
  | "plan_finish"
  | "round_start"
  | "step_start"
  | "step_retry"
  | "step_finish";

/** An event's fields past its type and time; `round` may be left out for round 0. */
type Fields<T extends RunEventType> = Omit<EventOf<T>, "type" | "at" | "round"> & {
  round?: number;
};

/** The builder of one type of event. */
function builder<T extends Timed>(type: T) {
  return (at: number, { round = 0, ...rest }: Fields<T>): EventOf<T> =>
    // TypeScript cannot narrow the union from a generic `type`; the fields are EventOf<T>'s.
    ({ type, at, round, ...rest }) as unknown as EventOf<T>;
}

/** A plan attempt failed and is retried. */
export const planRetry = builder("plan_retry");
/** The Conductor answered: its raw text, the call's usage and cost, and the steps it planned. */
export const planFinish = builder("plan_finish");
/** A round starts with the steps it runs. */
export const roundStart = builder("round_start");
/** A step attempt failed and is retried. */
export const stepRetry = builder("step_retry");
/** A step finished with its output and its call's usage and cost. */
export const stepFinish = builder("step_finish");

/** The Conductor is asked for a plan (no messages unless given). */
export const planStart = (
  at: number,
  fields: Partial<Fields<"plan_start">> = {},
): EventOf<"plan_start"> => builder("plan_start")(at, { messages: [], ...fields });

/** A step attempt starts (no messages unless given). */
export const stepStart = (
  at: number,
  fields: Omit<Fields<"step_start">, "messages"> & Partial<Fields<"step_start">>,
): EventOf<"step_start"> => builder("step_start")(at, { messages: [], ...fields });
