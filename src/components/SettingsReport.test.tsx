// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useStudio } from "../state/slices/store.ts";
import { SettingsReport } from "./SettingsReport.tsx";

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));
afterEach(cleanup);

describe("SettingsReport", () => {
  it("shows what loading reset, as an alert, until dismissed; nothing when nothing was reset", () => {
    const { rerender } = render(<SettingsReport />);
    expect(screen.queryByTestId("settings-report")).toBeNull();
    const text = "One stored setting could not be read and was reset to its default: maxSteps.";
    useStudio.setState({ settingsReport: text });
    rerender(<SettingsReport />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain(text);
    fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByTestId("settings-report")).toBeNull();
    expect(useStudio.getState().settingsReport).toBeNull();
  });
});
