import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { canvasGeometry } from "./support/geometry.ts";
import { CHAIN, CONDUCTOR_MODEL, QUESTION, conductorText } from "./support/scenario.ts";
import { withStudio } from "./support/studio.ts";

// An edge to a step the user dragged to the left of its source: React Flow's curve from the right
// handle to the left one would loop out and back through both steps; the studio routes it around.

let server: TestServer;
let studio: StudioPage;
withStudio((s) => ({ server, studio } = s), { ask: QUESTION });

test("an edge to a step moved left of its source goes around both steps, not through them", async ({
  page,
}) => {
  server.script(CONDUCTOR_MODEL, conductorText(CHAIN));
  await studio.plan(3);
  // Step 3 reads step 2; drag it down and to the left of step 1.
  const two = await studio.node(1).boundingBox();
  const three = await studio.node(2).boundingBox();
  await studio.dragNode(2, two!.x - three!.x - two!.width * 0.6, three!.height * 1.6);
  await studio.settle();
  const { edges, nodes } = await canvasGeometry(page);
  const edge = edges.find((e) => e.label === "step 2 to step 3")!;
  expect(edge).toBeDefined();
  // Drawn of straight runs (a detour), and never inside step 2 or step 3 past the handles' stubs.
  const d = await (await studio.edge(1, 2)).locator("path.react-flow__edge-path").getAttribute("d");
  expect(d).not.toContain("C");
  for (const step of [2, 3]) {
    const b = nodes[step]!;
    const inside = edge.points.filter(
      (p) =>
        p.x > b.x + 24 && p.x < b.x + b.width - 24 && p.y > b.y + 2 && p.y < b.y + b.height - 2,
    );
    expect(inside, `inside step ${step}`).toEqual([]);
  }
  await page.screenshot({ path: test.info().outputPath("edge-left.png") });
});
