import { createRequire } from "node:module";
import Module from "node:module";
import fs from "node:fs";
const require = createRequire(import.meta.url);
const path = require.resolve("@mlc-ai/web-xgrammar");
const m = new Module(path);
m.filename = path; m.paths = Module._nodeModulePaths(path);
m._compile(fs.readFileSync(path, "utf8"), path);
const { Grammar, Testings, TokenizerInfo, GrammarCompiler } = m.exports;
for (const n of [100, 1000, 4000]) {
  const t0 = Date.now();
  const g = await Grammar.fromEBNF(`root ::= "Let me." r "\\n" "model_id = [" [0-9] "]"\nr ::= ([^\\[<] | "<" [^\\[<a-zA-Z]){0,${n}}`);
  const t1 = Date.now();
  const ok = await Testings.isGrammarAcceptString(g, "Let me. I think <3 a < b.\nmodel_id = [3]");
  const bad = await Testings.isGrammarAcceptString(g, "Let me. I think [3].\nmodel_id = [3]");
  const t2 = Date.now();
  const vocab = []; for (let c = 32; c < 127; c++) vocab.push(String.fromCharCode(c)); vocab.push("\n", "model", "_id", " = [", "</s>");
  const ti = await TokenizerInfo.createTokenizerInfo(vocab, "raw", false, undefined, [vocab.length-1]);
  const gc = await GrammarCompiler.createGrammarCompiler(ti);
  const cg = await gc.compileGrammar(g);
  console.log(n, "parse", t1-t0, "accept", ok, bad, t2-t1, "compile", Date.now()-t2);
}
