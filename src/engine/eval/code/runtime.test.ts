import { describe, expect, it } from "vitest";
import { removeWorkerApis } from "./runtime.ts";

describe("removeWorkerApis", () => {
  it("removes network, storage and worker APIs from the scope and its prototypes", () => {
    const proto = { fetch: () => 1, indexedDB: {}, WebSocket: class {}, postMessage: () => 2 };
    const scope = Object.create(proto) as Record<string, unknown>;
    Object.defineProperty(scope, "importScripts", { value: () => 3, writable: true });
    scope.XMLHttpRequest = class {};
    removeWorkerApis(scope);
    for (const name of ["fetch", "indexedDB", "WebSocket", "XMLHttpRequest"])
      expect(name in scope, name).toBe(false);
    expect(scope.importScripts).toBeUndefined(); // not configurable: overwritten instead
    expect(typeof scope.postMessage).toBe("function"); // the worker still answers its host
  });
});
