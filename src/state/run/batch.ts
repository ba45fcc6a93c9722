/**
 * Collects items and hands them over once per animation frame, so a burst of streamed deltas from
 * several steps becomes one store update per frame instead of one per token.
 */
export function createBatcher<T>(
  apply: (items: T[]) => void,
  schedule: (flush: () => void) => void = (f) => {
    if (typeof requestAnimationFrame === "function") requestAnimationFrame(f);
    else setTimeout(f, 16);
  },
) {
  let buffer: T[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!buffer.length) return;
    const items = buffer;
    buffer = [];
    apply(items);
  };
  return {
    push(item: T) {
      buffer.push(item);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    /** Applies whatever is pending now (at the end of a run, so nothing waits for a frame). */
    flush,
  };
}
