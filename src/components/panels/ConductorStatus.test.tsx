// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../state/models/inbrowserController.ts";
import { useStudio } from "../../state/slices/store.ts";
import { ConductorStatus } from "./ConductorStatus.tsx";

const initial = useStudio.getState();
beforeEach(() => {
  useStudio.setState(initial, true);
  useStudio.getState().setConductor({ backend: "webllm" });
});
afterEach(cleanup);

describe("ConductorStatus names the model that is loaded", () => {
  it("a GGUF model while it is loaded, not the chosen WebLLM one", () => {
    useStudio.getState().setInBrowser({ ibStatus: "ready", ibModelId: "gguf:tiny" });
    render(<ConductorStatus />);
    expect(screen.getByTestId("conductor-model").textContent).toBe("tiny (GGUF)");
    expect(screen.getByTestId("conductor-status").dataset.backend).toBe("gguf");
    expect(screen.getByTestId("model-ready").textContent).toContain("llama.cpp");
    // Nothing asks to load the WebLLM model the GGUF one stands in for.
    expect(screen.queryByTestId("load-model")).toBeNull();
  });

  it("the chosen WebLLM model otherwise", () => {
    const id = useStudio.getState().conductor.webllmModelId;
    useStudio.getState().setInBrowser({ ibStatus: "ready", ibModelId: id });
    render(<ConductorStatus />);
    const label = CATALOGUE.find((m) => m.id === id)?.label ?? id;
    expect(screen.getByTestId("conductor-model").textContent).toBe(label);
  });
});
