/**
 * Text a program controls (its output, exception messages, class names) shown to a person: control
 * characters and bidirectional overrides become visible escapes (`\x1b`, `\u202e`), so an answer
 * cannot hide text, rewrite a line or reorder what the reader sees. Newlines and tabs stay.
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character (but \n and \t) written as a visible escape. */
export function showControlChars(text: string): string {
  return text.replace(HIDDEN, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
