// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useStudio } from "../../state/slices/store.ts";
import { ConductorSettings } from "./ConductorSettings.tsx";
import { namedWorkersAdvice } from "./namedWorkers.ts";
import { DEFAULT_OPENING } from "../../engine/conductor/prompt.ts";

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));
afterEach(cleanup);

const custom = { model: "https://x/y", model_id: "Conductor-7B-q4f16_1-MLC", model_lib: "lib" };

describe("worker names for the Conductor", () => {
  it("are off for a trained checkpoint or custom weights, on for a prompted general model", () => {
    const base = { backend: "webllm" as const, model: "", webllmModelId: custom.model_id };
    expect(namedWorkersAdvice(base, [custom]).on).toBe(false);
    expect(
      namedWorkersAdvice({ ...base, webllmModelId: "Qwen2.5-7B-Instruct-q4f16_1-MLC" }, [custom])
        .on,
    ).toBe(true);
    expect(
      namedWorkersAdvice({ ...base, backend: "remote", model: "my-conductor-7b" }, []).on,
    ).toBe(false);
    expect(namedWorkersAdvice({ ...base, backend: "remote", model: "gpt-5" }, []).on).toBe(true);
  });

  it("follow the Conductor chosen in Settings, the hint saying why", () => {
    useStudio.setState({
      conductor: { ...initial.conductor, backend: "webllm", namedWorkers: true },
    });
    render(<ConductorSettings />);
    fireEvent.click(screen.getByTestId("backend-remote"));
    fireEvent.change(screen.getByTestId("conductor-model"), { target: { value: "conductor-7b" } });
    expect(screen.getByTestId<HTMLInputElement>("named-workers").checked).toBe(false);
    expect(screen.getByTestId("named-workers-hint").textContent).toMatch(/trained Conductor/);
    fireEvent.change(screen.getByTestId("conductor-model"), { target: { value: "gpt-5" } });
    expect(screen.getByTestId<HTMLInputElement>("named-workers").checked).toBe(true);
    expect(screen.getByTestId("named-workers-hint").textContent).toMatch(/prompted general model/);
  });
});

describe("the worker-names hint", () => {
  it("agrees with the box on first open, also when the stored setting differs from the default", () => {
    useStudio.setState({
      conductor: {
        ...initial.conductor,
        backend: "remote",
        model: "conductor-7b",
        namedWorkers: true,
      },
    });
    render(<ConductorSettings />);
    expect(screen.getByTestId<HTMLInputElement>("named-workers").checked).toBe(true);
    const hint = () => screen.getByTestId("named-workers-hint").textContent ?? "";
    expect(hint()).toMatch(/^On, unlike the default for this Conductor \(off\)/);
    expect(hint()).not.toMatch(/Off by default/);
    fireEvent.click(screen.getByTestId("named-workers-default"));
    expect(screen.getByTestId<HTMLInputElement>("named-workers").checked).toBe(false);
    expect(hint()).toMatch(/^Off by default/);
  });
});

describe("ConductorPreview", () => {
  it("shows what the Conductor will read, the opening sentence and the worker lines included", () => {
    useStudio.setState({
      question: "Is 391 prime?",
      pool: [
        {
          id: "w0",
          name: "Solver",
          kind: "openai",
          baseURL: "",
          model: "m",
          temperature: 0.2,
          maxTokens: 64,
          prefill: false,
        },
      ],
    });
    render(<ConductorSettings />);
    const text = screen.getByTestId("conductor-preview").textContent ?? "";
    expect(text).toContain("[system]");
    expect(text).toContain("USER QUESTION:\nIs 391 prime?");
    expect(text).toContain("Model id 0");
    expect(text).toContain(DEFAULT_OPENING);
  });
});
