/**
 * Text that reaches the terminal from outside the CLI's control (a program's exception message or
 * class name, a model's answer) with its control characters shown, not obeyed: an escape sequence
 * could otherwise rewrite the progress lines, the window title or the clipboard.
 */
export function escapeControls(text: string): string {
  // C0 controls (tab kept), DEL and C1 controls (U+0080-U+009F: 8-bit CSI and OSC among them)
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x08\x0a-\x1f\x7f-\x9f]/g, (c) => {
    const code = c.charCodeAt(0);
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : c;
  });
}
