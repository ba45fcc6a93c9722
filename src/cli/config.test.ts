import { describe, expect, it } from "vitest";
import { resolveConfig } from "./config.ts";

const config = (conductorModel: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    conductor: { baseURL: "http://localhost:8000/v1", model: conductorModel },
    workers: [{ name: "A", baseURL: "http://localhost:8001/v1", model: "a" }],
    ...extra,
  });
const named = (text: string, purpose?: "use" | "training") => {
  const r = resolveConfig(text, {}, purpose);
  if (!r.ok) throw new Error(r.message);
  return r.config.namedWorkers;
};

describe("the config's worker names default: the studio's rule (named-workers.ts)", () => {
  it("is off for a trained Conductor and for the policy being trained, on for a prompted model", () => {
    expect(named(config("conductor-7b"))).toBe(false);
    expect(named(config("gpt-5"))).toBe(true);
    expect(named(config("Qwen2.5-7B-Instruct"), "training")).toBe(false);
  });

  it("gives way to the config's own value", () => {
    expect(named(config("gpt-5", { namedWorkers: false }))).toBe(false);
    expect(named(config("conductor-7b", { namedWorkers: true }), "training")).toBe(true);
  });

  it("reads the limits through the shared schema: rounds up to 5, steps up to 20", () => {
    expect(resolveConfig(config("m", { rounds: 5, maxSteps: 20 }), {})).toMatchObject({
      ok: true,
      config: { rounds: 5, maxSteps: 20 },
    });
    expect(resolveConfig(config("m", { rounds: 6 }), {})).toMatchObject({ ok: false });
    expect(resolveConfig(config("m", { maxSteps: 21 }), {})).toMatchObject({ ok: false });
    expect(resolveConfig(config("m"), {})).toMatchObject({ config: { rounds: 0, maxSteps: 5 } });
  });
});
