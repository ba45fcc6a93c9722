/**
 * Finding the program in a model's answer.
 *
 * The rule: look inside the last `<answer>…</answer>` when there is one (falling back to the whole
 * answer when it holds no code), and take the last fenced block (``` or ~~~) tagged `python`,
 * `py`, `python3` or untagged; a block with another language tag (```text, ```bash) is never
 * taken. A fence left open by a truncated answer runs to the end. Without any fence, the text is
 * taken whole as a program when it looks like Python code: at least one line starts with a Python
 * statement (`def`, `class`, `import`, `from … import`, `for … :`, `while … :`, `if … :`,
 * `print(`, or an assignment) — the scorer then treats a syntax error in such unfenced text as
 * "no code found", since it was prose after all.
 */

export type Extraction =
  { ok: true; code: string; fenced: boolean } | { ok: false; reason: "no code found" };

const PYTHON_TAGS = new Set(["", "python", "py", "python3", "py3"]);
const FENCE = /^([ \t]*)(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$/;

interface Block {
  tag: string;
  body: string;
}

function fencedBlocks(text: string): Block[] {
  const lines = text.split(/\r?\n/);
  const blocks: Block[] = [];
  let open: { marker: string; tag: string; body: string[] } | null = null;
  for (const line of lines) {
    if (!open) {
      const m = FENCE.exec(line);
      if (m) open = { marker: m[2] ?? "```", tag: (m[3] ?? "").toLowerCase(), body: [] };
      continue;
    }
    const close = line.trim();
    if (close.startsWith(open.marker) && /^[`~]+$/.test(close)) {
      blocks.push({ tag: open.tag, body: open.body.join("\n") });
      open = null;
    } else open.body.push(line);
  }
  if (open) blocks.push({ tag: open.tag, body: open.body.join("\n") });
  return blocks;
}

/** Removes the indentation common to all non-blank lines (code inside a list item). */
export function dedent(code: string): string {
  const lines = code.split("\n");
  const indents = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines
    .map((l) => l.slice(Math.min(common, l.length)))
    .join("\n")
    .replace(/^\n+|\s+$/g, "");
}

const STATEMENT =
  /^(def |class |import |from \S+ import |for .+:\s*$|while .+:\s*$|if .+:\s*$|print\(|[A-Za-z_][\w, ]*\s*=[^=])/m;

function fromText(text: string): Extraction | null {
  const blocks = fencedBlocks(text).filter((b) => PYTHON_TAGS.has(b.tag) && b.body.trim());
  const last = blocks.at(-1);
  if (last) return { ok: true, code: dedent(last.body), fenced: true };
  return null;
}

/** The program in `answer`, following the rule in the module comment. */
export function extractProgram(answer: string): Extraction {
  const tagged = [...answer.matchAll(/<answer>([\s\S]*?)(?:<\/answer>|$)/gi)].at(-1)?.[1];
  const scopes = tagged !== undefined ? [tagged, answer] : [answer];
  for (const scope of scopes) {
    const found = fromText(scope);
    if (found) return found;
  }
  // No fences anywhere: unfenced code is accepted only when it looks like a program.
  const text = (tagged ?? answer).trim();
  if (!/^(`{3,}|~{3,})/m.test(text) && STATEMENT.test(text))
    return { ok: true, code: dedent(text), fenced: false };
  return { ok: false, reason: "no code found" };
}
