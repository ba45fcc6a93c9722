// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "./Markdown.tsx";

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
});
