import { describe, expect, it } from "vitest";
import { checkGgufFiles } from "./files.ts";

const gguf = (name: string) => ({ name, head: new TextEncoder().encode("GGUF\x03\0\0\0") });
const other = (name: string, text = "PK\x03\x04") => ({
  name,
  head: new TextEncoder().encode(text),
});

describe("checkGgufFiles", () => {
  it.each([
    ["one GGUF file", [gguf("tiny.gguf")], ["tiny.gguf"]],
    [
      "every part of a split model, in load order whatever order they came in",
      [gguf("q-00003-of-00003.gguf"), gguf("q-00001-of-00003.gguf"), gguf("q-00002-of-00003.gguf")],
      ["q-00001-of-00003.gguf", "q-00002-of-00003.gguf", "q-00003-of-00003.gguf"],
    ],
  ])("accepts %s", (_, files, names) => {
    expect(checkGgufFiles(files)).toEqual({ ok: true, names });
  });

  it.each([
    ["no file", [], "no_files", "No file"],
    ["a zip named .gguf", [other("model.gguf")], "not_gguf", "model.gguf is not a GGUF file"],
    ["a text file", [other("notes.txt", "hello")], "not_gguf", "notes.txt is not a GGUF file"],
    [
      "a split model with a part missing",
      [gguf("q-00001-of-00003.gguf"), gguf("q-00003-of-00003.gguf")],
      "incomplete_split",
      "q-00002-of-00003.gguf is missing",
    ],
    [
      "only the first part",
      [gguf("q-00001-of-00002.gguf")],
      "incomplete_split",
      "has 2 parts, and q-00002-of-00002.gguf is missing",
    ],
    [
      "a part given twice",
      [gguf("q-00001-of-00002.gguf"), gguf("q-00001-of-00002.gguf"), gguf("q-00002-of-00002.gguf")],
      "incomplete_split",
      "some are repeated",
    ],
    ["two models", [gguf("a.gguf"), gguf("b.gguf")], "several_models", "2 separate models"],
    [
      "parts of two split models",
      [gguf("a-00001-of-00002.gguf"), gguf("b-00002-of-00002.gguf")],
      "several_models",
      "not the parts of one split model",
    ],
  ])("refuses %s with a message", (_, files, code, text) => {
    const r = checkGgufFiles(files);
    expect(r).toMatchObject({ ok: false, code });
    if (!r.ok) expect(r.message).toContain(text);
  });
});
