// Builders of the run events that the recorder's tests write as logs: each takes the event's time
// and its fields, with the round 0 and no messages unless a test gives them.
import type { EventOf, RunEventType } from "../../../engine/schema/events.ts";

/** An event's fields past its type and time; `round` may be left out for round 0. */
type Fields<T extends RunEventType> = Omit<EventOf<T>, "type" | "at" | "round"> & {
  round?: number;
};

/** The Conductor is asked for a plan (no messages unless given). */
export const planStart = (
  at: number,
  { round = 0, messages = [], ...rest }: Partial<Fields<"plan_start">> = {},
): EventOf<"plan_start"> => ({ type: "plan_start", at, round, messages, ...rest });

/** A plan attempt failed and is retried. */
export const planRetry = (
  at: number,
  { round = 0, ...rest }: Fields<"plan_retry">,
): EventOf<"plan_retry"> => ({ type: "plan_retry", at, round, ...rest });

/** The Conductor answered: its raw text, the call's usage and cost, and the steps it planned. */
export const planFinish = (
  at: number,
  { round = 0, ...rest }: Fields<"plan_finish">,
): EventOf<"plan_finish"> => ({ type: "plan_finish", at, round, ...rest });

/** A step attempt starts (no messages unless given). */
export const stepStart = (
  at: number,
  {
    round = 0,
    messages = [],
    ...rest
  }: Omit<Fields<"step_start">, "messages"> & {
    messages?: EventOf<"step_start">["messages"];
  },
): EventOf<"step_start"> => ({ type: "step_start", at, round, ...rest, messages });

/** A step attempt failed and is retried. */
export const stepRetry = (
  at: number,
  { round = 0, ...rest }: Fields<"step_retry">,
): EventOf<"step_retry"> => ({ type: "step_retry", at, round, ...rest });

/** A step finished with its output and its call's usage and cost. */
export const stepFinish = (
  at: number,
  { round = 0, ...rest }: Fields<"step_finish">,
): EventOf<"step_finish"> => ({ type: "step_finish", at, round, ...rest });

/** A round starts with the steps it runs. */
export const roundStart = (
  at: number,
  { round = 0, ...rest }: Fields<"round_start">,
): EventOf<"round_start"> => ({ type: "round_start", at, round, ...rest });
