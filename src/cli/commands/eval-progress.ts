// Progress of a long `eval` on stderr: a bar redrawn in place on a terminal (items done, calls in
// flight, spent, time left), plain lines otherwise, so logs and CI stay readable.
import { formatCost } from "../../engine/cost.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";

export interface ProgressState {
  done: number;
  total: number;
  /** Model calls in flight now (each attempt holds one while it streams). */
  calls: number;
  /** Dollars spent, earlier sessions of this evaluation included. */
  cost: number;
  /** Estimated milliseconds left, or null before the first result of this session. */
  etaMs: number | null;
}

/** "1m 05s", "42s", "2h 03m". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** "12/40 done, 3 calls in flight, $0.42 spent, about 1m 20s left". */
export function progressText(p: ProgressState): string {
  const left =
    p.done >= p.total
      ? ""
      : p.etaMs === null
        ? ", time left unknown yet"
        : `, about ${duration(p.etaMs)} left`;
  return `${p.done}/${p.total} done, ${p.calls} call${p.calls === 1 ? "" : "s"} in flight, ${formatCost(p.cost)} spent${left}`;
}

/** "[########----------]  40% 12/40 done, ..." cut to `columns`. */
export function progressBar(p: ProgressState, columns: number): string {
  const share = p.total === 0 ? 1 : p.done / p.total;
  const width = Math.max(10, Math.min(30, columns - 70));
  const filled = Math.round(share * width);
  const bar = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(share * 100)).padStart(3)}% `;
  return `${bar}${progressText(p)}`.slice(0, Math.max(20, columns - 1));
}

/** Wraps a backend so that `counter` knows how many of its calls stream at this moment. */
export function countingCalls(
  backend: ChatBackend,
  counter: { calls: number; changed: () => void },
): ChatBackend {
  return {
    label: backend.label,
    continuesAssistant: backend.continuesAssistant,
    ...(backend.contextWindow !== undefined ? { contextWindow: backend.contextWindow } : {}),
    ...(backend.countTokens ? { countTokens: backend.countTokens.bind(backend) } : {}),
    async *stream(request, signal) {
      counter.calls++;
      counter.changed();
      try {
        yield* backend.stream(request, signal);
      } finally {
        counter.calls--;
        counter.changed();
      }
    },
  };
}

const CLEAR = "\r\x1b[2K";

/** The display: `line` prints a result line, `update` the numbers; `stop` leaves a clean terminal. */
export class EvalProgressDisplay {
  private state: ProgressState = { done: 0, total: 0, calls: 0, cost: 0, etaMs: null };
  private etaAt = Date.now();
  private drawn = false;
  private lastOutput = Date.now();
  private readonly timer: ReturnType<typeof setInterval>;
  /** Calls in flight, kept by `countingCalls`. */
  readonly counter = { calls: 0, changed: () => this.redraw() };

  constructor(
    private readonly write: (s: string) => void,
    private readonly terminal: { tty: boolean; columns: number },
    /** Not on a terminal: a plain status line after this long without output. */
    private readonly quietMs = 30_000,
  ) {
    this.timer = setInterval(() => this.tick(), terminal.tty ? 1000 : Math.min(quietMs, 5000));
    this.timer.unref();
  }

  private now(): ProgressState {
    const eta =
      this.state.etaMs === null ? null : Math.max(0, this.state.etaMs - (Date.now() - this.etaAt));
    return { ...this.state, calls: this.counter.calls, etaMs: eta };
  }

  private redraw(): void {
    if (!this.terminal.tty) return;
    this.write(`${CLEAR}${progressBar(this.now(), this.terminal.columns)}`);
    this.drawn = true;
  }

  private tick(): void {
    if (this.terminal.tty) return this.redraw();
    if (Date.now() - this.lastOutput >= this.quietMs && this.state.total > 0)
      this.line(`[progress] ${progressText(this.now())}`);
  }

  /** New totals from the eval runner. */
  update(p: Omit<ProgressState, "calls">): void {
    if (p.etaMs !== this.state.etaMs) this.etaAt = Date.now();
    this.state = { ...p, calls: this.counter.calls };
    this.redraw();
  }

  /** A result has come in: `done` results and `cost` dollars in all, shown before the runner's next update. */
  counted(done: number, cost: number): void {
    this.state = { ...this.state, done, cost };
  }

  /** A line that stays: above the bar on a terminal, with the progress appended when not. */
  line(text: string, withProgress = false): void {
    this.lastOutput = Date.now();
    if (!this.terminal.tty) {
      this.write(`${text}${withProgress ? ` | ${progressText(this.now())}` : ""}\n`);
      return;
    }
    this.write(`${this.drawn ? CLEAR : ""}${text}\n`);
    this.drawn = false;
    this.redraw();
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.drawn) this.write(CLEAR);
    this.drawn = false;
  }
}
