// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fallbackOf } from "../../state/slices/settings.ts";
import { useStudio } from "../../state/slices/store.ts";
import { FallbackSettings } from "./FallbackSettings.tsx";

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));
afterEach(cleanup);

const worker = (id: string, name: string) => ({
  id,
  name,
  kind: "openai" as const,
  baseURL: "http://x/v1",
  model: name,
  temperature: 0.2,
  maxTokens: 64,
  prefill: false,
});

describe("FallbackSettings", () => {
  it("sets asking again and the fallback worker, which runs then take", () => {
    useStudio.setState({ pool: [worker("w0", "Solver"), worker("w1", "Checker")] });
    render(<FallbackSettings />);
    expect(fallbackOf(useStudio.getState().conductor)).toEqual({ replans: 0 });
    fireEvent.click(screen.getByTestId("replan-once"));
    fireEvent.change(screen.getByTestId("fallback-worker"), { target: { value: "w1" } });
    expect(fallbackOf(useStudio.getState().conductor)).toEqual({ replans: 1, workerId: "w1" });
    expect(screen.getByTestId<HTMLSelectElement>("fallback-worker").value).toBe("w1");
  });

  it("says so when the chosen worker has left the pool", () => {
    useStudio.setState({
      pool: [worker("w0", "Solver")],
      conductor: { ...initial.conductor, fallbackWorker: "w9" },
    });
    render(<FallbackSettings />);
    expect(screen.getByTestId("fallback-gone").textContent).toMatch(/removed from the pool/);
    expect(screen.getByTestId<HTMLSelectElement>("fallback-worker").value).toBe("");
  });
});
