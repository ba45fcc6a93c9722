import type { Options } from "react-markdown";
import rehypeKatex from "rehype-katex";
import remarkMath from "remark-math";
import "katex/dist/katex.min.css";
import { remarkBareBoxed } from "./bareBoxed.ts";

/** The math plugins (KaTeX) and their CSS, in their own chunk: only text with math loads them. */
/** @public loaded with import() by MarkdownView. */
export const remarkPlugins: NonNullable<Options["remarkPlugins"]> = [remarkMath, remarkBareBoxed];
/** @public loaded with import() by MarkdownView. */
export const rehypePlugins: NonNullable<Options["rehypePlugins"]> = [rehypeKatex];
