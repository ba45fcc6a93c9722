// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { safeHref } from "./links.ts";
import { LongText, piecesOf } from "./LongText.tsx";
import { MARKDOWN_LIMIT, Markdown, headOf, loadMarkdown } from "./Markdown.tsx";

beforeAll(async () => {
  await loadMarkdown();
});
afterEach(cleanup);

describe("Markdown", () => {
  it("renders code blocks and emphasis", () => {
    const { container } = render(<Markdown text={"**bold**\n\n```py\nprint(1)\n```"} />);
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    expect(container.querySelector("pre code")?.textContent).toContain("print(1)");
  });

  it("shows HTML and script from a model as inert text", () => {
    const evil = '<script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned=2">';
    const { container } = render(<Markdown text={evil} />);
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toContain("<script>window.__pwned = 1</script>");
    expect(container.textContent).toContain("onerror");
  });

  it("opens web links in a new tab without an opener, and shows unsafe ones as text", () => {
    const text =
      "[docs](https://example.com/a) [bad](javascript:alert(1)) [data](data:text/html,x) [rel](/settings) [mail](mailto:a@b.c)";
    const { container } = render(<Markdown text={text} />);
    const links = [...container.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "https://example.com/a",
      "mailto:a@b.c",
    ]);
    for (const a of links) {
      expect(a.getAttribute("target")).toBe("_blank");
      expect(a.getAttribute("rel")).toBe("noopener noreferrer");
    }
    expect(container.textContent).toContain("bad");
    expect(container.querySelectorAll(".unsafe-link")).toHaveLength(3);
  });

  it("never loads an image: a remote one becomes a link, others text", () => {
    const { container } = render(
      <Markdown text={"![chart](https://other.example/p.png) ![x](data:image/png;base64,AAAA)"} />,
    );
    expect(container.querySelector("img")).toBeNull();
    const a = container.querySelector("a");
    expect(a?.getAttribute("href")).toBe("https://other.example/p.png");
    expect(a?.textContent).toBe("[image: chart]");
    expect(container.textContent).toContain("[image: x]");
  });

  it("draws tables, and typesets math with KaTeX once its chunk loads", async () => {
    const { container } = render(
      <Markdown text={"| a | b |\n|---|---|\n| 1 | 2 |\n\nEuler: $e^{i\\pi} + 1 = 0$"} />,
    );
    expect(container.querySelector(".table-scroll table td")?.textContent).toBe("1");
    await waitFor(() => expect(container.querySelector(".katex")).not.toBeNull());
    expect(container.querySelector(".katex-mathml annotation")?.textContent).toBe(
      "e^{i\\pi} + 1 = 0",
    );
  });

  it("typesets \\boxed{...} written outside $...$, and leaves it alone in code", async () => {
    const { container } = render(
      <Markdown
        text={
          "So the answer is \\boxed{\\frac{1}{2}} and then \\boxed{42}.\n\n`\\boxed{7}` stays code."
        }
      />,
    );
    await waitFor(() => expect(container.querySelectorAll(".katex")).toHaveLength(2));
    const typeset = [...container.querySelectorAll(".katex-mathml annotation")].map(
      (a) => a.textContent,
    );
    expect(typeset).toEqual(["\\boxed{\\frac{1}{2}}", "\\boxed{42}"]);
    expect(container.querySelector("code")?.textContent).toBe("\\boxed{7}");
    expect(container.textContent).toContain("So the answer is ");
    expect(container.textContent).toContain(" stays code.");
  });

  it("leaves an unclosed \\boxed{ as the text it is", async () => {
    const { container } = render(<Markdown text={"cut off: \\boxed{4 and $x$"} />);
    await waitFor(() => expect(container.querySelector(".katex")).not.toBeNull());
    expect(container.textContent).toContain("cut off: \\boxed{4 and");
  });

  it("renders the start of a long text and the rest, as plain text, on request", () => {
    const line = "word ".repeat(20) + "\n";
    const text = line.repeat(Math.ceil((MARKDOWN_LIMIT * 3) / line.length));
    render(<Markdown text={text} />);
    expect(screen.getByTestId("truncated").textContent).toContain(
      `of ${text.length.toLocaleString("en-US")} characters`,
    );
    fireEvent.click(screen.getByTestId("show-all"));
    expect(screen.getByTestId("long-text")).toBeTruthy();
  });

  it("cuts a long text at a line break near the limit", () => {
    expect(headOf("abc\ndef", 10)).toBe("abc\ndef");
    expect(headOf("aaaa\nbbbb\ncccc", 12)).toBe("aaaa\nbbbb");
    expect(headOf("x".repeat(30), 10)).toBe("x".repeat(10));
  });
});

describe("LongText", () => {
  it("splits a text into pieces that join back to it, after line breaks", () => {
    const text = ("a".repeat(7) + "\n").repeat(10);
    const pieces = piecesOf(text, 20);
    expect(pieces.join("")).toBe(text);
    expect(pieces.slice(0, -1).every((p) => p.endsWith("\n") && p.length <= 20)).toBe(true);
    expect(piecesOf("y".repeat(50), 20)).toEqual(["y".repeat(20), "y".repeat(20), "y".repeat(10)]);
  });

  it("adds its pieces over several tasks until the whole text is shown", async () => {
    const text = "z".repeat(32_000 * 10);
    const { container } = render(<LongText text={text} />);
    expect(container.querySelectorAll("pre").length).toBeLessThan(10);
    await waitFor(() =>
      expect(screen.getByTestId("long-text").getAttribute("data-complete")).toBe("true"),
    );
    expect(container.textContent).toBe(text);
  });
});

describe("safeHref", () => {
  it.each([
    ["https://a.example/x", "https://a.example/x"],
    ["HTTP://a.example", "HTTP://a.example"],
    ["mailto:x@y.z", "mailto:x@y.z"],
    ["javascript:alert(1)", null],
    ["JaVaScRiPt:alert(1)", null],
    ["java\tscript:alert(1)", null],
    ["data:text/html,hi", null],
    ["vbscript:x", null],
    ["/relative", null],
    ["#anchor", null],
    ["//evil.example", null],
    ["", null],
  ])("%s -> %s", (url, expected) => expect(safeHref(url)).toBe(expected));
});
