// Importing WebLLM in node is safe: its module body builds configs and wasm glue but touches no GPU.
import { modelLibURLPrefix, modelVersion, prebuiltAppConfig } from "@mlc-ai/web-llm";
import { describe, expect, it } from "vitest";
import {
  CATALOGUE_IDS,
  DEFAULT_MODEL_ID,
  SNAPSHOT_RECORDS,
  WEBLLM_LIB_VERSION,
  buildCatalogue,
  chooseModel,
  contextWindowFor,
  quantisationOf,
  twinOf,
  vramAtContext,
} from "./catalogue.ts";
import { cleanModelUrl, customModelRecord, defaultModelLib } from "./custom.ts";
import type { WebGpuProbe } from "./probe.ts";

const probe = (o: Partial<WebGpuProbe>): WebGpuProbe => ({
  ok: true,
  f16: true,
  software: false,
  adapterName: "GPU",
  maxBufferMB: 4096,
  maxStorageBindingMB: 2048,
  summary: "",
  warnings: [],
  ...o,
});

describe("catalogue", () => {
  it("lists the default, its q4f32 twin and smaller Qwen2.5 models, all in prebuiltAppConfig", () => {
    expect(CATALOGUE_IDS[0]).toBe(DEFAULT_MODEL_ID);
    expect(CATALOGUE_IDS).toEqual([
      "Qwen2.5-7B-Instruct-q4f16_1-MLC",
      "Qwen2.5-7B-Instruct-q4f32_1-MLC",
      "Qwen2.5-3B-Instruct-q4f16_1-MLC",
      "Qwen2.5-3B-Instruct-q4f32_1-MLC",
      "Qwen2.5-1.5B-Instruct-q4f16_1-MLC",
      "Qwen2.5-1.5B-Instruct-q4f32_1-MLC",
      "Qwen2.5-0.5B-Instruct-q4f16_1-MLC",
      "Qwen2.5-0.5B-Instruct-q4f32_1-MLC",
    ]);
    const ids = new Set(prebuiltAppConfig.model_list.map((r) => r.model_id));
    for (const id of CATALOGUE_IDS) expect(ids.has(id)).toBe(true);
  });

  it("keeps its snapshot equal to the installed WebLLM's records (update it when WebLLM moves)", () => {
    expect(`${modelVersion}`).toBe(WEBLLM_LIB_VERSION);
    for (const snap of SNAPSHOT_RECORDS) {
      const live = prebuiltAppConfig.model_list.find((r) => r.model_id === snap.model_id);
      expect(live, snap.model_id).toBeDefined();
      expect(snap.model).toBe(live?.model);
      expect(snap.model_lib).toBe(live?.model_lib);
      expect(snap.vram_required_MB).toBe(live?.vram_required_MB);
      expect(snap.low_resource_required).toBe(live?.low_resource_required);
      expect(snap.overrides?.context_window_size).toBe(live?.overrides?.context_window_size);
    }
    expect(buildCatalogue(prebuiltAppConfig)).toEqual(buildCatalogue());
  });

  it("prefers live records where given, with sizes and memory needs", () => {
    const changed = {
      model_list: [
        {
          model: "https://x/y",
          model_id: DEFAULT_MODEL_ID,
          model_lib: "https://x/lib.wasm",
          vram_required_MB: 6000.4,
        },
      ],
    };
    const first = buildCatalogue(changed)[0];
    expect(first).toMatchObject({
      id: DEFAULT_MODEL_ID,
      modelUrl: "https://x/y",
      vramMB: 6000,
      isDefault: true,
    });
    const all = buildCatalogue();
    expect(all).toHaveLength(8);
    for (const m of all) {
      expect(m.downloadMB).toBeGreaterThan(0);
      expect(m.vramMB).toBeGreaterThan(m.downloadMB * 0.9);
    }
    expect(all.find((m) => m.id === "Qwen2.5-7B-Instruct-q4f32_1-MLC")).toMatchObject({
      vramMB: 5900,
      label: "Qwen2.5 7B Instruct (q4f32)",
    });
  });

  it("pairs twins and reads quantisations", () => {
    expect(twinOf(DEFAULT_MODEL_ID)).toBe("Qwen2.5-7B-Instruct-q4f32_1-MLC");
    expect(twinOf("Qwen2.5-0.5B-Instruct-q4f32_1-MLC")).toBe("Qwen2.5-0.5B-Instruct-q4f16_1-MLC");
    expect(twinOf("Qwen2.5-0.5B-Instruct-q0f16-MLC")).toBeUndefined();
    expect(quantisationOf("My-Conductor-q4f32_1-MLC")).toBe("q4f32_1");
  });
});

