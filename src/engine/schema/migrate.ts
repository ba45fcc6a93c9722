/**
 * The one migration mechanism for everything stored or exported (run exports, the draft, the key
 * ring, pool files, settings, the IndexedDB rows): a named sequence of numbered steps, each a pure
 * function from one version to the next, as tldraw's store migrations are. The ids are checked
 * when the sequence is made (a gap is a bug, caught at load); reading returns success or a coded
 * failure and never throws on user data.
 */
import type { Result } from "../errors.ts";
import { failure } from "../errors.ts";
import { isObject } from "./guards.ts";

/** A stored document as migrations see it: any JSON object. */
export type StoredDoc = Record<string, unknown>;

/** One step: `up` takes a version `id - 1` document to version `id`. Pure: returns a new object. */
export interface MigrationStep {
  id: number;
  up(doc: StoredDoc): StoredDoc;
}

/** A format's steps in order, and the version they lead to (what this app writes). */
export interface MigrationSequence {
  /** Named in messages: "pool file", "run export". */
  name: string;
  /** The oldest version this app reads (usually 1). */
  first: number;
  /** The version this app writes: `first` plus the number of steps. */
  current: number;
  steps: readonly MigrationStep[];
}

/**
 * A sequence whose step ids run `first + 1, first + 2, ...` without gap or repeat. Throws when
 * they do not: that is a bug in the app, found the moment the module loads, not on user data.
 */
export function migrationSequence(
  name: string,
  steps: readonly MigrationStep[],
  first = 1,
): MigrationSequence {
  steps.forEach((step, i) => {
    if (step.id !== first + i + 1)
      throw new Error(
        `${name} migrations: step ${i} has id ${step.id}, expected ${first + i + 1} (ids are sequential).`,
      );
  });
  return { name, first, current: first + steps.length, steps };
}

/**
 * Applies the steps from version `from` up to `to` (default: the current one) and stamps
 * `version` after each, where the document carries it in `field`. A step that throws on odd
 * data becomes an `invalid_file` failure.
 */
export function migrate(
  seq: MigrationSequence,
  doc: StoredDoc,
  from: number,
  to: number = seq.current,
  field: string | null = "version",
): Result<{ doc: StoredDoc }> {
  let current = doc;
  for (let v = from; v < to; v++) {
    const step = seq.steps[v - seq.first];
    if (!step) return { ok: false, ...failure("invalid_file", `no migration from version ${v}.`) };
    try {
      const next = step.up(current);
      current = field === null ? next : { ...next, [field]: v + 1 };
    } catch (e: unknown) {
      const detail = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        ...failure("invalid_file", `migration from version ${v} failed: ${detail}`),
      };
    }
  }
  return { ok: true, doc: current };
}

/**
 * Reads a version number (a document's `version`, or a row's): a positive integer this app
 * knows. Older than `first` or not an integer: `invalid_file`; newer: `newer_version`.
 */
export function checkVersion(
  seq: MigrationSequence,
  version: unknown,
): Result<{ version: number }> {
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1)
    return { ok: false, ...failure("invalid_file", "the version is not a positive integer.") };
  if (version > seq.current)
    return {
      ok: false,
      ...failure(
        "newer_version",
        `It is ${seq.name} version ${version}; this app reads up to ${seq.current}. Update the app.`,
      ),
    };
  if (version < seq.first)
    return {
      ok: false,
      ...failure("invalid_file", `${seq.name} version ${version} is older than this app reads.`),
    };
  return { ok: true, version };
}

/**
 * Reads a versioned document: checks its `version` field and migrates it to the current
 * version. `migratedFrom` is the version it had, or null when it was current.
 */
export function upgrade(
  seq: MigrationSequence,
  raw: unknown,
  field = "version",
): Result<{ doc: StoredDoc; migratedFrom: number | null }> {
  if (!isObject(raw))
    return { ok: false, ...failure("invalid_file", `the ${seq.name} is not a JSON object.`) };
  const checked = checkVersion(seq, raw[field]);
  if (!checked.ok) return checked;
  const migrated = migrate(seq, raw, checked.version, seq.current, field);
  if (!migrated.ok) return migrated;
  return {
    ok: true,
    doc: migrated.doc,
    migratedFrom: checked.version < seq.current ? checked.version : null,
  };
}
