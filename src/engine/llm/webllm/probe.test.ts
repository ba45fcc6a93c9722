import { describe, expect, it } from "vitest";
import { chooseModel } from "./catalogue.ts";
import type { GpuAdapterLike, GpuLimitsLike, NavigatorLike } from "./probe.ts";
import { adapterNameOf, probeWebGPU } from "./probe.ts";

const MiB = 1 << 20;
const GOOD_LIMITS: GpuLimitsLike = {
  maxBufferSize: 4096 * MiB,
  maxStorageBufferBindingSize: 2048 * MiB,
  maxComputeWorkgroupStorageSize: 32768,
  maxStorageBuffersPerShaderStage: 10,
};

function adapter(
  o: Omit<Partial<GpuAdapterLike>, "features"> & { features?: string[] } = {},
): GpuAdapterLike {
  const features = new Set(o.features ?? []);
  return {
    limits: GOOD_LIMITS,
    info: { vendor: "intel", architecture: "xe-lpg", description: "" },
    ...o,
    features: { has: (name: string) => features.has(name) },
  };
}

function nav(a: GpuAdapterLike | null, seen: unknown[] = []): NavigatorLike {
  return {
    gpu: {
      requestAdapter: (options) => {
        seen.push(options);
        return Promise.resolve(a);
      },
    },
  };
}

