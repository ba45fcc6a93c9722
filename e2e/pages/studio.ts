import type { Locator, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import type { Access, ExportedFile } from "./exports.ts";
import { readExport } from "./exports.ts";
import type { Sample } from "./sampling.ts";
import { readSamples, startSampling } from "./sampling.ts";
import { storeSettings, storedWorker } from "./settings.ts";
import { DRAFT_KEY } from "../../src/state/run/draftKey.ts";
import type { PoolWorker } from "../support/scenario.ts";
import { CONDUCTOR_MODEL, WORKERS } from "../support/scenario.ts";

export type FileInput = string | { name: string; mimeType: string; buffer: Buffer };

const center = (box: { x: number; y: number; width: number; height: number }) => ({
  x: box.x + box.width / 2,
  y: box.y + box.height / 2,
});

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`No bounding box for ${locator.toString()}`);
  return box;
}

/** Page object for the studio: every spec drives the app through these, never through raw selectors. */
export class StudioPage {
  /** Uncaught exceptions in the page; each spec expects none. */
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    page.on("pageerror", (e) => this.errors.push(e.message));
  }

  /** Stores a pool of workers and a remote Conductor (with `conductorSettings` over its defaults), all on `baseURL`, before the app boots. */
  async seed(
    baseURL: string,
    pool: readonly PoolWorker[] = WORKERS,
    conductorModel = CONDUCTOR_MODEL,
    conductorSettings: Record<string, unknown> = {},
  ) {
    const settings = {
      pool: pool.map((w, i) =>
        storedWorker(i, { ...w, kind: "openai", baseURL, price: { input: 1, output: 2 } }),
      ),
      // Priced like the workers: an unpriced remote Conductor makes every run's cost unknown.
      conductor: {
        backend: "remote",
        baseURL,
        model: conductorModel,
        price: { input: 1, output: 2 },
        ...conductorSettings,
      },
    };
    await storeSettings(this.page, settings);
  }

  async goto() {
    await this.page.goto("/");
    await expect(this.page.getByRole("heading", { name: "Conductor Studio" })).toBeVisible();
  }

  async openSettings() {
    await this.byTestId("open-settings").click();
    await expect(this.byTestId("settings")).toBeVisible();
  }

  async closeSettings() {
    await this.byTestId("settings-close").click();
    await expect(this.byTestId("settings")).toBeHidden();
  }

  /** Switches to `theme` with the theme button, unless it is on already. */
  async useTheme(theme: "light" | "dark") {
    const html = this.page.locator("html");
    if ((await html.getAttribute("data-theme")) !== theme)
      await this.byTestId("theme-toggle").click();
    await expect(html).toHaveAttribute("data-theme", theme);
  }

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  async ask(question: string) {
    await this.byTestId("question").fill(question);
  }

  /** Clicks Plan; the caller waits for what it expects (nodes, an error). */
  async startPlan() {
    await this.byTestId("plan").click();
  }

  /** Plans and waits until the Conductor has finished and `steps` nodes are on the canvas. */
  async plan(steps: number) {
    await this.startPlan();
    await this.planned(steps);
  }

  /** Waits until the Conductor has finished and `steps` nodes are on the canvas. */
  async planned(steps: number) {
    await expect(this.byTestId("plan")).toBeEnabled();
    await expect(this.nodes()).toHaveCount(steps);
  }

  nodes(): Locator {
    return this.byTestId("step-node");
  }

  node(i: number): Locator {
    return this.page.locator(`[data-testid="step-node"][data-index="${i}"]`);
  }

  status(i: number): Locator {
    return this.node(i).getByTestId("status-badge");
  }

  workerName(i: number): Locator {
    return this.node(i).locator(".step-worker");
  }

  subtask(i: number): Locator {
    return this.node(i).locator(".step-subtask");
  }

  output(i: number): Locator {
    return this.node(i).getByTestId("step-output");
  }

  /** React Flow's wrapper of a step node: it carries the step id and the node's position. */
  private wrapper(i: number): Locator {
    return this.page.locator(".react-flow__node").filter({ has: this.node(i) });
  }

  async stepId(i: number): Promise<string> {
    const id = await this.wrapper(i).getAttribute("data-id");
    if (!id) throw new Error(`Step ${i} has no id`);
    return id;
  }

  /** The node's position in flow coordinates, read from React Flow's transform. */
  async position(i: number): Promise<{ x: number; y: number }> {
    const transform = await this.wrapper(i).evaluate((el) => (el as HTMLElement).style.transform);
    const m = /translate\(\s*(-?[\d.]+)px,\s*(-?[\d.]+)px\)/.exec(transform);
    if (!m) throw new Error(`Unexpected node transform: ${transform}`);
    return { x: Number(m[1]), y: Number(m[2]) };
  }

  /** Whether the listed nodes lie wholly inside the visible canvas. */
  private async inView(indices: number[]): Promise<boolean> {
    const pane = await boxOf(this.page.locator(".react-flow"));
    for (const i of indices) {
      const b = await boxOf(this.node(i));
      const inside =
        b.x >= pane.x &&
        b.y >= pane.y &&
        b.x + b.width <= pane.x + pane.width &&
        b.y + b.height <= pane.y + pane.height;
      if (!inside) return false;
    }
    return true;
  }

  /**
   * Brings nodes into view before the mouse reaches for them. The automatic layout can push a
   * node out of the canvas (a drawn edge adds a column) and the view is only fitted when the
   * number of steps changes; a user would pan or fit the view, and so does this.
   */
  async showNodes(...indices: number[]) {
    await this.settle();
    if (await this.inView(indices)) return;
    await this.fitView();
    await expect.poll(() => this.inView(indices)).toBe(true);
  }

  async selectNode(i: number) {
    await this.showNodes(i);
    await this.node(i).locator(".step-head").click();
    await expect(this.byTestId("inspector")).toContainText(`Step ${i + 1} of`);
  }

  /** Drags a node by its header with real mouse moves (several intermediate positions). */
  async dragNode(i: number, dx: number, dy: number) {
    await this.showNodes(i);
    const from = center(await boxOf(this.node(i).locator(".step-head")));
    const mouse = this.page.mouse;
    await mouse.move(from.x, from.y);
    await mouse.down();
    await mouse.move(from.x + dx, from.y + dy, { steps: 12 });
    await mouse.up();
  }

  /** React Flow's own "fit view" control: brings every node into view after a re-layout. */
  async fitView() {
    await this.page.locator(".react-flow__controls-fitview").click();
  }

  private handle(i: number, kind: "source" | "target"): Locator {
    return this.node(i).locator(`.react-flow__handle.${kind}`);
  }

  /** Draws an edge by dragging from step `from`'s source handle onto step `to`'s target handle. */
  async connect(from: number, to: number) {
    await this.showNodes(from, to);
    const a = center(await boxOf(this.handle(from, "source")));
    const b = center(await boxOf(this.handle(to, "target")));
    const mouse = this.page.mouse;
    await mouse.move(a.x, a.y);
    await mouse.down();
    await mouse.move(b.x, b.y, { steps: 12 });
    await mouse.up();
  }

  /** The edge that shows step `to` seeing step `from` (ids as of now). */
  async edge(from: number, to: number): Promise<Locator> {
    return this.byTestId(`rf__edge-${await this.stepId(from)}->${await this.stepId(to)}`);
  }

  /**
   * Clicks an edge on its drawn path: halfway along it (for a curve between two handles, the
   * midpoint of the handles), or, where another edge or a node lies on top there (detours that run
   * side by side at a small zoom), the point nearest halfway where this edge is the one on top, as
   * a user would aim. Expects the edge selected.
   */
  async clickEdge(from: number, to: number) {
    await this.showNodes(from, to);
    const edge = await this.edge(from, to);
    const id = await edge.getAttribute("data-id");
    const point = await edge.locator("path.react-flow__edge-path").evaluate((el, edgeId) => {
      const path = el as SVGPathElement;
      const ctm = path.getScreenCTM();
      if (!ctm) throw new Error("The edge path is not on the screen");
      const length = path.getTotalLength();
      const onTop = (p: DOMPoint) =>
        document
          .elementFromPoint(p.x, p.y)
          ?.closest(".react-flow__edge")
          ?.getAttribute("data-id") === edgeId;
      for (let k = 0; k <= 50; k++) {
        const at = length / 2 + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * (length / 100);
        const p = path.getPointAtLength(at).matrixTransform(ctm);
        if (onTop(p)) return { x: p.x, y: p.y };
      }
      throw new Error(`No point of edge ${edgeId} lies on top of the canvas`);
    }, id);
    await this.page.mouse.click(point.x, point.y);
    await expect(edge).toHaveClass(/selected/);
  }

  /** Records a sample of the page after every DOM change from now on (see `samples`). */
  startSampling(): Promise<void> {
    return startSampling(this.page);
  }

  samples(): Promise<Sample[]> {
    return readSamples(this.page);
  }

  /** Resolves once the page has rendered two more frames: state changes from a key press are on screen. */
  async settle() {
    await this.page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
        ),
    );
  }

  async undo() {
    await this.byTestId("undo").click();
  }

  async redo() {
    await this.byTestId("redo").click();
  }

  async run() {
    await this.byTestId("run").click();
  }

  async cancel() {
    await this.byTestId("cancel").click();
  }

  /** Waits until no run is in progress (the Run button is back and enabled). */
  async waitIdle() {
    await expect(this.byTestId("run")).toBeEnabled();
  }

  private async download(testId: string): Promise<ExportedFile> {
    const [download] = await Promise.all([
      this.page.waitForEvent("download"),
      this.byTestId(testId).click(),
    ]);
    return readExport(download);
  }

  exportWorkflow(): Promise<ExportedFile> {
    return this.download("export-workflow");
  }

  exportRun(): Promise<ExportedFile> {
    return this.download("export-run");
  }

  /** The access list of every step, as the document holds it (read from a workflow export). */
  async accessLists(): Promise<Access[]> {
    const { json } = await this.exportWorkflow();
    return json.run.rounds[0]?.lists?.access_list ?? [];
  }

  /** Drops a file on the canvas, as a user dragging it from the desktop would. */
  async dropFile(name: string, text: string) {
    const transfer = await this.page.evaluateHandle(
      ([fileName, contents]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([contents], fileName, { type: "application/json" }));
        return dt;
      },
      [name, text] as const,
    );
    const canvas = this.byTestId("canvas");
    await canvas.dispatchEvent("dragover", { dataTransfer: transfer });
    await canvas.dispatchEvent("drop", { dataTransfer: transfer });
  }

  /** Forgets every stored run and the draft (as a fresh browser profile), then reloads. */
  async forgetStoredRuns() {
    await this.page.evaluate(
      (draftKey) =>
        new Promise<void>((resolve, reject) => {
          // The app saves its draft as the page goes away; this listener, added after the app's,
          // removes it again.
          window.addEventListener("pagehide", () => localStorage.removeItem(draftKey));
          const request = indexedDB.deleteDatabase("conductor-studio");
          request.onsuccess = () => resolve();
          request.onerror = () => reject(new Error("could not delete the run store"));
        }),
      DRAFT_KEY,
    );
    await this.page.reload();
    await expect(this.page.getByRole("heading", { name: "Conductor Studio" })).toBeVisible();
  }

  /** Opens a file through the hidden file input, as the Import button's picker would. */
  async importFile(file: FileInput) {
    await this.byTestId("import-input").setInputFiles(file);
  }
}