describe("chooseModel", () => {
  it.each([
    [true, undefined, "Qwen2.5-7B-Instruct-q4f16_1-MLC", false],
    [false, undefined, "Qwen2.5-7B-Instruct-q4f32_1-MLC", true],
    [false, "Qwen2.5-3B-Instruct-q4f16_1-MLC", "Qwen2.5-3B-Instruct-q4f32_1-MLC", true],
    [true, "Qwen2.5-1.5B-Instruct-q4f32_1-MLC", "Qwen2.5-1.5B-Instruct-q4f16_1-MLC", true],
    [false, "Qwen2.5-0.5B-Instruct-q4f32_1-MLC", "Qwen2.5-0.5B-Instruct-q4f32_1-MLC", false],
    [false, "Conductor-7B-q4f16_1-MLC", "Conductor-7B-q4f16_1-MLC", false],
  ])("f16=%s, preferred %s -> %s", (f16, preferred, id, changed) => {
    const choice = chooseModel(probe({ f16 }), preferred);
    expect(choice).toMatchObject({ id, changed });
    expect(choice.reason.length).toBeGreaterThan(20);
  });

  it("warns that a custom q4f16 record cannot load without shader-f16", () => {
    expect(chooseModel(probe({ f16: false }), "Conductor-7B-q4f16_1-MLC").reason).toMatch(
      /fail to load.*q4f32_1/,
    );
  });
});

