import { memo } from "react";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

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

const PLUGINS = [remarkGfm, remarkHtmlAsText];

/** Model output as sanitised Markdown with code blocks; HTML and script show as text. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={PLUGINS}>{text}</ReactMarkdown>
    </div>
  );
});
