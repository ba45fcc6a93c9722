// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { docFromSteps } from "../engine/graph/document.ts";
import { createHistory } from "../engine/graph/history.ts";
import { useStudio } from "../state/slices/store.ts";
import { useShortcuts } from "./useShortcuts.ts";

function Harness() {
  useShortcuts();
  return <textarea data-testid="field" />;
}

const initial = useStudio.getState();
const key = (k: string, extra: KeyboardEventInit = {}, target: EventTarget = window) =>
  target.dispatchEvent(
    new KeyboardEvent("keydown", { key: k, ctrlKey: true, bubbles: true, ...extra }),
  );
const count = () => useStudio.getState().history.present.steps.length;

beforeEach(() => {
  useStudio.setState(initial, true);
  const doc = docFromSteps([
    { worker: "w0", subtask: "Solve it.", access: [] },
    { worker: "w0", subtask: "Check it.", access: "all" },
  ]);
  useStudio.setState({ history: createHistory(doc), selectedIds: [doc.steps[1]!.id] });
});
afterEach(cleanup);

describe("studio shortcuts", () => {
  it("copies and pastes the selected steps, and undoes and redoes with Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y", () => {
    render(<Harness />);
    key("c");
    key("v");
    expect(count()).toBe(3);
    expect(useStudio.getState().history.present.steps[2]?.subtask).toBe("Check it.");
    key("z");
    expect(count()).toBe(2);
    key("Z", { shiftKey: true });
    expect(count()).toBe(3);
    key("z");
    key("y");
    expect(count()).toBe(3);
  });

  it("leaves undo to the browser while the user types in a field", () => {
    const { getByTestId } = render(<Harness />);
    useStudio.getState().edit({ kind: "add" });
    expect(count()).toBe(3);
    key("z", {}, getByTestId("field"));
    expect(count()).toBe(3);
    key("z");
    expect(count()).toBe(2);
  });
});
