/** A piece of streamed content, sorted into the answer or the reasoning. */
export type ContentPiece = { type: "delta" | "reasoning"; text: string };

const OPEN = "<think>";
const CLOSE = "</think>";

/** The length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagAt(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}

/**
 * Splits streamed content that opens with a `<think>...</think>` block (DeepSeek-R1 and Qwen3 on a
 * host without a reasoning parser) into reasoning and answer, incrementally: tags may arrive split
 * across chunks, so a possible partial tag is held back until the next chunk decides it. Content
 * that does not open with `<think>` (leading whitespace aside) passes through untouched, and a
 * `<think>` later in an answer stays part of the answer.
 */
export class ThinkSplitter {
  private state: "start" | "opening" | "thinking" | "after" | "answer" = "start";
  private held = "";

  /** The pieces `text` completes; some of it may be held back until `push` or `end` decides it. */
  push(text: string): ContentPiece[] {
    const out: ContentPiece[] = [];
    let rest = this.held + text;
    this.held = "";
    while (rest) {
      if (this.state === "answer") {
        out.push({ type: "delta", text: rest });
        break;
      }
      if (this.state === "start") {
        const trimmed = rest.trimStart();
        if (trimmed.startsWith(OPEN)) {
          this.state = "opening";
          rest = trimmed.slice(OPEN.length);
          continue;
        }
        if (trimmed === "" || OPEN.startsWith(trimmed)) {
          this.held = rest; // all whitespace, or a `<think>` still arriving
          break;
        }
        this.state = "answer";
        continue;
      }
      if (this.state === "opening" || this.state === "after") {
        // The line breaks after `<think>` and between the block and the answer belong to neither.
        const trimmed = rest.replace(/^\s+/, "");
        if (!trimmed) break;
        this.state = this.state === "opening" ? "thinking" : "answer";
        rest = trimmed;
        continue;
      }
      const close = rest.indexOf(CLOSE);
      if (close >= 0) {
        if (close > 0) out.push({ type: "reasoning", text: rest.slice(0, close) });
        this.state = "after";
        rest = rest.slice(close + CLOSE.length);
        continue;
      }
      const partial = partialTagAt(rest, CLOSE);
      const emit = rest.slice(0, rest.length - partial);
      if (emit) out.push({ type: "reasoning", text: emit });
      this.held = rest.slice(rest.length - partial);
      break;
    }
    return out;
  }

  /** What is still held back when the stream ends: an unclosed block's tail is reasoning. */
  end(): ContentPiece[] {
    const held = this.held;
    this.held = "";
    if (!held) return [];
    if (this.state === "thinking") return [{ type: "reasoning", text: held }];
    if (this.state === "start" && held.trim()) return [{ type: "delta", text: held }];
    return [];
  }
}

/**
 * A whole answer whose reasoning ends in a `</think>` that was never opened: DeepSeek-R1's chat
 * template puts `<think>` into the prompt, so on a host without a reasoning parser the completion
 * starts inside the block. Only a completed answer can be told apart (a stream cannot know until the
 * tag arrives); anything else is returned unchanged.
 */
export function splitUnopenedThink(text: string): { text: string; reasoning: string } | null {
  const close = text.indexOf(CLOSE);
  if (close < 0 || text.lastIndexOf(OPEN, close) >= 0) return null;
  return {
    reasoning: text.slice(0, close).replace(/^\s+/, ""),
    text: text.slice(close + CLOSE.length).replace(/^\s+/, ""),
  };
}
