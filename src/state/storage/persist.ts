// Settings stored in this browser (without keys): read, migrated and written.
import { redactOwner } from "../../engine/pool/headers.ts";
import { isObject } from "../../engine/schema/guards.ts";
import { migrationSequence, upgrade } from "../../engine/schema/migrate.ts";
import {
  LIMIT_FIELDS,
  STORED_CONDUCTOR_FIELDS,
  STORED_TELEMETRY_FIELDS,
} from "../../engine/schema/settings.ts";
import { readFields, readItems } from "../../engine/schema/tolerant.ts";
import { WorkerSchema } from "../../engine/schema/worker.ts";
import { DEFAULT_CONDUCTOR, DEFAULT_TELEMETRY } from "../slices/settings.ts";
import type { StudioState } from "../slices/store.ts";

/** Where settings live in this browser. Keys are deliberately not part of what is stored. */
export const SETTINGS_KEY = "conductor-studio.settings.v1";

/**
 * The stored settings' migrations: none yet. Settings written before they carried a version are
 * version 1 (the same shape); a breaking change adds a step here.
 */
const SETTINGS_MIGRATIONS = migrationSequence("settings", []);

/** Stored settings as read: what loads, and which fields were dropped (to tell the user once). */
export interface SettingsRead {
  settings: Partial<StudioState>;
  dropped: string[];
  /** Why nothing at all could be read (not JSON, a newer version); null otherwise. */
  unreadable: string | null;
}

/**
 * Reads stored settings tolerantly: every valid field is kept, each invalid one falls back to its
 * default and is named in `dropped` (a worker of the pool that does not read is dropped alone).
 * Never throws.
 */
export function readSettings(storage: Pick<Storage, "getItem">): SettingsRead {
  const none = (unreadable: string | null): SettingsRead => ({
    settings: {},
    dropped: [],
    unreadable,
  });
  const text = storage.getItem(SETTINGS_KEY);
  if (!text) return none(null);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return none("The stored settings are not JSON; the defaults are in use.");
  }
  if (!isObject(raw))
    return none("The stored settings are not an object; the defaults are in use.");
  const migrated = upgrade(SETTINGS_MIGRATIONS, { version: 1, ...raw });
  if (!migrated.ok) return none(`${migrated.message} The defaults are in use for now.`);
  const doc = migrated.doc;
  const pool = readItems(WorkerSchema, doc.pool, "pool");
  const conductor = readFields(STORED_CONDUCTOR_FIELDS, doc.conductor, "conductor");
  const limits = readFields({ maxSteps: LIMIT_FIELDS.maxSteps }, doc);
  const telemetry = readFields(STORED_TELEMETRY_FIELDS, doc.telemetry, "telemetry");
  const settings: Partial<StudioState> = {
    ...(pool.value ? { pool: pool.value } : {}),
    conductor: { ...DEFAULT_CONDUCTOR, ...conductor.value },
    ...(limits.value.maxSteps ? { maxSteps: limits.value.maxSteps } : {}),
    ...(Object.keys(telemetry.value).length
      ? { telemetry: { ...DEFAULT_TELEMETRY, ...telemetry.value } }
      : {}),
  };
  const dropped = [...pool.dropped, ...conductor.dropped, ...limits.dropped, ...telemetry.dropped];
  return { settings, dropped, unreadable: null };
}

/** Reads stored settings (readSettings) without the report. */
export function loadSettings(storage: Pick<Storage, "getItem">): Partial<StudioState> {
  return readSettings(storage).settings;
}

/** The sentence the studio shows once after a load that dropped something; null when none. */
export function settingsReport(read: SettingsRead): string | null {
  if (read.unreadable) return read.unreadable;
  if (read.dropped.length === 0) return null;
  const list = read.dropped.join(", ");
  return read.dropped.length === 1
    ? `One stored setting could not be read and was reset to its default: ${list}. Every other setting was kept.`
    : `${read.dropped.length} stored settings could not be read and were reset to their defaults: ${list}. Every other setting was kept.`;
}

/** What is written: the pool and the Conductor settings, never keys nor secret header values. */
export function settingsToStore(s: StudioState): string {
  return JSON.stringify({
    version: SETTINGS_MIGRATIONS.current,
    pool: s.pool.map(redactOwner),
    conductor: s.conductor,
    maxSteps: s.maxSteps,
    // The collector's Authorization value is a secret: never stored.
    telemetry: {
      collectorURL: s.telemetry.collectorURL,
      content: s.telemetry.content,
      protocol: s.telemetry.protocol,
      conventions: s.telemetry.conventions,
    },
  });
}
