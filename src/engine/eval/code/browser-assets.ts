/**
 * The page's copy of the sandbox's files (Pyodide's runtime and the worker script, served by the
 * app from `pyodide/`), fetched once and handed to every sandbox frame as bytes: the frames
 * themselves cannot fetch anything.
 */
import { PYODIDE_ASSETS } from "virtual:pyodide-assets";

/** The host script the frame starts; the other files are read by Pyodide inside the worker. */
export const HOST_SCRIPT = "sandbox-host.js";

export interface SandboxFiles {
  /** The worker script's text. */
  host: string;
  /** Pyodide's files by name. */
  runtime: Record<string, Uint8Array>;
}

type Progress = (loaded: number, total: number) => void;

let loading: Promise<SandboxFiles> | null = null;
const listeners = new Set<Progress>();

async function fetchAll(): Promise<SandboxFiles> {
  const total = PYODIDE_ASSETS.totalBytes;
  let loaded = 0;
  const one = async (name: string): Promise<Uint8Array> => {
    const res = await fetch(`${PYODIDE_ASSETS.base}${name}`);
    if (!res.ok || !res.body) throw new Error(`could not load ${name} (HTTP ${res.status})`);
    const parts: Uint8Array[] = [];
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      loaded += value.byteLength;
      for (const cb of listeners) cb(loaded, Math.max(total, loaded));
    }
    const all = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.byteLength;
    }
    return all;
  };
  const names = PYODIDE_ASSETS.files.map((f) => f.name);
  const bytes = await Promise.all(names.map(one));
  const runtime: Record<string, Uint8Array> = {};
  let host = "";
  names.forEach((name, i) => {
    const b = bytes[i] ?? new Uint8Array(0);
    if (name === HOST_SCRIPT) host = new TextDecoder().decode(b);
    else runtime[name] = b;
  });
  if (!host) throw new Error(`the sandbox's ${HOST_SCRIPT} is missing`);
  return { host, runtime };
}

/** The files, fetched on the first call; `progress` hears the download while it runs. */
export async function sandboxFiles(progress?: Progress): Promise<SandboxFiles> {
  if (progress) listeners.add(progress);
  try {
    loading ??= fetchAll().catch((e: unknown) => {
      loading = null;
      throw e;
    });
    return await loading;
  } finally {
    if (progress) listeners.delete(progress);
  }
}
