import { useEffect, useState } from "react";
import type { ReactNode } from "react";
import ReactMarkdown from "react-markdown";
import type { Components, Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import { safeHref } from "./links.ts";

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * Turns raw HTML in the Markdown tree into plain text. react-markdown never renders raw HTML, but
 * by default it drops it silently; a user reading a model's answer should see exactly what the
 * model wrote, tags included, inert.
 */
function remarkHtmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

type Plugins = NonNullable<Options["remarkPlugins"]>;
const BASE: Plugins = [remarkGfm, remarkHtmlAsText];

/** Keeps every URL as written: the components below decide what becomes a link. */
const keepUrl = (url: string) => url;

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/**
 * Links open in a new tab (never the studio's own), unsafe ones are plain text, and images are
 * never fetched: a remote image in a model's answer would tell its server who reads it, and when.
 */
const COMPONENTS: Components = {
  a: ({ href, children }) => {
    const safe = safeHref(href);
    return safe ? (
      <ExternalLink href={safe}>{children}</ExternalLink>
    ) : (
      <span className="unsafe-link" title="Not a web address: shown as text">
        {children}
      </span>
    );
  },
  img: ({ src, alt }) => {
    const safe = typeof src === "string" ? safeHref(src) : null;
    const label = `image: ${alt || (typeof src === "string" ? src : "")}`;
    return safe ? (
      <span className="image-link" title="Images are not loaded: open it in a new tab">
        <ExternalLink href={safe}>[{label}]</ExternalLink>
      </span>
    ) : (
      <span className="image-link">[{label}]</span>
    );
  },
  // Code blocks scroll sideways: keyboard users reach them too.
  pre: ({ children }) => <pre tabIndex={0}>{children}</pre>,
  table: ({ children }) => (
    <div className="table-scroll">
      <table>{children}</table>
    </div>
  ),
};

/** Whether a text may hold math that KaTeX should typeset. */
export const hasMath = (text: string) => /\$|\\\(|\\\[|\\boxed\{/.test(text);

type MathModule = typeof import("./math.ts");
let math: MathModule | null = null;
let mathLoading: Promise<MathModule> | null = null;

/** The math plugins once loaded; text with math loads them on first use. */
function useMath(wanted: boolean): MathModule | null {
  const [loaded, setLoaded] = useState(math);
  useEffect(() => {
    if (!wanted || loaded) return;
    let live = true;
    mathLoading ??= import("./math.ts").then((m) => (math = m));
    void mathLoading.then((m) => live && setLoaded(m));
    return () => {
      live = false;
    };
  }, [wanted, loaded]);
  return wanted ? loaded : null;
}

/** Model output as sanitised Markdown: code, tables, math; HTML and script show as text. */
export default function MarkdownView({ text }: { text: string }) {
  const m = useMath(hasMath(text));
  return (
    <ReactMarkdown
      remarkPlugins={m ? [...BASE, ...m.remarkPlugins] : BASE}
      rehypePlugins={m?.rehypePlugins}
      urlTransform={keepUrl}
      components={COMPONENTS}
    >
      {text}
    </ReactMarkdown>
  );
}
