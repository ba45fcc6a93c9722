import { describe, expect, it } from "vitest";
import { loadHfRows } from "./hf.ts";
import { choicesOf, detectFormat, mapRows, parseColumnsOption, parseTable } from "./parse.ts";
import { SAMPLE_SETS } from "./samples.ts";
import { DEFAULT_COLUMNS } from "./item-schema.ts";
import { poseChoices, referenceIndex } from "./shuffle.ts";
import { datasetHash } from "./hash.ts";
import { parseCodeTests } from "../code/tests-schema.ts";
import { defaultScorerId } from "../scorers/registry.ts";

describe("question files", () => {
  it("reads JSONL and reports bad lines with their numbers", () => {
    const text = '{"question":"1+1?","answer":2}\n\n{"question":"oops"\n{"q":"no question"}\n[1]\n';
    const table = parseTable(text, "jsonl");
    expect(table.rows.map((r) => r.line)).toEqual([1, 4]);
    expect(table.bad.map((b) => b.line)).toEqual([3, 5]);
    const mapped = mapRows(table.rows, DEFAULT_COLUMNS);
    expect(mapped.items).toEqual([{ id: "1", question: "1+1?", expected: "2" }]);
    expect(mapped.bad).toEqual([
      { line: 4, message: expect.stringContaining('"question"') as string },
    ]);
  });

  it("reads CSV through papaparse with quoted newlines and keeps true line numbers", () => {
    const text = 'q,a,opts\n"What is\nwater?",H2O,"H2O|CO2"\n,missing,\n"Two",2,\n';
    const table = parseTable(text, "csv");
    expect(table.columns).toEqual(["q", "a", "opts"]);
    const mapped = mapRows(table.rows, { question: "q", answer: "a", choices: "opts" });
    expect(mapped.items[0]).toEqual({
      id: "1",
      question: "What is\nwater?",
      expected: "H2O",
      choices: ["H2O", "CO2"],
    });
    expect(mapped.bad).toEqual([{ line: 4, message: expect.any(String) as string }]);
    expect(table.rows.map((r) => r.line)).toEqual([2, 4, 5]);
  });

  it("reads a JSON array, a wrapper object and HF rows elements; refuses duplicate ids", () => {
    expect(parseTable('{"data":[{"question":"a"}]}', "json").rows).toHaveLength(1);
    const hf = parseTable(
      '[{"row_idx":0,"row":{"question":"x","id":"a"}},{"row_idx":1,"row":{"question":"y","id":"a"}}]',
      "json",
    );
    const mapped = mapRows(hf.rows, DEFAULT_COLUMNS);
    expect(mapped.items).toHaveLength(1);
    expect(mapped.bad[0]).toEqual({
      line: 2,
      message: expect.stringContaining("earlier row") as string,
    });
    expect(parseTable("{nope", "json").bad[0]?.line).toBe(1);
  });

  it("detects formats and parses choices and --columns", () => {
    expect(detectFormat("", "a.JSONL")).toBe("jsonl");
    expect(detectFormat('{"a":1}\n{"a":2}')).toBe("jsonl");
    expect(detectFormat("[{}]")).toBe("json");
    expect(detectFormat("a,b\n1,2")).toBe("csv");
    expect(choicesOf('["a", 2]')).toEqual(["a", "2"]);
    expect(choicesOf("[bad")).toBeNull();
    expect(choicesOf({})).toBeNull();
    expect(parseColumnsOption("question=q,answer=a", DEFAULT_COLUMNS)).toMatchObject({
      ok: true,
      mapping: { question: "q", answer: "a", id: "id" },
    });
    expect(parseColumnsOption("colour=q", DEFAULT_COLUMNS).ok).toBe(false);
    expect(parseColumnsOption("question", DEFAULT_COLUMNS).ok).toBe(false);
  });
});

describe("multiple-choice shuffling", () => {
  const item = {
    id: "q1",
    question: "Pick",
    expected: "right",
    choices: ["right", "w1", "w2", "w3"],
  };
  it("is reproducible from the seed and letters the options", () => {
    const a = poseChoices(item, 42)!;
    expect(poseChoices(item, 42)).toEqual(a);
    expect(a.text).toMatch(/\nA\) .+\nB\) .+\nC\) .+\nD\) .+$/);
    expect(item.choices[a.order["ABCD".indexOf(a.answerLetter!)]!]).toBe("right");
    const letters = new Set(
      Array.from({ length: 40 }, (_, s) => poseChoices(item, s)!.answerLetter),
    );
    expect(letters.size).toBe(4);
  });
  it("reads references by text, letter or index", () => {
    expect(referenceIndex(item.choices, "W2")).toBe(2);
    expect(referenceIndex(item.choices, "b")).toBe(1);
    expect(referenceIndex(item.choices, "3")).toBe(3);
    expect(referenceIndex(item.choices, "none")).toBe(-1);
  });
});

