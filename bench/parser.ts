import { createPartialPlanReader, parseConductorOutput } from "../src/engine/conductor/parse.ts";

const SIZES = [10_000, 100_000, 1_000_000];
const OPTIONS = { workers: 7, maxSteps: 5 };

/** A deterministic pseudo-random generator (mulberry32), so the random text is the same each run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

const PLAN = `model_id = [2, 0, 1]
subtasks = ["Solve the problem step by step.", "Solve it independently.", "Compare both answers and give the final one."]
access_list = [[], [], ["all"]]`;

/** The pathological Conductor outputs of a repetition loop, and two ordinary shapes, of `n` chars. */
export const PATTERNS: Record<string, (n: number) => string> = {
  "repeated model_id = ['": (n) => fill("model_id = ['", n),
  'repeated "["': (n) => `model_id = ${fill("[", n)}`,
  "repeated quotes": (n) => `model_id = [${fill(`"'`, n)}`,
  "quote-comma loop": (n) => `model_id = ['${fill("a', 'model_id = ['", n)}`,
  "long valid plan": (n) => {
    const steps = 5;
    const subtask = fill("Check every step of the argument. ", Math.floor((n - 200) / steps));
    const s = JSON.stringify(Array<string>(steps).fill(subtask));
    return `Reasoning first.\nmodel_id = [0, 1, 2, 3, 4]\nsubtasks = ${s}\naccess_list = [[], [0], [0, 1], "all", ["all"]]`;
  },
  "long reasoning, then a plan": (n) =>
    `${fill("The answer needs care. ", n - PLAN.length - 1)}\n${PLAN}`,
  "random text": (n) => {
    const next = random(7);
    const alphabet = "abc xyz[],'\"=:\n\\#`()01";
    const labels = ["model_id = [", "subtasks: [", "access_list = ["];
    let out = "";
    while (out.length < n) {
      out +=
        next() < 0.05
          ? labels[Math.floor(next() * 3)]
          : alphabet[Math.floor(next() * alphabet.length)];
    }
    return out.slice(0, n);
  },
};

/** The best of `runs` timings (the machine may be busy with other work). */
function time(fn: () => void, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Prints how long parsing takes for each pattern and size: whole text, and streamed in 16-char deltas. */
export function benchParser(): void {
  parseConductorOutput(PATTERNS["random text"]!(100_000), OPTIONS); // warm up the JIT
  console.log(
    "\nConductor output parser (ms): full parse / streaming view (16-char deltas); target: linear, under 10,000 ms at 300k chars of any pattern",
  );
  console.log(
    ["pattern".padEnd(30), ...SIZES.map((n) => `${n / 1000}k chars`.padStart(22))].join(""),
  );
  for (const [name, make] of Object.entries(PATTERNS)) {
    const cells = SIZES.map((n) => {
      const text = make(n);
      const full = time(() => void parseConductorOutput(text, OPTIONS));
      const stream = time(() => {
        const reader = createPartialPlanReader(OPTIONS);
        for (let i = 16; i < text.length + 16; i += 16) reader.read(text.slice(0, i));
      }, 1);
      return `${full.toFixed(1)} / ${stream.toFixed(1)}`.padStart(22);
    });
    console.log([name.padEnd(30), ...cells].join(""));
  }
}
