import type { Failure } from "../../errors.ts";
import { ErrorCode } from "../../errors.ts";
/**
 * Reads one shape of Python pickle and nothing else: a pickled `str` (what LiveCodeBench's
 * `private_test_cases` hold once base64- and zlib-decoded: `pickle.dumps(json.dumps(tests))`).
 *
 * This is not an unpickler. It walks the opcodes a string's pickle is made of under protocols 2
 * to 5 (PROTO, FRAME, one of the three binary unicode opcodes, an optional memo store, STOP) and
 * refuses every other opcode with a message naming it. No opcode is ever executed: a hostile file
 * (GLOBAL, REDUCE, BUILD, anything that calls or imports) can only be refused.
 */

export type PickledString = { ok: true; value: string } | ({ ok: false } & Failure);

const OP = {
  PROTO: 0x80,
  FRAME: 0x95,
  SHORT_BINUNICODE: 0x8c,
  BINUNICODE: 0x58, // 'X'
  BINUNICODE8: 0x8d,
  MEMOIZE: 0x94,
  BINPUT: 0x71, // 'q'
  LONG_BINPUT: 0x72, // 'r'
  STOP: 0x2e, // '.'
} as const;

const refuse = (message: string): PickledString => ({
  ok: false,
  code: ErrorCode.invalid_dataset,
  message: `not a pickled string: ${message} (only a pickled str is read; nothing else is unpickled)`,
});

/** Reads a little-endian unsigned integer of `n` bytes (n <= 8, exact up to 2^53). */
function uint(bytes: Uint8Array, at: number, n: number): number | null {
  if (at + n > bytes.length) return null;
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + (bytes[at + i] ?? 0);
  return Number.isSafeInteger(v) ? v : null;
}

/** The string a pickle of one `str` holds, or why the bytes are not exactly that. */
export function readPickledString(bytes: Uint8Array): PickledString {
  let at = 0;
  let value: string | null = null;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  while (at < bytes.length) {
    const op = bytes[at++];
    switch (op) {
      case OP.PROTO: {
        const version = bytes[at++];
        if (version === undefined || version < 2 || version > 5)
          return refuse(`pickle protocol ${String(version)}`);
        break;
      }
      case OP.FRAME:
        // A frame only announces the length of what follows; its content is read opcode by opcode.
        if (uint(bytes, at, 8) === null) return refuse("a truncated frame");
        at += 8;
        break;
      case OP.SHORT_BINUNICODE:
      case OP.BINUNICODE:
      case OP.BINUNICODE8: {
        if (value !== null) return refuse("a second value");
        const width = op === OP.SHORT_BINUNICODE ? 1 : op === OP.BINUNICODE ? 4 : 8;
        const length = uint(bytes, at, width);
        at += width;
        if (length === null || at + length > bytes.length) return refuse("a truncated string");
        try {
          value = decoder.decode(bytes.subarray(at, at + length));
        } catch {
          return refuse("a string that is not UTF-8");
        }
        at += length;
        break;
      }
      case OP.MEMOIZE:
        break;
      case OP.BINPUT:
        at += 1;
        break;
      case OP.LONG_BINPUT:
        at += 4;
        break;
      case OP.STOP:
        if (value === null) return refuse("no string before STOP");
        if (at !== bytes.length) return refuse("bytes after STOP");
        return { ok: true, value };
      case undefined:
        return refuse("it ends early");
      default:
        return refuse(`opcode 0x${op.toString(16).padStart(2, "0")} at byte ${at - 1}`);
    }
  }
  return refuse("no STOP opcode");
}
