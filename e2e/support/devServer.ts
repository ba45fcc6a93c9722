import type { ViteDevServer } from "vite";
import { createServer } from "vite";

/** The app under Vite's dev server (no Content-Security-Policy header, hot reload), on an ephemeral port. */
export async function startDevServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: ViteDevServer = await createServer({
    configFile: "vite.config.ts",
    logLevel: "silent",
    server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === "string") throw new Error("the dev server has no port");
  return { url: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}
