/**
 * The document of one sandbox frame (browser.ts): a sandboxed iframe without `allow-same-origin`,
 * so it runs in an opaque origin that owns no storage of the studio's, under a policy of its own
 * that allows no connection at all. Its one script waits for the page's MessageChannel port and
 * the worker script's text, starts the interpreter's worker from a blob, and relays messages both
 * ways on that port; the worker inherits the frame's policy.
 */

/** The frame's only script. Its hash is in both policies below: change them together. */
export const SANDBOX_FRAME_SCRIPT =
  'onmessage=function(e){if(e.source!==parent||!e.ports[0]||typeof e.data!=="string")return;' +
  "onmessage=null;var p=e.ports[0],w=new Worker(URL.createObjectURL(new Blob([e.data],{type:'text/javascript'})));" +
  "w.onmessage=function(m){p.postMessage(m.data)};" +
  "w.onerror=function(x){p.postMessage({type:'host-error',message:String(x.message||'the worker failed')})};" +
  "p.onmessage=function(m){var d=m.data;w.postMessage(d,d&&d.buffers||[])}}";

/** `'sha256-…'` of SANDBOX_FRAME_SCRIPT (browser-frame.test.ts checks it). */
export const SANDBOX_FRAME_SCRIPT_HASH = "'sha256-2luV+HDKWwJcc4EXGFRLzakUnPR5jZNpt4zxOtrYnpE='";

/**
 * The frame's Content-Security-Policy, as a `<meta>` in its own document, so it holds whatever
 * the page was served with (the dev server sends none): no fetch, WebSocket, import, font, image
 * or beacon; only its own script, a blob worker and compiling WebAssembly. No `'unsafe-eval'`.
 */
export const SANDBOX_FRAME_POLICY = [
  "default-src 'none'",
  `script-src ${SANDBOX_FRAME_SCRIPT_HASH} 'wasm-unsafe-eval'`,
  "worker-src blob:",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/** The frame's `srcdoc`. */
export function sandboxFrameDocument(): string {
  return (
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${SANDBOX_FRAME_POLICY}">` +
    `<script>${SANDBOX_FRAME_SCRIPT}</script></head><body></body></html>`
  );
}
