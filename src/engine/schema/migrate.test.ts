import { describe, expect, it } from "vitest";
import type { StoredDoc } from "./migrate.ts";
import { checkVersion, migrate, migrationSequence, upgrade } from "./migrate.ts";

const trail = (doc: StoredDoc): unknown[] => (Array.isArray(doc.trail) ? doc.trail : []);
const SEQ = migrationSequence("test file", [
  { id: 2, up: (doc) => ({ ...doc, trail: [...trail(doc), "1->2"] }) },
  { id: 3, up: (doc) => ({ ...doc, trail: [...trail(doc), "2->3"] }) },
]);

describe("migrationSequence", () => {
  it("counts the current version from the steps", () => {
    expect(SEQ.current).toBe(3);
    expect(migrationSequence("none", []).current).toBe(1);
    expect(migrationSequence("later", [{ id: 6, up: (d) => d }], 5).current).toBe(6);
  });

  it("refuses ids that are not sequential, when the module loads", () => {
    const up = (d: StoredDoc) => d;
    expect(() =>
      migrationSequence("gap", [
        { id: 2, up },
        { id: 4, up },
      ]),
    ).toThrow("gap migrations: step 1 has id 4, expected 3");
    expect(() =>
      migrationSequence("repeat", [
        { id: 2, up },
        { id: 2, up },
      ]),
    ).toThrow("expected 3");
    expect(() => migrationSequence("off by one", [{ id: 1, up }])).toThrow("expected 2");
  });
});

describe("migrate", () => {
  it("applies each step in order, purely, and stamps each new version", () => {
    const doc = Object.freeze({ version: 1, kept: "yes" });
    expect(migrate(SEQ, doc, 1)).toEqual({
      ok: true,
      doc: { version: 3, kept: "yes", trail: ["1->2", "2->3"] },
    });
    expect(doc).toEqual({ version: 1, kept: "yes" });
    expect(migrate(SEQ, doc, 2)).toMatchObject({ ok: true, doc: { version: 3, trail: ["2->3"] } });
    expect(migrate(SEQ, doc, 1, 2)).toMatchObject({
      ok: true,
      doc: { version: 2, trail: ["1->2"] },
    });
  });

  it("stamps the field a format names, or none", () => {
    expect(migrate(SEQ, { v: 1 }, 1, 3, "v")).toMatchObject({ ok: true, doc: { v: 3 } });
    expect(migrate(SEQ, { x: 1 }, 1, 3, null)).toEqual({
      ok: true,
      doc: { x: 1, trail: ["1->2", "2->3"] },
    });
  });

  it("changes nothing when the document is already current", () => {
    const doc = { version: 3, x: 1 };
    expect(migrate(SEQ, doc, 3)).toEqual({ ok: true, doc });
  });

  it("fails past the last step", () => {
    const result = migrate(SEQ, { version: 1 }, 1, 4);
    expect(result).toMatchObject({ ok: false, code: "invalid_file" });
    if (!result.ok) expect(result.message).toContain("no migration from version 3");
  });

  it("turns a step that throws on odd data into a failure", () => {
    const strict = migrationSequence("strict", [
      {
        id: 2,
        up: (doc) => {
          if (!Array.isArray(doc.rounds)) throw new TypeError("rounds is not an array");
          return doc;
        },
      },
    ]);
    const result = migrate(strict, { version: 1 }, 1);
    expect(result).toMatchObject({ ok: false, code: "invalid_file" });
    if (!result.ok)
      expect(result.message).toContain("from version 1 failed: rounds is not an array");
  });
});

describe("checkVersion and upgrade", () => {
  it("reads a known version and says which it migrated from", () => {
    expect(upgrade(SEQ, { version: 1 })).toEqual({
      ok: true,
      doc: { version: 3, trail: ["1->2", "2->3"] },
      migratedFrom: 1,
    });
    expect(upgrade(SEQ, { version: 3 })).toEqual({
      ok: true,
      doc: { version: 3 },
      migratedFrom: null,
    });
    expect(upgrade(SEQ, { v: 2 }, "v")).toMatchObject({ ok: true, migratedFrom: 2, doc: { v: 3 } });
  });

  it("refuses a newer version with a clear message, and a version that is no version", () => {
    const newer = checkVersion(SEQ, 4);
    expect(newer).toMatchObject({ ok: false, code: "newer_version" });
    if (!newer.ok)
      expect(newer.message).toContain("It is test file version 4; this app reads up to 3.");
    for (const bad of [0, -1, 1.5, "2", null, undefined, Number.NaN])
      expect(checkVersion(SEQ, bad)).toMatchObject({ ok: false, code: "invalid_file" });
    expect(upgrade(SEQ, [1])).toMatchObject({ ok: false, code: "invalid_file" });
    expect(upgrade(SEQ, "x")).toMatchObject({ ok: false, code: "invalid_file" });
  });

  it("refuses a version older than the sequence's first", () => {
    const late = migrationSequence("late", [{ id: 3, up: (d) => d }], 2);
    expect(checkVersion(late, 1)).toMatchObject({ ok: false, code: "invalid_file" });
    expect(checkVersion(late, 2)).toEqual({ ok: true, version: 2 });
  });
});
