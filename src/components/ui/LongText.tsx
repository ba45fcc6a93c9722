import { useEffect, useMemo, useState } from "react";

/** Characters per piece: one piece is cheap to lay out. */
export const PIECE_CHARS = 32_000;
/** Pieces added per task while a long text is being shown. */
const PIECES_PER_TASK = 4;

/** `text` in pieces of about `size` characters, cut after a line break where one is near. */
export function piecesOf(text: string, size = PIECE_CHARS): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + size);
    if (end < text.length) {
      const nl = text.lastIndexOf("\n", end);
      if (nl > at + size / 2) end = nl + 1;
    }
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/**
 * A long text as plain text, added a few pieces per task so that even megabytes never block the
 * page; pieces off screen skip layout (content-visibility).
 */
export function LongText({ text }: { text: string }) {
  const pieces = useMemo(() => piecesOf(text), [text]);
  const [shown, setShown] = useState(PIECES_PER_TASK);
  useEffect(() => {
    if (shown >= pieces.length) return;
    const timer = setTimeout(() => setShown((n) => n + PIECES_PER_TASK), 0);
    return () => clearTimeout(timer);
  }, [shown, pieces.length]);
  return (
    <div className="long-text" data-testid="long-text" data-complete={shown >= pieces.length}>
      {pieces.slice(0, shown).map((p, i) => (
        <pre key={i} className="long-text-piece">
          {p}
        </pre>
      ))}
    </div>
  );
}
