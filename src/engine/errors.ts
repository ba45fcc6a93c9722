import { z } from "zod";

/**
 * One table of coded, user-facing messages. Expected failures travel as values carrying one of these
 * codes; exceptions are reserved for bugs.
 */
export const ERROR_MESSAGES = {
  // Conductor output (docs/protocol.md §1.3)
  missing_list: "The Conductor's output has no parseable list for",
  unparseable_list: "A list in the Conductor's output could not be read:",
  length_mismatch: "The three lists have different lengths:",
  no_steps: "The Conductor wrote an empty workflow; at least one step is needed.",
  too_many_steps: "The workflow has more steps than the cap:",
  bad_worker: "A model id is not a worker in the pool:",
  missing_worker: "A step's worker is not in the pool:",
  bad_access: 'An access entry must be "all", [] or a list of earlier step indices:',
  empty_subtask: "A subtask is empty:",
  repetition_loop:
    "The Conductor's output fell into a repetition loop, so it was stopped. Retry (perhaps with a higher temperature) or build the workflow by hand:",
  // Model calls
  auth: "The endpoint refused the API key (401/403). Check the key for this worker.",
  not_found:
    "The endpoint does not know this model or path (404). Check the base URL and model name.",
  rate_limited: "The endpoint is rate limiting requests (429). Wait a little or lower concurrency.",
  server: "The endpoint had a server error (5xx).",
  bad_request: "The endpoint rejected the request (400).",
  request_too_large:
    "The request is too large for the endpoint (413). Shorten the question or the step's inputs.",
  context_length:
    "The request is longer than the model's context window. Shorten the question or the step's inputs.",
  network: "The endpoint could not be reached (network error, CORS refusal or server down).",
  dropped: "The connection dropped before the answer was complete.",
  timeout: "The model call took longer than the timeout.",
  aborted: "Cancelled.",
  empty_response: "The model returned an empty response.",
  budget: "The run reached its budget of model calls.",
  no_conductor: "Planning needs the Conductor, and none is configured.",
  grammar_refused: "The Conductor's server refused the plan grammar:",
  grammar_failed: "The plan grammar could not be compiled, so the plan was written unconstrained:",
  prompt_too_long: "The Conductor's prompt does not fit its context window:",
  upstream_failed: "This step was not run because a step it reads failed:",
  unknown: "An unexpected error occurred.",
  // Graph editing
  edge_refused: "That edge cannot be drawn:",
  move_refused: "That step cannot move there:",
  unknown_step: "The workflow has no such step; it may have been deleted.",
  // Files and configuration
  bad_json: "The file is not valid JSON.",
  bad_format: "The file is not a Conductor Studio export.",
  newer_version: "The file was written by a newer version of Conductor Studio.",
  invalid_file: "The file does not match the export format:",
  invalid_config: "The configuration is invalid:",
  missing_key: "An API key environment variable is not set:",
  invalid_argument: "An option or value is not valid:",
  unreadable_file: "A file could not be read:",
  invalid_dataset: "A data set's rows could not be read:",
  invalid_scorer: "The scorer cannot be built:",
  invalid_url: "The address is not usable:",
  traces_not_sent: "The traces could not be sent:",
  // Stored runs (IndexedDB)
  storage_full:
    "This browser has no room left to store runs (storage quota exceeded). Delete or export old runs in History, then try again; nothing was half-written.",
  storage_unavailable: "This browser's storage (IndexedDB) could not be used:",
  stored_invalid: "A stored run could not be read:",
  cache_full:
    "This browser has no room left for the response cache (storage quota exceeded): the answers that did not fit were simply not cached, and the evaluation went on. Clear the cache (Evaluate, Response cache) or delete old runs in History.",
  // In-browser model (WebLLM on WebGPU)
  webgpu_unavailable: "WebGPU is not available in this browser.",
  no_gpu_adapter: "WebGPU found no compatible GPU on this computer.",
  gpu_unsupported: "This GPU lacks a WebGPU feature or limit the in-browser model needs.",
  no_shader_f16:
    "This GPU does not support 16-bit shaders (shader-f16), which this model build needs.",
  gpu_device_lost: "The GPU ran out of memory or was reset while running the in-browser model.",
  storage_quota: "The browser has no room left to store the model (storage quota exceeded).",
  model_download: "The model files could not be downloaded.",
  model_files: "The model's files are not a valid MLC model for WebLLM.",
  model_lib: "The model library (WebAssembly) could not be loaded.",
  model_unknown: "The in-browser model is neither in the catalogue nor a custom record:",
  model_not_loaded: "The in-browser model is not loaded yet.",
  invalid_model_url: "The model weights URL is not one WebLLM can use:",
  invalid_model_lib: "The model library URL is not one WebLLM can use:",
  invalid_model_id: "The custom model id is not usable:",
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** Each key of a table named by itself: the table's codes as members (`ErrorCode.aborted`). */
function namesOf<T extends Record<string, unknown>>(table: T): { readonly [K in keyof T]: K } {
  return Object.fromEntries(Object.keys(table).map((k) => [k, k])) as { [K in keyof T]: K };
}

/**
 * The table's codes by name, so code compares `ErrorCode.aborted` rather than a bare string; the
 * wire and stored form stays the string itself.
 */
export const ErrorCode = namesOf(ERROR_MESSAGES);

/** Whether a code read from stored data is one of the table's (older records may hold others). */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_MESSAGES, code);
}

