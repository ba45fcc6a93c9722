import { expect, test } from "@playwright/test";
import { HistoryPage } from "./pages/history.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { withPageObject } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  CONDUCTOR_MODEL,
  QUESTION,
  WORKERS,
  callsTo,
  conductorText,
  scriptAnswers,
} from "./support/scenario.ts";

// Under a plan grammar the request leaves the answer-opening instruction out of its last message
// (the grammar writes the opening). The refinement after it, which the studio continues from the
// stored plan, must still see that first turn whole; and a reload while the Conductor refines,
// then Resume, must ask it again exactly as the cut request did.

let server: TestServer;
let studio: HistoryPage;
withTestServer((s) => (server = s));
withPageObject(HistoryPage, (s) => (studio = s));

const ACCEPT = "The answer stands.\nmodel_id = []\nsubtasks = []\naccess_list = []";

test("under a plan grammar, a refinement sees the first prompt whole, and Resume after a reload asks it again word for word", async ({
  page,
}) => {
  await studio.seed(server.baseURL, WORKERS, CONDUCTOR_MODEL, {
    rounds: 1,
    maxDepth: 1,
    maxCalls: 0,
    remoteGrammar: { [server.baseURL]: "vllm" },
  });
  const refining = server.gate("refining");
  server.script(CONDUCTOR_MODEL, conductorText(ATTEMPTS_THEN_JUDGE));
  server.script(CONDUCTOR_MODEL, { content: ACCEPT, gate: "refining" });
  server.script(CONDUCTOR_MODEL, ACCEPT);
  scriptAnswers(server, (w) => `${w.name}: 391 = 17 × 23.\nAnswer: no`);
  await studio.goto();
  await studio.ask(QUESTION);
  await studio.plan(3);
  await studio.run();
  await refining.reached();
  await studio.waitStored(`${WORKERS[2].name}: 391`);
  page.on("dialog", (d) => void d.accept());
  await page.reload();
  await studio.byTestId("resume").click();
  await expect(studio.byTestId("final-answer")).toContainText("391 = 17 × 23");
  await studio.waitIdle();

  const conductor = callsTo(server, CONDUCTOR_MODEL).map((r) => r.body as ChatBody);
  expect(conductor).toHaveLength(3);
  const [plan, cut, resumed] = conductor;
  // Both refinement requests carry the grammar, and the conversation is the same word for word.
  expect(cut).toHaveProperty("structured_outputs.grammar");
  expect(resumed).toHaveProperty("structured_outputs.grammar");
  expect(resumed!.messages).toEqual(cut!.messages);
  // The first turn as the refinement must see it: the prompt as built, the instruction that the
  // first plan's grammar took out of that plan's own request back in. (Plan, then Run, continues
  // from the stored plan, so before the fix even an uninterrupted refinement lost it.)
  const firstTurn = (body: ChatBody) => String(body.messages[1]?.content);
  expect(firstTurn(plan!)).not.toContain("Begin your reply with this sentence");
  expect(firstTurn(cut!)).toBe(
    `${firstTurn(plan!)}\n\nBegin your reply with this sentence: "Let me work out which models should handle which parts of this question."`,
  );
});
