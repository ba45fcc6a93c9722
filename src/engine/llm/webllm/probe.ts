/**
 * The WebGPU capability probe, run before anything downloads. It asks the same questions WebLLM's
 * `detectGPUDevice` asks (a high-performance adapter, its limits, `shader-f16`) and answers in plain
 * words for the UI. Typed with minimal local interfaces so it runs against fakes in tests.
 */

/** What an adapter says about itself (`GPUAdapterInfo`, or the older `requestAdapterInfo()`). */
export interface GpuAdapterInfoLike {
  readonly vendor?: string;
  readonly architecture?: string;
  readonly device?: string;
  readonly description?: string;
  readonly isFallbackAdapter?: boolean;
}

/** The limits WebLLM checks; a missing one is treated as unknown, not as too low. */
export interface GpuLimitsLike {
  readonly maxBufferSize?: number;
  readonly maxStorageBufferBindingSize?: number;
  readonly maxComputeWorkgroupStorageSize?: number;
  readonly maxStorageBuffersPerShaderStage?: number;
}

export interface GpuAdapterLike {
  readonly features: { has(name: string): boolean };
  readonly limits: GpuLimitsLike;
  readonly info?: GpuAdapterInfoLike;
  /** Older browsers put it on the adapter rather than on `info`. */
  readonly isFallbackAdapter?: boolean;
  requestAdapterInfo?(): Promise<GpuAdapterInfoLike>;
}

export interface GpuLike {
  requestAdapter(options?: {
    powerPreference?: "high-performance" | "low-power";
  }): Promise<GpuAdapterLike | null>;
}

export interface NavigatorLike {
  readonly gpu?: GpuLike;
}

export type WebGpuProbeFailure = "insecure_context" | "no_webgpu" | "no_adapter" | "limits";

/** The probe's answer: whether the in-browser model can run here, and what the UI should say. */
export interface WebGpuProbe {
  ok: boolean;
  reason?: WebGpuProbeFailure;
  /** Whether `shader-f16` exists: the q4f16 builds need it, the q4f32 builds do not. */
  f16: boolean;
  /** A software (CPU) adapter such as SwiftShader: it works, very slowly. */
  software: boolean;
  /** e.g. "Intel Arc" or "Google SwiftShader"; empty when there is no adapter. */
  adapterName: string;
  /** The adapter's `maxBufferSize` in MiB (0 when unknown). */
  maxBufferMB: number;
  /** The adapter's `maxStorageBufferBindingSize` in MiB (0 when unknown). */
  maxStorageBindingMB: number;
  /** One or two sentences for the UI. */
  summary: string;
  warnings: string[];
}

const MiB = 1 << 20;

/**
 * The minimums of WebLLM 0.2.86's `detectGPUDevice`: it asks for 1 GiB buffers and bindings and
 * falls back to these, and throws "Cannot initialize runtime because of requested ..." below them.
 */
export const WEBLLM_MIN_LIMITS = {
  maxBufferSize: 256 * MiB,
  maxStorageBufferBindingSize: 128 * MiB,
  maxComputeWorkgroupStorageSize: 32 * 1024,
  maxStorageBuffersPerShaderStage: 10,
} as const satisfies Record<keyof GpuLimitsLike, number>;

/** Below this binding size WebLLM warns that only some (mostly "-1k" context) models fit. */
const PREFERRED_STORAGE_BINDING = 1024 * MiB;

const REMOTE = "switch to a remote Conductor";
const SOFTWARE_NAMES = /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render|warp/i;
const VENDOR_NAMES: Record<string, string> = {
  intel: "Intel",
  nvidia: "NVIDIA",
  amd: "AMD",
  ati: "AMD",
  apple: "Apple",
  qualcomm: "Qualcomm",
  arm: "Arm",
  google: "Google",
  microsoft: "Microsoft",
  mesa: "Mesa",
};

/** Architectures whose usual spelling the word rules below would get wrong. */
const ARCH_NAMES: Record<string, string> = { swiftshader: "SwiftShader" };

function capitalise(word: string): string {
  return VENDOR_NAMES[word.toLowerCase()] ?? word;
}

/** A readable adapter name: the description where there is one, else vendor and architecture. */
export function adapterNameOf(info: GpuAdapterInfoLike | undefined): string {
  const description = info?.description?.trim();
  if (description) return description;
  const vendor = info?.vendor?.trim() ? capitalise(info.vendor.trim()) : "";
  const architecture = info?.architecture?.trim() ?? "";
  const archWords =
    ARCH_NAMES[architecture.toLowerCase()] ??
    architecture
      .split(/[-_\s]+/)
      .filter(Boolean)
      .map((w) => (w.length <= 4 ? w.toUpperCase() : w[0]?.toUpperCase() + w.slice(1)))
      .join(" ");
  return [vendor, archWords].filter(Boolean).join(" ") || "an unnamed GPU";
}

