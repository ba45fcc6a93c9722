// Records as a version-1 evaluation stored them, for the tests of their upgrade on read.

/** A finished step that names its worker by place in the pool (as version 1 did), answering "ok". */
export const v1Step = (index: number, worker: number, workerName: string, subtask: string) => ({
  index,
  worker,
  workerName,
  subtask,
  access: [],
  status: "done",
  messages: [],
  output: "ok",
  startedAt: 1,
  finishedAt: 2,
  attempts: 1,
  usage: null,
  cost: null,
  error: null,
  nested: null,
});
