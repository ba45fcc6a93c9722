import { describe, it, vi } from "vitest";
import {
  EvalProgressDisplay,
  countingCalls,
  duration,
  progressBar,
  progressText,
} from "./eval-progress.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";

describe("progress text", () => {
  it("shows done, calls in flight, spent and time left; a bar cut to the terminal", ({
    expect,
  }) => {
    const p = { done: 12, total: 40, calls: 3, cost: 0.42, etaMs: 80_000 };
    expect(progressText(p)).toBe("12/40 done, 3 calls in flight, $0.42 spent, about 1m 20s left");
    expect(progressText({ ...p, calls: 1, etaMs: null })).toBe(
      "12/40 done, 1 call in flight, $0.42 spent, time left unknown yet",
    );
    expect(progressText({ ...p, done: 40 })).toBe("40/40 done, 3 calls in flight, $0.42 spent");
    expect(progressBar(p, 100)).toBe(
      "[#########---------------------]  30% 12/40 done, 3 calls in flight, $0.42 spent, about 1m 20s left",
    );
    expect(progressBar(p, 40).length).toBe(39);
    expect([duration(42_000), duration(65_000), duration(7_380_000)]).toEqual([
      "42s",
      "1m 05s",
      "2h 03m",
    ]);
  });
});

describe("progress display", () => {
  it("not on a terminal: a plain status line after a quiet spell, never an escape code", ({
    expect,
    onTestFinished,
  }) => {
    vi.useFakeTimers();
    onTestFinished(() => void vi.useRealTimers());
    let written = "";
    const display = new EvalProgressDisplay(
      (s) => (written += s),
      { tty: false, columns: 80 },
      30_000,
    );
    display.update({ done: 1, total: 4, cost: 0.5, etaMs: 90_000 });
    vi.advanceTimersByTime(29_000);
    expect(written).toBe("");
    vi.advanceTimersByTime(1_000);
    expect(written).toBe(
      "[progress] 1/4 done, 0 calls in flight, $0.50 spent, about 1m 00s left\n",
    );
    display.stop();
    vi.advanceTimersByTime(60_000);
    expect(written.split("\n")).toHaveLength(2);
  });

  it("counts the calls that stream at this moment", async ({ expect }) => {
    const counter = { calls: 0, changed: () => undefined };
    let seen = -1;
    const inner: ChatBackend = {
      label: "x",
      continuesAssistant: false,
      async *stream() {
        seen = counter.calls;
        yield { type: "text", text: "hi" } as never;
        await Promise.resolve();
      },
    };
    const wrapped = countingCalls(inner, counter);
    for await (const _ of wrapped.stream({ messages: [] } as never, new AbortController().signal))
      void _;
    expect(seen).toBe(1);
    expect(counter.calls).toBe(0);
  });
});
