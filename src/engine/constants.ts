/**
 * The defaults and limits that the studio, the CLI and the engine share: one place, so a change
 * reaches every entry point. (Wording and error texts live in errors.ts; schemas in schema/.)
 */

/**
 * The paper's step cap: a workflow has at most this many steps unless set otherwise
 * (docs/protocol.md §1.1).
 */
export const DEFAULT_MAX_STEPS = 5;
/** The largest step cap any setting, config or command accepts. */
export const MAX_STEPS_CAP = 20;

/** Refinement rounds after the first (docs/protocol.md §1.6): none unless asked for. */
export const DEFAULT_ROUNDS = 0;
/**
 * The most refinement rounds a setting accepts, in the studio, the CLI and an evaluation's
 * strategies alike. 5, not the studio's former 3: the CLI and evaluations already accepted 5, and
 * a stored setting or config file that one entry point accepts must not be refused by another.
 */
export const MAX_ROUNDS = 5;

/**
 * Levels of self-selection (docs/protocol.md §1.6): a step given to the Conductor nests one
 * workflow.
 */
export const DEFAULT_MAX_DEPTH = 1;
/** The most nesting levels the settings offer. */
export const MAX_DEPTH = 2;

/** A step's drawn size before it is measured (layout and the record's canvas alike). */
export const DEFAULT_NODE_SIZE = { width: 280, height: 190 } as const;