describe("sample sets and the HF loader", () => {
  it("has the four sample sets with distinct hashes", () => {
    expect(SAMPLE_SETS.map((s) => s.items.length)).toEqual([20, 20, 10, 7]);
    expect(new Set(SAMPLE_SETS.map((s) => s.hash)).size).toBe(4);
    expect(SAMPLE_SETS[1]!.items.every((i) => i.choices?.length === 4)).toBe(true);
    expect(datasetHash(SAMPLE_SETS[0]!.items)).toBe(SAMPLE_SETS[0]!.hash);
  });

  it("has a code set whose tests parse, in both styles, and picks the code scorer for it", () => {
    const code = SAMPLE_SETS.find((s) => s.id === "code")!;
    const styles = code.items.map((i) => {
      const parsed = parseCodeTests(i.tests);
      if (!parsed.ok) throw new Error(`${i.id}: ${parsed.message}`);
      return parsed.tests.style;
    });
    expect(new Set(styles)).toEqual(new Set(["stdio", "function"]));
    expect(code.scorer).toBe("code");
    expect(defaultScorerId(code.items)).toBe("code");
    // The tests are part of the hash: changing one changes the set.
    const changed = code.items.map((i, n) => (n === 0 ? { ...i, tests: "{}" } : i));
    expect(datasetHash(changed)).not.toBe(code.hash);
  });

  it("keeps a tests column, as JSON text or an object, through the column mapping", () => {
    const cell = { style: "function", name: "f", cases: [{ args: [1], expected: 2 }] };
    const text = [
      JSON.stringify({ q: "one", tests: JSON.stringify(cell) }),
      JSON.stringify({ q: "two", tests: cell }),
      JSON.stringify({ q: "three", tests: "" }),
    ].join("\n");
    const table = parseTable(text, "jsonl");
    const { items } = mapRows(table.rows, { question: "q", tests: "tests" });
    expect(items.map((i) => i.tests)).toEqual([JSON.stringify(cell), cell, undefined]);
    expect(items.map((i) => parseCodeTests(i.tests).ok)).toEqual([true, true, false]);
  });

  it("pages through the rows API with the injected fetch", async () => {
    const urls: string[] = [];
    const fake: typeof fetch = (input) => {
      const url = new URL(
        typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
      );
      urls.push(url.search);
      const offset = Number(url.searchParams.get("offset"));
      const length = Number(url.searchParams.get("length"));
      const rows = Array.from({ length: Math.min(length, 130 - offset) }, (_, k) => ({
        row_idx: offset + k,
        row: { problem: `p${offset + k}`, solution: String(offset + k) },
        truncated_cells: [],
      }));
      const body = {
        features: [
          { feature_idx: 0, name: "problem", type: {} },
          { feature_idx: 1, name: "solution", type: {} },
        ],
        rows,
        num_rows_total: 130,
      };
      return Promise.resolve(new Response(JSON.stringify(body)));
    };
    const r = await loadHfRows(
      { dataset: "me/set", config: "default", split: "test", offset: 20, length: 150 },
      { fetch: fake, base: "http://x" },
    );
    expect(r.ok && r.rows.length).toBe(110);
    expect(r.ok && r.columns).toEqual(["problem", "solution"]);
    expect(r.ok && r.rows[0]).toEqual({ line: 21, values: { problem: "p20", solution: "20" } });
    expect(urls).toHaveLength(2);
    const err = await loadHfRows(
      { dataset: "x", config: "c", split: "s", offset: 0, length: 5 },
      {
        fetch: () =>
          Promise.resolve(new Response(JSON.stringify({ error: "Not found" }), { status: 404 })),
      },
    );
    expect(err).toEqual({ ok: false, code: "hf_http", message: "The Hub answered 404: Not found" });
    const net = await loadHfRows(
      { dataset: "x", config: "c", split: "s", offset: 0, length: 5 },
      { fetch: () => Promise.reject(new Error("offline")) },
    );
    expect(net.ok || net.code).toBe("hf_network");
  });
});

describe("the HF loader over HTTP", () => {
  it("reads a rows response from a local server with the Hub's response shape", async () => {
    const { startTestServer } = await import("../../../../e2e/server/server.ts");
    const server = await startTestServer();
    try {
      const body = {
        features: [{ feature_idx: 0, name: "question", type: { dtype: "string" } }],
        rows: [
          { row_idx: 5, row: { question: "Q5", answer: "5" }, truncated_cells: [] },
          { row_idx: 6, row: { question: "Q6", answer: "6" }, truncated_cells: [] },
        ],
        num_rows_total: 7,
        num_rows_per_page: 100,
        partial: false,
      };
      server.serveFile("/rows", { body: JSON.stringify(body), contentType: "application/json" });
      const r = await loadHfRows(
        { dataset: "me/set", config: "default", split: "test", offset: 5, length: 10 },
        { fetch: (...a) => fetch(...a), base: server.url },
      );
      expect(r).toMatchObject({ ok: true, total: 7, columns: ["question"] });
      expect(r.ok && mapRows(r.rows, DEFAULT_COLUMNS).items.map((i) => i.expected)).toEqual([
        "5",
        "6",
      ]);
      const query = new URL(`http://x${server.requests.at(-1)!.path}`);
      expect(query.pathname).toBe("/rows");
    } finally {
      await server.close();
    }
  });
});
