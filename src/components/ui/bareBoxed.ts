/**
 * A remark plugin for answers that write `\boxed{42}` as plain text, outside `$...$` (models do
 * this all the time): each such command, with its balanced braces, becomes inline math that KaTeX
 * typesets. Code and math the parser already found are left alone: only text nodes are read.
 */

import { braceGroup } from "../../engine/eval/scorers/latex-braces.ts";

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: Record<string, unknown>;
}

const COMMAND = "\\boxed{";

/** Where the brace opened at `open` closes (balanced, `\{` and `\}` skipped), or -1. */
function closing(text: string, open: number): number {
  const group = braceGroup(text, open + 1, "{", "}", "escape");
  return group.closed ? group.end - 1 : -1;
}

/** Inline math as remark-math builds it (mdast-util-math), so rehype-katex typesets it. */
function inlineMath(value: string): MdNode {
  return {
    type: "inlineMath",
    value,
    data: {
      hName: "code",
      hProperties: { className: ["language-math", "math-inline"] },
      hChildren: [{ type: "text", value }],
    },
  };
}

/** A text's parts: plain text, and each whole `\boxed{...}` as inline math. */
export function splitBoxed(text: string): MdNode[] {
  const out: MdNode[] = [];
  let from = 0;
  for (let at = text.indexOf(COMMAND); at >= 0; at = text.indexOf(COMMAND, from)) {
    const end = closing(text, at + COMMAND.length - 1);
    if (end < 0) break;
    if (at > from) out.push({ type: "text", value: text.slice(from, at) });
    out.push(inlineMath(text.slice(at, end + 1)));
    from = end + 1;
  }
  if (from < text.length) out.push({ type: "text", value: text.slice(from) });
  return out;
}

const SKIP = new Set(["code", "inlineCode", "math", "inlineMath"]);

function walk(node: MdNode): void {
  if (!node.children) return;
  node.children = node.children.flatMap((child) => {
    if (SKIP.has(child.type)) return [child];
    if (child.type === "text" && child.value?.includes(COMMAND)) return splitBoxed(child.value);
    walk(child);
    return [child];
  });
}

export function remarkBareBoxed() {
  return (tree: MdNode) => walk(tree);
}