async function requestAdapter(gpu: GpuLike): Promise<GpuAdapterLike | null> {
  for (const options of [{ powerPreference: "high-performance" as const }, undefined]) {
    try {
      const adapter = await gpu.requestAdapter(options);
      if (adapter) return adapter;
    } catch {
      // Some browsers throw instead of resolving null; try the default adapter, then give up.
    }
  }
  return null;
}

async function infoOf(adapter: GpuAdapterLike): Promise<GpuAdapterInfoLike | undefined> {
  if (adapter.info) return adapter.info;
  try {
    return await adapter.requestAdapterInfo?.();
  } catch {
    return undefined;
  }
}

function limitProblems(limits: GpuLimitsLike): string[] {
  const problems: string[] = [];
  for (const [name, min] of Object.entries(WEBLLM_MIN_LIMITS)) {
    const value = limits[name as keyof GpuLimitsLike];
    if (value !== undefined && value < min) {
      const show = (n: number) => (min >= MiB ? `${Math.floor(n / MiB)} MB` : String(n));
      problems.push(`${name} is ${show(value)}, at least ${show(min)} is needed`);
    }
  }
  return problems;
}

function result(base: Partial<WebGpuProbe> & Pick<WebGpuProbe, "summary">): WebGpuProbe {
  return {
    ok: false,
    f16: false,
    software: false,
    adapterName: "",
    maxBufferMB: 0,
    maxStorageBindingMB: 0,
    warnings: [],
    ...base,
  };
}

/**
 * Checks, in order, a secure context, `navigator.gpu`, an adapter (high-performance first), the
 * limits WebLLM needs, `shader-f16` and a software fallback adapter. Never throws.
 */
export async function probeWebGPU(
  nav: NavigatorLike | undefined = globalThis.navigator,
  isSecure: boolean = globalThis.isSecureContext ?? false,
): Promise<WebGpuProbe> {
  if (!isSecure) {
    return result({
      reason: "insecure_context",
      summary: `WebGPU only works on a secure page (https:// or localhost), and this page is not one. Open the studio over HTTPS, or ${REMOTE}.`,
    });
  }
  const gpu = nav?.gpu;
  if (!gpu) {
    return result({
      reason: "no_webgpu",
      summary: `WebGPU is not available in this browser. Use Chrome or Edge 113+, or ${REMOTE}.`,
    });
  }
  const adapter = await requestAdapter(gpu);
  if (!adapter) {
    return result({
      reason: "no_adapter",
      summary: `WebGPU is not available: this browser found no usable GPU. Turn on hardware acceleration in the browser settings and update the graphics driver, or ${REMOTE}.`,
    });
  }

  const info = await infoOf(adapter);
  const adapterName = adapterNameOf(info);
  const f16 = adapter.features.has("shader-f16");
  const identity = `${info?.vendor ?? ""} ${info?.architecture ?? ""} ${info?.description ?? ""}`;
  const software =
    info?.isFallbackAdapter === true ||
    adapter.isFallbackAdapter === true ||
    SOFTWARE_NAMES.test(identity);
  const { maxBufferSize = 0, maxStorageBufferBindingSize = 0 } = adapter.limits;
  const base = {
    f16,
    software,
    adapterName,
    maxBufferMB: Math.floor(maxBufferSize / MiB),
    maxStorageBindingMB: Math.floor(maxStorageBufferBindingSize / MiB),
  };

  const problems = limitProblems(adapter.limits);
  if (problems.length > 0) {
    return result({
      ...base,
      reason: "limits",
      summary: `WebGPU is available on ${adapterName}, but its limits are too low for WebLLM (${problems.join("; ")}). Try another browser, or ${REMOTE}.`,
    });
  }

  // One notice, not one per fact: on a software adapter nothing else matters (the smallest model
  // is preselected, see chooseModel), and the missing shader-f16 is said in the summary.
  const warnings: string[] = [];
  if (software) {
    warnings.push(
      `${adapterName} is a software adapter: models run on the CPU, very slowly, so the smallest one is preselected. For real questions, ${REMOTE}.`,
    );
  } else if (
    maxStorageBufferBindingSize > 0 &&
    maxStorageBufferBindingSize < PREFERRED_STORAGE_BINDING
  ) {
    warnings.push(
      `This GPU binds at most ${base.maxStorageBindingMB} MB per buffer (WebLLM prefers 1024 MB); larger models may fail to load, in which case pick a smaller one.`,
    );
  }
  const where = software ? `only through ${adapterName}, a software adapter` : `on ${adapterName}`;
  const f16Words = f16
    ? "shader-f16 supported"
    : "no shader-f16, so the q4f32 builds are used: about 15% more GPU memory, a little slower";
  return result({
    ...base,
    ok: true,
    summary: `WebGPU is available ${where} (${f16Words}).`,
    warnings,
  });
}
