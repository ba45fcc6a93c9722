import { benchCode } from "./code.ts";
await benchCode();
