// Benchmark presets and revision pinning against rows-API and dataset-API responses. The fixtures
// are written by hand in the shape those APIs answer (no network here to record real ones): the
// columns are each dataset's published columns, the values made up.
import { describe, expect, it } from "vitest";
import { loadPinnedHfRows } from "./hf-pin.ts";
import { mapRows } from "./parse.ts";
import { BENCHMARK_PRESETS, presetRows } from "./presets.ts";
import { DEFAULT_COLUMNS } from "./schema.ts";

const preset = (id: string) => BENCHMARK_PRESETS.find((p) => p.id === id)!;

const ROWS: Record<string, Record<string, unknown>[]> = {
  "HuggingFaceH4/MATH-500": [
    {
      problem: "What is $1+1$?",
      solution: "$1+1=\\boxed{2}$",
      answer: "2",
      subject: "Prealgebra",
      level: 1,
      unique_id: "test/prealgebra/1.json",
    },
    {
      problem: "Solve $x^2=4$, $x>0$.",
      solution: "\\boxed{2}",
      answer: "2",
      subject: "Algebra",
      level: 2,
      unique_id: "test/algebra/7.json",
    },
  ],
  "openai/gsm8k": [
    { question: "Ann has 3 apples and buys 4. How many?", answer: "3 + 4 = <<3+4=7>>7\n#### 7" },
    { question: "Tom reads 10 pages a day for 3 days. Pages?", answer: "10*3=30\n#### 30" },
  ],
  "cais/mmlu": [
    {
      question: "2 + 2 =",
      subject: "elementary_mathematics",
      choices: ["3", "4", "5", "6"],
      answer: 1,
    },
  ],
  "hotpotqa/hotpot_qa": [
    {
      id: "5a8b57f25542995d1e6f1371",
      question: "Which city hosts the older university?",
      answer: "Bologna",
      type: "comparison",
      level: "hard",
    },
  ],
  "opencompass/AIME2025": [
    { question: "Find the remainder when 2025 is divided by 7.", answer: "2" },
  ],
};

/** A fake Hub: the dataset API answers `sha`, the rows API the fixture rows in its shape. */
function hub(sha: string, urls: string[] = []) {
  return (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : input);
    urls.push(url.toString());
    if (url.pathname.startsWith("/api/datasets/"))
      return Promise.resolve(
        new Response(JSON.stringify({ id: "x", sha, lastModified: "2025-01-01" })),
      );
    const dataset = url.searchParams.get("dataset")!;
    const rows = ROWS[dataset] ?? [];
    const body = {
      features: Object.keys(rows[0] ?? {}).map((name, i) => ({ feature_idx: i, name, type: {} })),
      rows: rows.map((row, row_idx) => ({ row_idx, row, truncated_cells: [] })),
      num_rows_total: rows.length,
      num_rows_per_page: 100,
      partial: false,
    };
    return Promise.resolve(new Response(JSON.stringify(body)));
  };
}

const OPTS = { base: "http://rows.test", hub: "http://hub.test" };

describe("benchmark presets", () => {
  it("cover the paper's sets whose format fits, each with split, mapping, scorer and instruction", () => {
    expect(BENCHMARK_PRESETS.map((p) => p.id)).toEqual([
      "math-500",
      "aime-2025",
      "gsm8k",
      "mmlu",
      "hotpotqa",
    ]);
    for (const p of BENCHMARK_PRESETS) {
      expect(p.source.split).toBeTruthy();
      expect(p.mapping.question).toBeTruthy();
      expect(p.instruction).toMatch(/^End your reply with a line "Answer: /);
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
  ])("%s maps its rows into %i item(s)", async (id, n, first) => {
    const p = preset(id);
    const r = await loadPinnedHfRows(p.source, { fetch: hub("abc1234def"), ...OPTS });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const mapped = mapRows(presetRows(p, r.rows), { ...DEFAULT_COLUMNS, ...p.mapping });
    expect(mapped.bad).toEqual([]);
    expect(mapped.items).toHaveLength(n);
    expect(mapped.items[0]).toMatchObject(first);
    expect(r.source).toMatchObject({
      kind: "hf",
      dataset: p.source.dataset,
      revision: "abc1234def",
    });
  });

  it("keeps only what follows GSM8K's last #### in the reference", () => {
    const rows = [
      { line: 1, values: { question: "q", answer: "a #### b\n#### 12 " } },
      { line: 2, values: { question: "q", answer: "no marker" } },
    ];
    expect(presetRows(preset("gsm8k"), rows).map((r) => r.values.answer)).toEqual([
      "12",
      "no marker",
    ]);
    expect(presetRows(preset("math-500"), rows)).toEqual(rows);
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
