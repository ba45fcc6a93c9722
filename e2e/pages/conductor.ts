import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Locator } from "@playwright/test";
import { expect } from "@playwright/test";
import { z } from "zod";
import { CHROMIUM_ARGS } from "../../playwright.config.ts";
import type { RecordedRequest, TestServer } from "../server/server.ts";
import type { PoolWorker } from "../support/scenario.ts";
import { WORKERS } from "../support/scenario.ts";
import { storeSettings, storedWorker } from "./settings.ts";
import { StudioPart } from "./studioPart.ts";

/**
 * Launch options for a spec file, as the config's but with `extraArgs`: `--enable-unsafe-webgpu`
 * gives Debian's Chromium a software WebGPU adapter (SwiftShader); without it there is none.
 */
export function chromiumWith(...extraArgs: string[]) {
  const system = "/usr/bin/chromium";
  return {
    executablePath: existsSync(system) ? system : undefined,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  };
}

const FIXTURE_DIR = fileURLToPath(new URL("../fixtures/model/", import.meta.url));

/** The parts of an MLC `tensor-cache.json` the fixture check reads. */
const TensorCacheSchema = z.object({
  records: z.array(
    z.object({
      dataPath: z.string(),
      nbytes: z.number().int().positive(),
      records: z.array(z.object({ nbytes: z.number(), byteOffset: z.number() })),
    }),
  ),
});

/**
 * The files of the tiny MLC model record in e2e/fixtures/model, by name. Throws when the manifest
 * does not match the shards on disk, so a test never serves a record WebLLM would reject for that.
 */
export function modelRecordFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(FIXTURE_DIR)) {
    if (name !== "README.md") files.set(name, readFileSync(`${FIXTURE_DIR}${name}`));
  }
  const manifest = TensorCacheSchema.parse(
    JSON.parse(files.get("tensor-cache.json")?.toString("utf8") ?? "null"),
  );
  for (const shard of manifest.records) {
    const size = files.get(shard.dataPath)?.byteLength;
    const last = shard.records.at(-1);
    if (size !== shard.nbytes || !last || last.byteOffset + last.nbytes !== size) {
      throw new Error(`Fixture ${shard.dataPath}: ${size} bytes, manifest says ${shard.nbytes}`);
    }
  }
  return files;
}

/** The weight files WebLLM fetches only after it has instantiated the model library. */
export const WEIGHT_FILES = ["tensor-cache.json", "params_shard_0.bin", "params_shard_1.bin"];

export interface ServedModel {
  id: string;
  /** What the user types as the weights URL (WebLLM adds `resolve/main/`). */
  weightsUrl: string;
  /** The folder the files are really served from. */
  filesUrl: string;
  libUrl: string;
  /** Paths (on the server) of the record's files and of its library. */
  paths: { files: string; lib: string };
}

/**
 * Serves the fixture record under `/models/<id>/resolve/main/`, and as its model library a `.wasm`
 * whose bytes are not WebAssembly (after `libLatencyMs`, so the loading state can be seen).
 */
export function serveModelRecord(
  server: TestServer,
  { id, libLatencyMs = 0 }: { id: string; libLatencyMs?: number },
): ServedModel {
  const files = `/models/${id}/resolve/main/`;
  for (const [name, body] of modelRecordFiles()) {
    if (name.endsWith(".wasm")) continue;
    server.serveFile(`${files}${name}`, body);
  }
  const lib = `/libs/${id}-webgpu.wasm`;
  server.serveFile(lib, {
    body: readFileSync(`${FIXTURE_DIR}not-a-model-library.wasm`),
    latencyMs: libLatencyMs,
  });
  return {
    id,
    weightsUrl: `${server.url}/models/${id}`,
    filesUrl: `${server.url}${files}`,
    libUrl: `${server.url}${lib}`,
    paths: { files, lib },
  };
}

/** The GET requests the server saw under `prefix`, by file name, in order. */
export function fetchedUnder(server: TestServer, prefix: string): string[] {
  return server.requests
    .filter((r: RecordedRequest) => r.method === "GET" && r.path.startsWith(prefix))
    .map((r) => r.path.slice(prefix.length));
}

