// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { summarise } from "../../engine/eval/report.ts";
import { doneResult } from "../../test-support/engine/eval/eval-results.ts";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { useStudio } from "../../state/slices/store.ts";
import { EvalProgressBar } from "./EvalProgressBar.tsx";
import { ReportTable } from "./ReportTable.tsx";

const initial = useStudio.getState();
afterEach(() => {
  cleanup();
  useStudio.setState(initial, true);
});

const result = (item: string, strategy: string, fallback?: boolean): EvalResult =>
  doneResult(item, strategy, fallback ? { fallback } : {});

describe("the studio's evaluation at the spending cap", () => {
  it("lists what the cap skipped, per strategy, with the estimate and its basis", () => {
    useStudio.setState({
      evalPhase: "cost_cap",
      evalProgress: {
        done: 8,
        errors: 0,
        total: 12,
        running: 0,
        cost: 0.009,
        etaMs: null,
        paused: false,
        skipped: [
          { strategy: "moa", items: 4, estimate: 0.00225, basis: "strategy", left: 0.0004 },
        ],
      },
    });
    render(<EvalProgressBar />);
    expect(screen.getByTestId("eval-skipped").textContent).toBe(
      "moa: 4 item(s) skipped, estimated $0.00225 each (from its measured mean) with $0.0004 left",
    );
  });

  it("counts fallbacks per strategy in the report, the column shown only when any fell back", () => {
    const rows = summarise(
      [result("q1", "conductor", true), result("q2", "conductor"), result("q1", "moa")],
      ["conductor", "moa"],
    );
    render(<ReportTable rows={rows} />);
    expect(screen.getAllByTestId("fallbacks").map((c) => c.textContent)).toEqual(["1", "0"]);
    cleanup();
    render(<ReportTable rows={summarise([result("q1", "moa")], ["moa"])} />);
    expect(screen.queryByTestId("fallbacks")).toBeNull();
  });
});
