import { test } from "@playwright/test";
import { startTestServer } from "../server/server.ts";
import type { TestServer, TestServerOptions } from "../server/server.ts";

/**
 * One local test server per spec file: started (with `options`: keys, extra models) before the
 * file's tests, closed after them, and reset (scripts, served files, recorded requests) before each
 * test. `set` hands it to the spec.
 */
export function withTestServer(
  set: (server: TestServer) => void,
  options: TestServerOptions = {},
): void {
  let server: TestServer | undefined;
  test.beforeAll(async () => {
    server = await startTestServer(options);
    set(server);
  });
  test.afterAll(async () => {
    await server?.close();
  });
  test.beforeEach(() => {
    server?.reset();
  });
}