/** What `ConductorPage.seed` stores (the app's stored settings, src/state/storage/persist.ts). */
export interface SeedSettings {
  /** Where the pool's workers are served (one test server); without it the pool is empty. */
  poolBaseURL?: string;
  pool?: readonly PoolWorker[];
  /** Conductor settings to store, e.g. `{ backend: "remote", baseURL, model }`. */
  conductor?: Record<string, unknown>;
}

/**
 * Page object for the Conductor's backends: the WebGPU verdict, the in-browser model (settings,
 * custom records, loading, problems) and the remote endpoint. Studio-wide actions (question,
 * plan, nodes) come from `studio`.
 */
export class ConductorPage extends StudioPart {
  /** Stores settings before the app boots; without a call the app starts from its defaults. */
  async seed({ poolBaseURL, pool = WORKERS, conductor = {} }: SeedSettings) {
    const settings = {
      pool: poolBaseURL
        ? pool.map((w, i) => storedWorker(i, { ...w, kind: "openai", baseURL: poolBaseURL }))
        : [],
      conductor,
    };
    await storeSettings(this.page, settings);
  }

  goto() {
    return this.studio.goto();
  }

  /** The status panel above the question; `data-backend` says which Conductor plans. */
  status(): Locator {
    return this.byTestId("conductor-status");
  }

  /** Picks the backend in settings (which must be open). */
  async chooseBackend(backend: "webllm" | "remote") {
    await this.byTestId(`backend-${backend}`).check();
  }

  /** Fills the remote Conductor's fields in settings (which must be open, on "remote"). */
  async fillRemote(fields: { baseURL?: string; model?: string; key?: string }) {
    if (fields.baseURL !== undefined) await this.byTestId("conductor-baseurl").fill(fields.baseURL);
    if (fields.model !== undefined) await this.byTestId("conductor-model").fill(fields.model);
    if (fields.key !== undefined) await this.byTestId("conductor-key").fill(fields.key);
  }

  /** Sets the Conductor's generation settings (settings open). */
  async setGeneration({ temperature, maxTokens }: { temperature?: number; maxTokens?: number }) {
    if (temperature !== undefined)
      await this.byTestId("conductor-temperature").fill(String(temperature));
    if (maxTokens !== undefined)
      await this.byTestId("conductor-max-tokens").fill(String(maxTokens));
  }

  /** Sets the remote Conductor's price in $ per million tokens (settings open, on "remote"). */
  async setPrice({ input, output }: { input: number; output: number }) {
    await this.byTestId("conductor-price-input").fill(String(input));
    await this.byTestId("conductor-price-output").fill(String(output));
  }

  /** The custom-record form (settings open, in-browser backend); returns the form's message. */
  async addCustomModel(input: { id: string; weightsUrl: string; libUrl?: string }) {
    const summary = this.page.getByText("Use my own conversion of the Conductor weights…");
    if (!(await this.byTestId("custom-id").isVisible())) await summary.click();
    await this.byTestId("custom-id").fill(input.id);
    await this.byTestId("custom-url").fill(input.weightsUrl);
    await this.byTestId("custom-lib").fill(input.libUrl ?? "");
    await this.byTestId("custom-add").click();
    return this.byTestId("custom-message");
  }

  /** The custom-record form filled with a record the test server serves; returns the form's message. */
  addServedModel(model: ServedModel) {
    return this.addCustomModel({
      id: model.id,
      weightsUrl: model.weightsUrl,
      libUrl: model.libUrl,
    });
  }

  /** The ids offered in the in-browser model list. */
  modelOptions(): Promise<string[]> {
    return this.byTestId("webllm-model")
      .locator("option")
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  }

  /** Clicks Load, and confirms the first download when the studio asks. */
  async loadModel() {
    await this.byTestId("webllm-load").click();
    const confirm = this.byTestId("confirm-download");
    const progress = this.byTestId("load-progress").first();
    await expect(confirm.or(progress).first()).toBeVisible();
    if (await confirm.isVisible()) await this.byTestId("confirm-download-yes").click();
  }

  /** The classified in-browser model problem shown in settings. */
  problem(): Locator {
    return this.page.getByTestId("settings").getByTestId("webllm-problem");
  }

  /** Every localStorage entry of the page, as text. */
  localStorageText(): Promise<string> {
    return this.page.evaluate(() =>
      Object.keys(localStorage)
        .map((k) => `${k}=${localStorage.getItem(k) ?? ""}`)
        .join("\n"),
    );
  }
}
