/**
 * Where the Node sandbox lives for those who import it from the engine: it is a Node adapter, so
 * its code is in src/node/sandbox (separate processes under Node's permission model).
 */
export { createNodeSandbox } from "../../../node/sandbox/process.ts";
