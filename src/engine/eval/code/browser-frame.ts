/**
 * The document of the sandbox frame (browser.ts): a sandboxed iframe without `allow-same-origin`,
 * so it runs in an opaque origin that owns no storage of the studio's, under a policy of its own
 * that allows no connection at all. One frame serves many answers, each in a fresh dedicated
 * worker of its own (started from a blob; it inherits the frame's policy), so the frame's script
 * is a relay that no worker can speak to:
 *
 * - It hears only its control port, which the page hands it once (a window message from
 *   `parent`). A worker has no handle on the frame's window or on that port.
 * - `setup` (once): the worker script's text, Pyodide's wasm (compiled here, once, and handed to
 *   every worker as a module: dedicated workers share the frame's agent cluster) and the other
 *   files (each worker gets its own copies).
 * - `start` (id, port): a fresh worker, handed that answer's MessagePort; the worker and the page
 *   talk on it directly. The frame sets no handler for the worker's messages, so whatever a worker
 *   posts to it is dropped; its errors are reported under its own id only.
 * - `stop` (id): ends that worker.
 */

/** The frame's only script. Its hash is in both policies below: change them together. */
export const SANDBOX_FRAME_SCRIPT =
  'onmessage=function(e){if(e.source!==parent||!e.ports[0]||e.data!=="conductor-sandbox")return;' +
  "onmessage=null;var c=e.ports[0],host=null,files=null,mod=null,ws=new Map();" +
  "c.onmessage=function(m){var d=m.data;if(!d||typeof d!=='object')return;" +
  "if(d.type==='setup'&&!host&&typeof d.host==='string'&&d.wasm instanceof Uint8Array&&d.files&&typeof d.files==='object'){" +
  "host=new Blob([d.host],{type:'text/javascript'});files=d.files;" +
  "WebAssembly.compile(d.wasm).then(function(x){mod=x;c.postMessage({type:'compiled'})}," +
  "function(x){c.postMessage({type:'setup-failed',message:String(x&&x.message||x)})})}" +
  "else if(d.type==='start'&&mod&&typeof d.id==='number'&&!ws.has(d.id)&&m.ports[0]instanceof MessagePort){" +
  "var id=d.id,p=m.ports[0],u=URL.createObjectURL(host),w=new Worker(u);ws.set(id,{w:w,u:u});" +
  "w.onerror=function(x){c.postMessage({type:'host-error',id:id,message:String(x.message||'the worker failed')})};" +
  "w.postMessage({module:mod,files:files,port:p},[p])}" +
  "else if(d.type==='stop'&&ws.has(d.id)){var k=ws.get(d.id);ws.delete(d.id);k.w.terminate();URL.revokeObjectURL(k.u)}}}";

/** `'sha256-…'` of SANDBOX_FRAME_SCRIPT (browser-frame.test.ts checks it). */
export const SANDBOX_FRAME_SCRIPT_HASH = "'sha256-XyzIFrNY3hZD98Q+pTGCIPv+AZVdGYb1y9W+mQY+Pmk='";

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
