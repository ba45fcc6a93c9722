// The studio's Hugging Face reads: a gated preset needs the token, and the token goes to the Hub's
// origins only (bound in the key ring like a worker's key).
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BENCHMARK_PRESETS } from "../../engine/eval/dataset/presets.ts";
import { hfEndpoints, loadHfQuestions } from "./evalHf.ts";
import { HF_TOKEN_ID, hubOrigin } from "../slices/keybinding.ts";
import { useStudio } from "../slices/store.ts";
import { resetEvaluate } from "../../test-support/state/studio-state.ts";
import { hubRowsPage } from "../../test-support/cli/hub-rows.ts";

const GPQA = BENCHMARK_PRESETS.find((p) => p.id === "gpqa-diamond")!;
const TOKEN = "hf_canary_studio_42";
const seen: { url: string; auth: string | null }[] = [];

beforeEach(() => {
  resetEvaluate("eval-hf");
  seen.length = 0;
  Object.assign(hfEndpoints, { base: "http://rows.hub.test", hub: "http://hub.test" });
  hubOrigin.url = "http://hub.test";
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    seen.push({ url, auth: new Headers(init?.headers).get("authorization") });
    const body = url.includes("/api/datasets/") ? { sha: "0123456789abcdef" } : hubRowsPage();
    return Promise.resolve(new Response(JSON.stringify(body)));
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useStudio.getState().setKey(HF_TOKEN_ID, "");
});

describe("Hugging Face token in the studio", () => {
  it("asks for the token before reading a gated preset, and reads nothing without it", async () => {
    const message = await loadHfQuestions(GPQA.source, null, GPQA);
    expect(message).toMatch(/GPQA-Diamond is gated .* enter your Hugging Face token/);
    expect(seen).toEqual([]);
  });

  it("sends the token to the Hub's APIs and loads the preset with its options", async () => {
    useStudio.getState().setKey(HF_TOKEN_ID, TOKEN, "http://hub.test");
    expect(await loadHfQuestions(GPQA.source, null, GPQA)).toBeNull();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.auth === `Bearer ${TOKEN}`)).toBe(true);
    expect(useStudio.getState().evalSetup).toMatchObject({ scorer: "mc" });
  });

  it("does not send a token entered for another origin once the Hub moved", async () => {
    useStudio.getState().setKey(HF_TOKEN_ID, TOKEN, "http://elsewhere.test");
    const message = await loadHfQuestions(GPQA.source, null, GPQA);
    expect(message).toMatch(/gated/);
    expect(seen.every((s) => s.auth === null)).toBe(true);
  });
});