describe("customModelRecord", () => {
  const QWEN2_7B_F16 = `${modelLibURLPrefix}${modelVersion}/Qwen2-7B-Instruct-q4f16_1_cs1k-webgpu.wasm`;

  it("defaults the library to the installed WebLLM's prebuilt Qwen2-7B library of the same quantisation", () => {
    const live = prebuiltAppConfig.model_list.find(
      (r) => r.model_id === "Qwen2-7B-Instruct-q4f16_1-MLC",
    );
    expect(defaultModelLib("q4f16_1")).toBe(live?.model_lib);
    expect(defaultModelLib("q4f16_1", prebuiltAppConfig)).toBe(QWEN2_7B_F16);
    expect(defaultModelLib("q4f32_1")).toBe(QWEN2_7B_F16.replace("q4f16_1", "q4f32_1"));
    // The prebuilt Qwen2.5-7B records use that same library.
    const qwen25 = prebuiltAppConfig.model_list.find((r) => r.model_id === DEFAULT_MODEL_ID);
    expect(qwen25?.model_lib).toBe(QWEN2_7B_F16);

    const r = customModelRecord({
      id: "Conductor-7B-q4f16_1-MLC",
      weightsUrl: "https://huggingface.co/me/conductor-7b-q4f16_1-MLC",
    });
    if (!r.ok) throw new Error(r.message);
    expect(r.record).toEqual({
      model: "https://huggingface.co/me/conductor-7b-q4f16_1-MLC/resolve/main/",
      model_id: "Conductor-7B-q4f16_1-MLC",
      model_lib: QWEN2_7B_F16,
      vram_required_MB: 5106.67,
      low_resource_required: false,
      overrides: { context_window_size: 4096 },
      required_features: ["shader-f16"],
    });
    expect(r.notes.join(" ")).toMatch(/adds resolve\/main\//);

    const f32 = customModelRecord({
      id: "Conductor-7B-q4f32_1-MLC",
      weightsUrl: "https://huggingface.co/me/c/resolve/v2/",
    });
    if (!f32.ok) throw new Error(f32.message);
    expect(f32.record.model_lib).toContain("Qwen2-7B-Instruct-q4f32_1_cs1k-webgpu.wasm");
    expect(f32.record.required_features).toBeUndefined();
    expect(f32.record.model).toBe("https://huggingface.co/me/c/resolve/v2/");
  });

  it("matches WebLLM's cleanModelUrl", () => {
    expect(cleanModelUrl("https://huggingface.co/a/b")).toBe(
      "https://huggingface.co/a/b/resolve/main/",
    );
    expect(cleanModelUrl("https://huggingface.co/a/b/resolve/dev")).toBe(
      "https://huggingface.co/a/b/resolve/dev/",
    );
    expect(cleanModelUrl("http://127.0.0.1:8080/m/resolve/main/")).toBe(
      "http://127.0.0.1:8080/m/resolve/main/",
    );
  });

  const id = "Conductor-7B-q4f16_1-MLC";
  it.each([
    ["https://huggingface.co/org/repo", true, "https://huggingface.co/org/repo/resolve/main/"],
    ["https://huggingface.co/org/repo/", true, "https://huggingface.co/org/repo/resolve/main/"],
    [
      "https://huggingface.co/org/repo/resolve/main",
      true,
      "https://huggingface.co/org/repo/resolve/main/",
    ],
    [
      "https://huggingface.co/org/repo/resolve/abc123/",
      true,
      "https://huggingface.co/org/repo/resolve/abc123/",
    ],
    [
      "  http://localhost:4000/models/conductor/resolve/main/ ",
      true,
      "http://localhost:4000/models/conductor/resolve/main/",
    ],
    [
      "http://127.0.0.1:4000/models/conductor",
      true,
      "http://127.0.0.1:4000/models/conductor/resolve/main/",
    ],
    ["huggingface.co/org/repo", false, "not an absolute URL"],
    ["/models/conductor/", false, "not an absolute URL"],
    ["ftp://example.com/m/", false, "ftp: URLs"],
    ["file:///home/me/model/", false, "file: URLs"],
    [
      "https://huggingface.co/org/repo/tree/main",
      false,
      "https://huggingface.co/org/repo/resolve/main",
    ],
    ["https://huggingface.co/org/repo/blob/main/mlc-chat-config.json", false, "web page"],
    ["https://example.com/m/resolve/main/mlc-chat-config.json", false, "not to one file"],
    ["https://example.com/m/params_shard_0.bin", false, "not to one file"],
    ["https://huggingface.co/org", false, "<org>/<repo>"],
    ["https://huggingface.co/org/repo/resolve/", false, "<org>/<repo>"],
    ["https://huggingface.co/org/repo/raw/main/", false, "<org>/<repo>"],
    ["https://example.com/m/?download=1", false, "?query"],
  ])("weights URL %j -> ok %s (%s)", (weightsUrl, ok, expected) => {
    const r = customModelRecord({ id, weightsUrl });
    expect(r.ok).toBe(ok);
    if (r.ok) expect(r.record.model).toBe(expected);
    else {
      expect(r.code).toBe("invalid_model_url");
      expect(r.message).toContain(expected);
    }
  });

  it.each([
    [{ id: "", weightsUrl: "https://huggingface.co/a/b" }, "invalid_model_id"],
    [{ id: "my model q4f16_1", weightsUrl: "https://huggingface.co/a/b" }, "invalid_model_id"],
    [{ id: DEFAULT_MODEL_ID, weightsUrl: "https://huggingface.co/a/b" }, "invalid_model_id"],
    [
      { id: "Qwen2-7B-Instruct-q4f16_1-MLC", weightsUrl: "https://huggingface.co/a/b" },
      "invalid_model_id",
    ],
    [{ id: "Conductor-7B", weightsUrl: "https://huggingface.co/a/b" }, "invalid_model_id"],
    [{ id, weightsUrl: "https://huggingface.co/a/b", modelLib: "lib.wasm" }, "invalid_model_lib"],
    [
      { id, weightsUrl: "https://huggingface.co/a/b", modelLib: "https://x.org/lib.so" },
      "invalid_model_lib",
    ],
    [
      {
        id,
        weightsUrl: "https://huggingface.co/a/b",
        modelLib: "data:application/wasm;base64,AA.wasm",
      },
      "invalid_model_lib",
    ],
  ])("%j -> %s", (input, code) => {
    const r = customModelRecord(input);
    expect(r).toMatchObject({ ok: false, code });
  });

  it("accepts an explicit library for an id without a quantisation", () => {
    const r = customModelRecord({
      id: "Conductor-7B",
      weightsUrl: "https://huggingface.co/a/b",
      modelLib: "https://x.org/libs/conductor-webgpu.wasm",
      vramMB: 6000,
    });
    expect(r).toMatchObject({
      ok: true,
      quantisation: undefined,
      record: { model_lib: "https://x.org/libs/conductor-webgpu.wasm", vram_required_MB: 6000 },
    });
  });
});

describe("context windows", () => {
  const seven = buildCatalogue().find((m) => m.id === DEFAULT_MODEL_ID)!;

  it("loads the 7B with 8,192 tokens by default, the others with their record's 4,096", () => {
    expect(seven.contextWindow).toBe(4096);
    expect(contextWindowFor(DEFAULT_MODEL_ID, null)).toBe(8192);
    expect(contextWindowFor("Qwen2.5-0.5B-Instruct-q4f16_1-MLC", null)).toBe(4096);
    expect(contextWindowFor(DEFAULT_MODEL_ID, 16_384)).toBe(16_384);
    const custom = [
      {
        model: "u",
        model_id: "Mine-q4f16_1-MLC",
        model_lib: "l",
        overrides: { context_window_size: 2048 },
      },
    ];
    expect(contextWindowFor("Mine-q4f16_1-MLC", null, custom)).toBe(2048);
  });

  it("shows the extra GPU memory of a larger window: 56 KB a token for the 7B in q4f16", () => {
    expect(seven.kvKBPerToken).toBe(56);
    expect(vramAtContext(seven, 4096)).toBe(Math.round(seven.vramMB));
    expect(vramAtContext(seven, 8192) - seven.vramMB).toBeCloseTo(224, 0);
    const f32 = buildCatalogue().find((m) => m.id === "Qwen2.5-7B-Instruct-q4f32_1-MLC")!;
    expect(vramAtContext(f32, 8192) - f32.vramMB).toBeCloseTo(448, 0);
  });
});
