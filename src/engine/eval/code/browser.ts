/**
 * The browser sandbox: every answer gets a sandbox frame of its own (browser-frame.ts: an opaque
 * origin, no network, no storage of the studio's), whose worker runs one Pyodide interpreter made
 * from the shared memory snapshot; the frame is removed when the answer is done, so nothing a
 * program plants reaches the next answer. The page talks to each frame through one MessageChannel
 * and believes nothing it says beyond that answer (pool.ts checks every message). Import this
 * module lazily: creating the sandbox starts nothing; the first program (or `warm()`) fetches
 * Pyodide.
 */
import type { HostMessage } from "./protocol.ts";
import type { PoolOptions, Sandbox, WorkerPort } from "./pool.ts";
import { createInterpreterPool } from "./pool.ts";
import { sandboxFiles } from "./browser-assets.ts";
import { sandboxFrameDocument } from "./browser-frame.ts";

export interface BrowserSandboxOptions extends Omit<PoolOptions, "spawn" | "maxAnswers"> {
  /**
   * Test-only (the `/?sandbox-test` page): JavaScript appended to every frame's worker script, so
   * it runs in the worker's global scope as a program that escaped Python would.
   */
  escape?: string;
  /** Test-only: every message a frame sends, before it is checked. */
  observe?: (data: unknown) => void;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

function spawnSandboxFrame(opts: BrowserSandboxOptions): WorkerPort {
  let deliver: (data: unknown) => void = () => undefined;
  let failure: (message: string) => void = () => undefined;
  let gone = false;
  const queue: HostMessage[] = [];
  let port: MessagePort | null = null;

  const frame = document.createElement("iframe");
  // Scripts only: no allow-same-origin (an opaque origin), no forms, popups or navigation.
  frame.setAttribute("sandbox", "allow-scripts");
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  frame.style.display = "none";
  frame.srcdoc = sandboxFrameDocument();
  const loaded = new Promise<void>((resolve) =>
    frame.addEventListener("load", () => resolve(), { once: true }),
  );
  document.body.appendChild(frame);

  const progress = (loaded: number, total: number) => deliver({ type: "progress", loaded, total });
  Promise.all([sandboxFiles(progress), loaded])
    .then(([files]) => {
      const target = frame.contentWindow;
      if (gone) return;
      if (!target) throw new Error("the sandbox frame did not open");
      const channel = new MessageChannel();
      port = channel.port1;
      port.onmessage = (e: MessageEvent<unknown>) => {
        opts.observe?.(e.data);
        const d = e.data as { type?: unknown; message?: unknown } | null;
        if (d?.type === "host-error") failure(String(d.message));
        else deliver(e.data);
      };
      const host = opts.escape ? `${files.host}\n;${opts.escape}\n` : files.host;
      target.postMessage(host, "*", [channel.port2]);
      // Each frame gets its own copies, moved rather than cloned twice on the way.
      const copies = Object.fromEntries(
        Object.entries(files.runtime).map(([name, b]) => [name, b.slice()]),
      );
      const buffers = Object.values(copies).map((b) => b.buffer);
      port.postMessage({ files: copies, buffers }, buffers);
      for (const m of queue.splice(0)) port.postMessage(m);
    })
    .catch((e: unknown) => failure(`The Python runtime could not be loaded: ${errorText(e)}`));

  return {
    post: (msg) => (port ? port.postMessage(msg) : queue.push(msg)),
    onMessage: (cb) => (deliver = cb),
    onFailure: (cb) => (failure = cb),
    terminate: () => {
      gone = true;
      port?.close();
      frame.remove();
    },
  };
}

/** A sandbox of Pyodide interpreters, one sandbox frame per answer. */
export function createBrowserSandbox(opts: BrowserSandboxOptions = {}): Sandbox {
  const { escape, observe, ...pool } = opts;
  const frameOpts: BrowserSandboxOptions = {};
  if (escape !== undefined) frameOpts.escape = escape;
  if (observe) frameOpts.observe = observe;
  return createInterpreterPool({
    ...pool,
    // One answer per frame: the pristine guarantee, whatever the program did to its realm.
    maxAnswers: 1,
    spawn: () => spawnSandboxFrame(frameOpts),
  });
}
