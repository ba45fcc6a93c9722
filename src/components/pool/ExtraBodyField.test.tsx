// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkerSchema } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/slices/store.ts";
import { ExtraBodyField } from "./ExtraBodyField.tsx";

const initial = useStudio.getState();
const worker = WorkerSchema.parse({ id: "w0", name: "Qwen", model: "qwen3" });

function Field() {
  const current = useStudio((s) => s.pool[0]);
  return current ? <ExtraBodyField worker={current} /> : null;
}

beforeEach(() => useStudio.setState({ ...initial, pool: [worker] }, true));
afterEach(cleanup);

describe("ExtraBodyField", () => {
  const type = (text: string) =>
    fireEvent.change(screen.getByTestId("worker-extra-body"), { target: { value: text } });

  it("stores a valid JSON object on the worker", () => {
    render(<Field />);
    type('{"chat_template_kwargs": {"enable_thinking": false}}');
    expect(useStudio.getState().pool[0]?.extraBody).toEqual({
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(screen.queryByTestId("worker-extra-body-error")).toBeNull();
  });

  it("shows why text is refused and keeps the last valid fields", () => {
    render(<Field />);
    type('{"top_k": 20}');
    type('{"top_k": 20, "model": "other"}');
    expect(screen.getByTestId("worker-extra-body-error").textContent).toMatch(
      /cannot override "model"/,
    );
    type('{"top_k": ');
    expect(screen.getByTestId("worker-extra-body-error").textContent).toMatch(/Not valid JSON/);
    expect(useStudio.getState().pool[0]?.extraBody).toEqual({ top_k: 20 });
    type("");
    expect(useStudio.getState().pool[0]?.extraBody).toBeUndefined();
  });
});
