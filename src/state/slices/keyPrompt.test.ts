import { describe, expect, it } from "vitest";
import { WorkerSchema } from "../../engine/schema/worker.ts";
import { headerSecretId } from "./keybinding.ts";
import { missingKeys } from "./keyPrompt.ts";
import { nextKeyed } from "../storage/keyring.ts";

const pool = ["A", "B", "C"].map((name, i) => WorkerSchema.parse({ id: `w${i}`, name }));

describe("the keys a reload cleared", () => {
  it("are the secrets entered here that are not held now, for the owners a run calls", () => {
    const keyed = ["conductor", "w0", headerSecretId("w1", "X-Org"), "w1"];
    const s = { keyed, keys: { w0: "sk-held" }, pool };
    expect(missingKeys(s, ["w0", "w1", "w2"])).toEqual([
      { owner: "w1", name: "B", ids: [headerSecretId("w1", "X-Org"), "w1"] },
    ]);
    expect(missingKeys(s, ["w2", "conductor"])).toEqual([
      { owner: "conductor", name: "the Conductor", ids: ["conductor"] },
    ]);
    expect(missingKeys({ ...s, keyed: [] }, ["w1"])).toEqual([]);
  });

  it("the list keeps ids a reload cleared, adds keys given, and drops keys the user cleared", () => {
    expect(nextKeyed(["w0"], {}, { w1: "k" })).toEqual(["w0", "w1"]);
    expect(nextKeyed(["w0", "w1"], { w1: "k" }, {})).toEqual(["w0"]);
    expect(nextKeyed(["w0"], { w1: "k" }, { w1: "k2" })).toEqual(["w0", "w1"]);
  });
});