describe("probeWebGPU", () => {
  it("refuses an insecure page before touching navigator.gpu", async () => {
    const probe = await probeWebGPU(nav(adapter({ features: ["shader-f16"] })), false);
    expect(probe).toMatchObject({ ok: false, reason: "insecure_context" });
    expect(probe.summary).toMatch(/secure page.*remote Conductor/);
  });

  it("says WebGPU is unavailable when navigator has no gpu", async () => {
    for (const n of [{}, undefined]) {
      const probe = await probeWebGPU(n, true);
      expect(probe).toMatchObject({ ok: false, reason: "no_webgpu", f16: false, adapterName: "" });
      expect(probe.summary).toBe(
        "WebGPU is not available in this browser. Use Chrome or Edge 113+, or switch to a remote Conductor.",
      );
    }
  });

  it("asks for a high-performance adapter, then the default, then reports none", async () => {
    const seen: unknown[] = [];
    const probe = await probeWebGPU(nav(null, seen), true);
    expect(seen).toEqual([{ powerPreference: "high-performance" }, undefined]);
    expect(probe).toMatchObject({ ok: false, reason: "no_adapter" });
    expect(probe.summary).toMatch(/^WebGPU is not available: .*no usable GPU/);
  });

  it("treats a throwing requestAdapter as no adapter", async () => {
    const throwing: NavigatorLike = {
      gpu: { requestAdapter: () => Promise.reject(new Error("boom")) },
    };
    expect(await probeWebGPU(throwing, true)).toMatchObject({ ok: false, reason: "no_adapter" });
  });

  it("reports an f16 hardware adapter as ready, and the q4f16 build is chosen", async () => {
    const probe = await probeWebGPU(
      nav(
        adapter({
          features: ["shader-f16"],
          info: { vendor: "intel", architecture: "", description: "Intel Arc" },
        }),
      ),
      true,
    );
    expect(probe).toMatchObject({
      ok: true,
      f16: true,
      software: false,
      adapterName: "Intel Arc",
      maxBufferMB: 4096,
      maxStorageBindingMB: 2048,
    });
    expect(probe.summary).toBe("WebGPU is available on Intel Arc (shader-f16 supported).");
    expect(probe.warnings).toEqual([]);
    const choice = chooseModel(probe);
    expect(choice).toMatchObject({ id: "Qwen2.5-7B-Instruct-q4f16_1-MLC", changed: false });
  });

  it("flags a fallback adapter without shader-f16 as software, warns, and picks q4f32", async () => {
    const probe = await probeWebGPU(
      nav(
        adapter({
          info: {
            vendor: "google",
            architecture: "swiftshader",
            description: "",
            isFallbackAdapter: true,
          },
        }),
      ),
      true,
    );
    expect(probe).toMatchObject({
      ok: true,
      f16: false,
      software: true,
      adapterName: "Google SwiftShader",
    });
    expect(probe.summary).toMatch(
      /^WebGPU is available only through Google SwiftShader, a software adapter \(no shader-f16/,
    );
    // One notice: slow, the smallest model preselected, a remote Conductor for real work.
    expect(probe.warnings).toEqual([
      expect.stringMatching(/software adapter: .* very slowly, so the smallest one is preselected/),
    ]);
    const choice = chooseModel(probe);
    expect(choice).toMatchObject({ id: "Qwen2.5-0.5B-Instruct-q4f32_1-MLC", changed: true });
    expect(choice.reason).toMatch(/software one/);
    // A build the user picked is kept (the q4f32 twin where shader-f16 is missing).
    expect(chooseModel(probe, "Qwen2.5-7B-Instruct-q4f32_1-MLC")).toMatchObject({
      id: "Qwen2.5-7B-Instruct-q4f32_1-MLC",
      changed: false,
    });
    expect(chooseModel(probe, "Qwen2.5-3B-Instruct-q4f16_1-MLC")).toMatchObject({
      id: "Qwen2.5-3B-Instruct-q4f32_1-MLC",
      changed: true,
    });
  });

  it("reads isFallbackAdapter from the adapter itself on older browsers, and SwiftShader by name", async () => {
    const older = adapter({ isFallbackAdapter: true, info: { vendor: "x", architecture: "y" } });
    expect((await probeWebGPU(nav(older), true)).software).toBe(true);
    const named = adapter({
      info: { vendor: "google", architecture: "", description: "SwiftShader Device (Subzero)" },
    });
    expect((await probeWebGPU(nav(named), true)).software).toBe(true);
  });

  it("falls back to requestAdapterInfo() where adapter.info is missing", async () => {
    const a = adapter({
      features: ["shader-f16"],
      info: undefined,
      requestAdapterInfo: () => Promise.resolve({ vendor: "nvidia", architecture: "ampere" }),
    });
    expect((await probeWebGPU(nav(a), true)).adapterName).toBe("NVIDIA Ampere");
  });

  it("fails on limits below WebLLM's minimums and names them", async () => {
    const low = adapter({
      limits: {
        ...GOOD_LIMITS,
        maxStorageBufferBindingSize: 64 * MiB,
        maxComputeWorkgroupStorageSize: 16384,
      },
    });
    const probe = await probeWebGPU(nav(low), true);
    expect(probe).toMatchObject({ ok: false, reason: "limits" });
    expect(probe.summary).toMatch(/maxStorageBufferBindingSize is 64 MB, at least 128 MB/);
    expect(probe.summary).toMatch(/maxComputeWorkgroupStorageSize is 16384, at least 32768/);
  });

  it("accepts WebGPU's default limits but warns about a small storage binding", async () => {
    const defaults = adapter({
      features: ["shader-f16"],
      limits: {
        maxBufferSize: 256 * MiB,
        maxStorageBufferBindingSize: 128 * MiB,
        maxComputeWorkgroupStorageSize: 16384 * 2,
        maxStorageBuffersPerShaderStage: 10,
      },
    });
    const probe = await probeWebGPU(nav(defaults), true);
    expect(probe.ok).toBe(true);
    expect(probe.warnings).toEqual([expect.stringMatching(/at most 128 MB per buffer/)]);
  });
});

describe("adapterNameOf", () => {
  it.each([
    [{ description: "NVIDIA GeForce RTX 4090" }, "NVIDIA GeForce RTX 4090"],
    [{ vendor: "apple", architecture: "metal-3" }, "Apple Metal 3"],
    [{ vendor: "amd", architecture: "rdna-3" }, "AMD RDNA 3"],
    [{}, "an unnamed GPU"],
    [undefined, "an unnamed GPU"],
  ])("%j -> %s", (info, name) => {
    expect(adapterNameOf(info)).toBe(name);
  });
});
