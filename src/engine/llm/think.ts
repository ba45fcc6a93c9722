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

/** What `UnopenedThink` makes of streamed answer text. */
export type UnopenedPiece =
  | { type: "delta"; text: string }
  /** Everything streamed as answer so far was reasoning: `text` is it, to move to the reasoning. */
  | { type: "reclassify"; text: string };

/**
 * The streaming side of `splitUnopenedThink`: watches answer text for a `</think>` that was never
 * opened. Answer text passes through as it comes (a possible partial `</think>` held back until the
 * next chunk decides it, so the tag itself is never shown); once the tag arrives, one `reclassify`
 * piece says that all of it so far was reasoning, and what follows the tag is the answer. A
 * `<think>` before any `</think>` ends the watch, as in `splitUnopenedThink`.
 */
export class UnopenedThink {
  private state: "watching" | "after" | "answer" = "watching";
  private seen = "";
  private emitted = 0;

  push(text: string): UnopenedPiece[] {
    if (this.state === "answer") return text ? [{ type: "delta", text }] : [];
    if (this.state === "after") return this.after(text);
    const from = Math.max(0, this.seen.length - (CLOSE.length - 1));
    this.seen += text;
    const open = this.seen.indexOf(OPEN, from);
    const close = this.seen.indexOf(CLOSE, from);
    if (open >= 0 && (close < 0 || open < close)) {
      this.state = "answer";
      return this.flush();
    }
    if (close >= 0) {
      const reasoning = this.seen.slice(0, close).replace(/^\s+/, "");
      const rest = this.seen.slice(close + CLOSE.length);
      const out: UnopenedPiece[] =
        reasoning || this.emitted > 0 ? [{ type: "reclassify", text: reasoning }] : [];
      this.seen = "";
      this.state = "after";
      return [...out, ...this.after(rest)];
    }
    const keep = this.seen.length - partialTagAt(this.seen, CLOSE);
    const emit = this.seen.slice(this.emitted, keep);
    this.emitted = keep;
    return emit ? [{ type: "delta", text: emit }] : [];
  }

  /** What is still held back when the stream ends (a `</`, say): it was answer after all. */
  end(): UnopenedPiece[] {
    return this.state === "watching" ? this.flush() : [];
  }

  private flush(): UnopenedPiece[] {
    const emit = this.seen.slice(this.emitted);
    this.seen = "";
    this.emitted = 0;
    return emit ? [{ type: "delta", text: emit }] : [];
  }

  /** The line breaks between the tag and the answer belong to neither. */
  private after(text: string): UnopenedPiece[] {
    const trimmed = text.replace(/^\s+/, "");
    if (!trimmed) return [];
    this.state = "answer";
    return [{ type: "delta", text: trimmed }];
  }
}