/**
 * The codes of a Conductor output that came back but is not a usable plan (docs/protocol.md §1.3),
 * as opposed to a call that failed: asking again may help, and an evaluation scores such a plan
 * wrong.
 */
const PLAN_OUTPUT_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  ErrorCode.missing_list,
  ErrorCode.unparseable_list,
  ErrorCode.length_mismatch,
  ErrorCode.no_steps,
  ErrorCode.too_many_steps,
  ErrorCode.bad_worker,
  ErrorCode.missing_worker,
  ErrorCode.bad_access,
  ErrorCode.empty_subtask,
  ErrorCode.repetition_loop,
]);

/** True for a code (perhaps read from stored data) of an output that is not a usable plan. */
export function isPlanOutputError(code: string): boolean {
  return isErrorCode(code) && PLAN_OUTPUT_CODES.has(code);
}

/**
 * Why a run ended (a run_finish's `reason`), each with the one sentence a user reads (studio and
 * CLI alike): it was only planned; the Conductor accepted an answer; the cap on rounds, or no
 * rounds, ended it; a plan or a step failed; it was cancelled; the call budget ran out; no
 * Conductor was configured for a run that needs one; it could not start (`setup_error`: a strategy
 * names a worker the pool lacks).
 */
export const ENDING_TEXT = {
  planned: "Planned, not run yet.",
  accepted: "The Conductor accepted the answer.",
  round_cap: "Stopped at the cap on refinement rounds.",
  no_rounds: "No refinement rounds.",
  plan_error: "The Conductor's plan could not be used.",
  step_error: "A step failed: retry it or edit the workflow.",
  cancelled: "The run was cancelled.",
  budget: ERROR_MESSAGES.budget,
  no_conductor: ERROR_MESSAGES.no_conductor,
  setup_error: "The run could not start.",
} as const;

export type EndReason = keyof typeof ENDING_TEXT;

/** The end reasons by name (`EndReason.budget`); stored and exported as the same strings. */
export const EndReason = namesOf(ENDING_TEXT);

export const EndReasonSchema = z.enum(EndReason);

/** A stored record's end reason as one of the enum, or null (none yet, or one this app does not know). */
export function endReasonOf(reason: string | null): EndReason | null {
  const parsed = EndReasonSchema.safeParse(reason);
  return parsed.success ? parsed.data : null;
}

/** A failure as a value: a stable code and a message meant for the user. */
export interface Failure {
  code: ErrorCode;
  message: string;
}

/** Builds a failure whose message starts with the table's text, followed by the specific detail. */
export function failure(code: ErrorCode, detail?: string): Failure {
  const base = ERROR_MESSAGES[code];
  return { code, message: detail ? `${base} ${detail}` : base };
}

/** A failure whose code is one of `Code` (by default any code of the table). */
export interface FailureOf<Code extends ErrorCode> {
  code: Code;
  message: string;
}

/**
 * The one shape of a result that can fail: its value's fields with `ok: true`, or a coded failure.
 * `Code` narrows the codes a caller must handle.
 */
export type Result<T, Code extends ErrorCode = ErrorCode> =
  ({ ok: true } & T) | ({ ok: false } & FailureOf<Code>);
