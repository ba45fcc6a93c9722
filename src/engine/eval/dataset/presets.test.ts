// Benchmark presets and revision pinning against rows-API and dataset-API responses from a fake Hub
// (test-support/engine/eval/dataset/hub-fixtures.ts: documented-shape fixtures, not recorded).
import { describe, expect, it } from "vitest";
import { loadPinnedHfRows } from "./hf-pin.ts";
import { mapRows } from "./parse.ts";
import { BENCHMARK_PRESETS, UNOFFERED_BENCHMARKS } from "./presets.ts";
import { presetRows } from "./preset-rows.ts";
import { DEFAULT_COLUMNS } from "./item-schema.ts";
import { FIXTURES, OPTS, hub } from "../../../test-support/engine/eval/dataset/hub-fixtures.ts";

const preset = (id: string) => BENCHMARK_PRESETS.find((p) => p.id === id)!;

describe("benchmark presets", () => {
  it("cover the paper's sets whose format fits, each with split, mapping, scorer and instruction", () => {
    expect(BENCHMARK_PRESETS.map((p) => p.id)).toEqual([
      "math-500",
      "aime-2025",
      "gsm8k",
      "mmlu",
      "hotpotqa",
      "drop",
      "gpqa-diamond",
      "livecodebench",
      "humanevalplus",
      "mbppplus",
      "humaneval",
      "mbpp",
    ]);
    for (const p of BENCHMARK_PRESETS) {
      expect(p.source.split).toBeTruthy();
      expect(p.mapping.question).toBeTruthy();
      expect(p.reference).toBeTruthy();
      expect(p.instruction).toMatch(
        p.scorer === "code" ? /fenced code block/ : /^End your reply with a line "Answer: /,
      );
    }
  });

  it.each([
    ["math-500", 2, { expected: "2", category: "Prealgebra", id: "test/prealgebra/1.json" }],
    ["gsm8k", 2, { expected: "7" }],
    [
      "mmlu",
      1,
      { expected: "1", choices: ["3", "4", "5", "6"], category: "elementary_mathematics" },
    ],
    ["hotpotqa", 1, { expected: "Bologna", category: "hard", id: "5a8b57f25542995d1e6f1371" }],
    ["aime-2025", 1, { expected: "2" }],
    [
      "gpqa-diamond",
      1,
      {
        id: "rec1",
        expected: "0",
        choices: ["The photon", "The gluon", "The W boson", "The graviton"],
        category: "Physics",
      },
    ],
    ["livecodebench", 1, { id: "abc001_a", category: "easy" }],
    [
      "drop",
      3,
      {
        id: "q-count",
        question:
          "Passage: The Bears kicked 3 field goals in the first half and 1 in the second.\n" +
          "Question: How many field goals did the Bears kick?",
        expected: "4 | four",
      },
    ],
  ])("%s maps its rows into %i item(s)", async (id, n, first) => {
    const p = preset(id);
    const r = await loadPinnedHfRows(p.source, { fetch: hub("abc1234def"), ...OPTS });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const mapped = mapRows((await presetRows(p, r.rows)).rows, {
      ...DEFAULT_COLUMNS,
      ...p.mapping,
    });
    expect(mapped.bad).toEqual([]);
    expect(mapped.items).toHaveLength(n);
    expect(mapped.items[0]).toMatchObject(first);
    expect(r.source).toMatchObject({
      kind: "hf",
      dataset: p.source.dataset,
      revision: "abc1234def",
    });
  });

  it("reads every mapped column from the features its rows response declares", () => {
    for (const p of BENCHMARK_PRESETS) {
      const declared = Object.keys(FIXTURES[p.source.dataset]!.features);
      // Columns a reshape writes (GPQA's options and reference, LiveCodeBench's question and tests).
      const written = new Set(
        p.reshape === "gpqa_choices"
          ? ["answer", "choices"]
          : p.reshape === "livecodebench_tests"
            ? ["question", "tests"]
            : p.scorer === "code"
              ? ["question", "tests", "id"]
              : [],
      );
      const mapped = Object.values(p.mapping).filter(
        (c): c is string => typeof c === "string" && !written.has(c),
      );
      expect(declared, p.id).toEqual(expect.arrayContaining(mapped));
    }
  });

  it("poses DROP with its passage and accepts each of its answers: number, spans, date", async () => {
    const p = preset("drop");
    const r = await loadPinnedHfRows(p.source, { fetch: hub("abc1234def"), ...OPTS });
    if (!r.ok) throw new Error(r.message);
    const mapped = mapRows((await presetRows(p, r.rows)).rows, {
      ...DEFAULT_COLUMNS,
      ...p.mapping,
    });
    // lighteval's parse_answer: the number, else the spans joined by ", ", else "day month year";
    // duplicates among the validated answers dropped.
    expect(mapped.items.map((i) => i.expected)).toEqual(["4 | four", "Genoa, Pisa", "4 July 1776"]);
    const noPassage = { line: 9, values: { question: "Who?", answer: { number: "1" } } };
    expect(
      mapRows((await presetRows(p, [noPassage])).rows, { ...DEFAULT_COLUMNS, ...p.mapping }).bad,
    ).toEqual([{ line: 9, message: 'The question column "question" is empty or missing.' }]);
    // A cell of the wrong type counts as empty, never as a crash.
    const odd = {
      line: 3,
      values: { passage: "P", question: "Q", answer: 7, validated_answers: "x" },
    };
    expect((await presetRows(p, [odd])).rows[0]!.values.answer).toBe("");
  });

  it("names each benchmark it does not offer, with the reason, apart from the offered ones", () => {
    expect(UNOFFERED_BENCHMARKS.map((b) => b.name)).toEqual(["BigCodeBench"]);
    const offered = new Set(BENCHMARK_PRESETS.map((p) => p.source.dataset));
    for (const b of UNOFFERED_BENCHMARKS) {
      expect(offered.has(b.dataset.split(" ")[0]!)).toBe(false);
      expect(b.why.length).toBeGreaterThan(30);
    }
  });

  it("keeps only what follows GSM8K's last #### in the reference", async () => {
    const rows = [
      { line: 1, values: { question: "q", answer: "a #### b\n#### 12 " } },
      { line: 2, values: { question: "q", answer: "no marker" } },
    ];
    expect((await presetRows(preset("gsm8k"), rows)).rows.map((r) => r.values.answer)).toEqual([
      "12",
      "no marker",
    ]);
    expect((await presetRows(preset("math-500"), rows)).rows).toEqual(rows);
  });
});

