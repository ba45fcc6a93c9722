/**
 * Loads `@mlc-ai/web-xgrammar` in Node, for tests and the command line. Its bundle is UMD (it sets
 * `exports` when `module` exists) inside a package marked `"type": "module"`, so Node's ESM loader
 * gives it no `exports` and every named import is missing; compiling the same file as CommonJS
 * works, and its WebAssembly is inlined, so nothing is fetched.
 */
import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";

type XGrammar = typeof import("@mlc-ai/web-xgrammar");

interface CompilableModule {
  filename: string;
  paths: string[];
  exports: unknown;
  _compile(source: string, filename: string): void;
}
interface ModuleStatics {
  new (id: string): CompilableModule;
  _nodeModulePaths(from: string): string[];
}

let loaded: XGrammar | undefined;

/** xgrammar's classes (Grammar, GrammarCompiler, TokenizerInfo, GrammarMatcher, Testings). */
export function loadXGrammar(): XGrammar {
  if (loaded) return loaded;
  const path = createRequire(import.meta.url).resolve("@mlc-ai/web-xgrammar");
  const Statics = Module as unknown as ModuleStatics;
  const mod = new Statics(path);
  mod.filename = path;
  mod.paths = Statics._nodeModulePaths(path);
  mod._compile(readFileSync(path, "utf8"), path);
  loaded = mod.exports as XGrammar;
  return loaded;
}
