import { createNodeSandbox } from "./node.ts";
import { DEFAULT_LIMITS } from "./types.ts";
const sb = createNodeSandbox();
console.log(
  JSON.stringify(await sb.run({ mode: "stdio", code: "print(1)", stdin: "" }, DEFAULT_LIMITS)),
);
sb.dispose();
