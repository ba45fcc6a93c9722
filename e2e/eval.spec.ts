import { expect, test } from "@playwright/test";
import { SAMPLE_MATH } from "../src/engine/eval/dataset/sample-math.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { openEvaluate } from "./support/studio.ts";
import { WORKERS, chatCalls, messagesText } from "./support/scenario.ts";

let server: TestServer;
withTestServer((s) => (server = s));

const [SOLVER, CHECKER, JUDGE] = WORKERS;
/** The sample item a request is about (every worker sees the question). */
const itemOf = (body: ChatBody) =>
  SAMPLE_MATH.findIndex((i) => messagesText(body).includes(i.question));

/**
 * Scripted answers: the solver is always right, the checker right except on every fifth
 * question (80%), the judge right on the first seven only (35%). Each call takes 150 ms; calls past
 * the first `FREE` hold at the gate "later" until the test releases it.
 */
const FREE = 24;
function script() {
  let calls = 0;
  const answer = (right: (i: number) => boolean) => (body: ChatBody) => {
    const i = itemOf(body);
    const value = i >= 0 && right(i) ? SAMPLE_MATH[i]!.expected! : "99999";
    return {
      content: `Working it through.\nAnswer: ${value}`,
      latencyMs: 150,
      usage: { prompt_tokens: 100, completion_tokens: 20 },
      ...(++calls > FREE ? { gate: "later" } : {}),
    };
  };
  server.setDefault(
    SOLVER.model,
    answer(() => true),
  );
  server.setDefault(
    CHECKER.model,
    answer((i) => i % 5 !== 0),
  );
  server.setDefault(
    JUDGE.model,
    answer((i) => i < 7),
  );
}

const chats = () => chatCalls(server);

test("a sample set through three strategies: exact accuracies, resume after a reload, open a cell's run", async ({
  page,
}) => {
  const later = server.gate("later");
  script();
  const { studio, evaluate } = await openEvaluate(page, server);
  await evaluate.pickSample("math");
  await expect(evaluate.byTestId("eval-count")).toHaveText("20 question(s)");
  const single = (w: { name: string }) => `single:${w.name}`;
  await evaluate.choose(single(SOLVER), single(CHECKER), "chain");
  // Every call goes to the server here, so the count below is the pause's accounting alone (the
  // response cache has its own spec).
  await evaluate.byTestId("eval-cache").uncheck();
  await evaluate.start();

  // Pause part-way (the calls past the first FREE are held, so it is part-way for certain), let
  // the runs in flight finish, then reload the page.
  // Pause only once every call under way is held at the gate: a free call answered at the moment
  // the pause aborts it would be paid for twice (once now, once on resume), and the exact count
  // below would then depend on timing.
  await later.reached();
  await expect.poll(() => server.openChats > 0 && later.held === server.openChats).toBe(true);
  await evaluate.byTestId("eval-pause").click();
  // Pause aborts the held calls: wait until the server has seen each client leave, so releasing
  // the gate cannot answer a call the studio already gave up.
  await expect.poll(() => server.openChats).toBe(0);
  expect(later.held).toBe(0);
  later.release();
  await expect(evaluate.progress()).toHaveAttribute("data-running", "0");
  const before = await evaluate.done();
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThan(60);
  await page.reload();
  await evaluate.open();
  await expect(evaluate.byTestId("eval-resumable")).toContainText(`stopped at ${before}/60`);
  await evaluate.byTestId("eval-resume-stored").click();
  await expect(evaluate.byTestId("eval-done")).toHaveText("60/60", { timeout: 45_000 });
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished");

  await expect(evaluate.accuracy(single(SOLVER))).toHaveText("100.0%");
  await expect(evaluate.accuracy(single(CHECKER))).toHaveText("80.0%");
  await expect(evaluate.accuracy("chain")).toHaveText("35.0%");

  // Counted at the server: 20 + 20 single calls and 3 x 20 chain calls answered, none of them
  // twice (a call the pause cut was not answered, and was made again on resume).
  const seen = chats().map((r) => JSON.stringify(r.body));
  expect(seen.length - server.disconnects.length).toBe(100);
  // Solver alone and the chain's first step send the same request (the same worker, subtask and
  // question), so 80 of the requests differ.
  expect(new Set(seen).size).toBe(80);

  // A cell opens that item beside its run: the chain's three steps, as recorded.
  await expect(evaluate.cell("math-03", "chain")).toHaveAttribute("data-result", "right");
  await expect(evaluate.cell("math-10", "chain")).toHaveAttribute("data-result", "wrong");
  await evaluate.cell("math-10", "chain").click();
  const item = evaluate.byTestId("eval-item");
  await expect(item.getByTestId("eval-item-verdict")).toHaveAttribute("data-tone", "wrong");
  await expect(item.getByTestId("eval-item-extracted")).toHaveText("99999");
  for (const i of [0, 1, 2])
    await expect(item.getByTestId(`item-step-${i}`)).toHaveAttribute("data-status", "done");
  await expect(item.getByTestId("item-step-2")).toContainText("Answer: 99999");
  await expect(item.getByTestId("item-step-2")).toContainText(JUDGE.name);
  expect(studio.errors).toEqual([]);
});
