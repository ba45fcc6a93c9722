import { memo, useEffect, useState } from "react";
import { LongText } from "./LongText.tsx";

type View = (typeof import("./MarkdownView.tsx"))["default"];
let view: View | null = null;
let loading: Promise<View> | null = null;

/**
 * Loads the Markdown stack (react-markdown, remark; KaTeX apart, for math). It is not needed for
 * the first paint: it loads when the first output is shown, plain text standing in meanwhile.
 */
export function loadMarkdown(): Promise<View> {
  loading ??= import("./MarkdownView.tsx").then((m) => (view = m.default));
  return loading;
}

function useMarkdownView(): View | null {
  const [loaded, setLoaded] = useState<View | null>(() => view);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    void loadMarkdown().then((v) => live && setLoaded(() => v));
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
}

/** Longer texts render their start as Markdown and the rest on request, as plain text. */
export const MARKDOWN_LIMIT = 16_000;

/** The first `limit` characters of `text`, cut at a line break where one is near. */
export function headOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.lastIndexOf("\n", limit);
  return text.slice(0, cut > limit / 2 ? cut : limit);
}

/**
 * Model output as sanitised Markdown (see MarkdownView). A long text shows its start as Markdown
 * and offers the whole text as plain text, rendered in pieces, so no output blocks the page.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const MarkdownView = useMarkdownView();
  const long = text.length > MARKDOWN_LIMIT;
  if (long && all) return <LongText text={text} />;
  const shown = long ? headOf(text, MARKDOWN_LIMIT) : text;
  return (
    <div className="markdown">
      {MarkdownView ? <MarkdownView text={shown} /> : <div className="plain-text">{shown}</div>}
      {long && (
        <p className="truncated muted small" data-testid="truncated">
          Showing the first {shown.length.toLocaleString("en-US")} of{" "}
          {text.length.toLocaleString("en-US")} characters.{" "}
          <button type="button" data-testid="show-all" onClick={() => setAll(true)}>
            Show all (plain text)
          </button>
        </p>
      )}
    </div>
  );
});
