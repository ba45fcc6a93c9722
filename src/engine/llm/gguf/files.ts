/**
 * Checks a set of GGUF files chosen or dropped by the user before llama.cpp reads them: each
 * starts with the GGUF magic, they are one model, and a split model (`name-00001-of-00003.gguf`,
 * as llama.cpp's gguf-split writes) has every part. llama.cpp itself reports none of these
 * clearly: a file that is not GGUF loads "fine" and its first call aborts.
 */
import { z } from "zod";
import { looksLikeGguf } from "./gbnf.ts";

export const GgufFilesCode = z.enum(["no_files", "not_gguf", "incomplete_split", "several_models"]);
export type GgufFilesCode = z.infer<typeof GgufFilesCode>;

/** A file's name and its first bytes (at least 4). */
export interface GgufFileHead {
  name: string;
  head: Uint8Array;
}

export type GgufFilesCheck =
  { ok: true; names: string[] } | { ok: false; code: GgufFilesCode; message: string };

const SPLIT = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i;

const fail = (code: GgufFilesCode, message: string): GgufFilesCheck => ({
  ok: false,
  code,
  message,
});

/**
 * Whether `files` are one loadable GGUF model; on success `names` is their load order (the
 * first part of a split model first).
 */
export function checkGgufFiles(files: readonly GgufFileHead[]): GgufFilesCheck {
  if (files.length === 0) return fail("no_files", "No file was given.");
  const notGguf = files.find((f) => !looksLikeGguf(f.head));
  if (notGguf)
    return fail(
      "not_gguf",
      `${notGguf.name} is not a GGUF file (it does not start with the GGUF magic). Choose a .gguf model, such as one written by llama.cpp's convert_hf_to_gguf.py.`,
    );
  const names = files.map((f) => f.name).sort((a, b) => a.localeCompare(b));
  const parts = names.map((n) => SPLIT.exec(n));
  if (parts.every((p) => !p)) {
    if (names.length === 1) return { ok: true, names };
    return fail(
      "several_models",
      `These are ${names.length} separate models (${names.join(", ")}); load one at a time.`,
    );
  }
  const first = parts[0];
  if (!first || parts.some((p) => !p || p[1] !== first[1] || p[3] !== first[3]))
    return fail(
      "several_models",
      `These files are not the parts of one split model (${names.join(", ")}); load one model at a time.`,
    );
  const total = Number(first[3]);
  const have = new Set(parts.map((p) => Number(p?.[2])));
  const missing: string[] = [];
  for (let i = 1; i <= total; i++)
    if (!have.has(i)) missing.push(`${first[1]}-${String(i).padStart(5, "0")}-of-${first[3]}.gguf`);
  if (missing.length > 0 || names.length !== total)
    return fail(
      "incomplete_split",
      `This split model has ${total} parts, and ${missing.length === 0 ? "some are repeated" : `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing`}. Choose or drop all ${total} parts together.`,
    );
  return { ok: true, names };
}