describe("revision pinning", () => {
  const src = preset("gsm8k").source;

  it("records the commit a read was at, from the Hub's dataset API", async () => {
    const urls: string[] = [];
    const r = await loadPinnedHfRows(src, { fetch: hub("0123456789abcdef", urls), ...OPTS });
    expect(r.ok && r.source.revision).toBe("0123456789abcdef");
    expect(urls[0]).toBe("http://hub.test/api/datasets/openai/gsm8k");
    expect(urls[1]).toMatch(
      /^http:\/\/rows\.test\/rows\?dataset=openai%2Fgsm8k&config=main&split=test/,
    );
  });

  it("re-reads at the pinned commit, and refuses a dataset that has moved on", async () => {
    const same = await loadPinnedHfRows(src, {
      fetch: hub("0123456789abcdef"),
      pinned: "0123456789abcdef",
      ...OPTS,
    });
    expect(same.ok).toBe(true);
    const moved = await loadPinnedHfRows(src, {
      fetch: hub("fedcba9876543210"),
      pinned: "0123456789abcdef",
      ...OPTS,
    });
    expect(moved).toMatchObject({ ok: false, code: "hf_revision_moved" });
    expect(!moved.ok && moved.message).toContain("fedcba987654");
  });

  it("reads without a revision when the Hub gives none, but never re-reads a pin unchecked", async () => {
    const noInfo = (input: RequestInfo | URL) =>
      new URL(input instanceof Request ? input.url : input).pathname.startsWith("/api/datasets/")
        ? Promise.resolve(new Response("{}", { status: 404 }))
        : hub("x")(input);
    const r = await loadPinnedHfRows(src, { fetch: noInfo, ...OPTS });
    expect(r.ok && r.source.revision).toBeNull();
    const pinned = await loadPinnedHfRows(src, {
      fetch: noInfo,
      pinned: "0123456789abcdef",
      ...OPTS,
    });
    expect(pinned).toMatchObject({ ok: false, code: "hf_http" });
  });
});
