/**
 * Full-screen views and modal dialogs own the keyboard: while one is open, everything else on the
 * page is `inert` (no focus, no clicks, out of the accessibility tree), and the studio's global
 * shortcuts stand down (`modalOpen`). Layers stack: a key prompt over Evaluate makes Evaluate inert
 * until the prompt closes.
 */

const layers: HTMLElement[] = [];

/** Whether a modal layer is open: global shortcuts then act on nothing behind it. */
export function modalOpen(): boolean {
  return layers.length > 0;
}

/** The topmost open layer, if any: where focus goes when a layer above it closes. */
export function topLayer(): HTMLElement | undefined {
  return layers[layers.length - 1];
}

/** Whether `layer` is the topmost open layer (the one whose keys Escape and Tab are). */
export function isTopLayer(layer: HTMLElement): boolean {
  return layers[layers.length - 1] === layer;
}

/**
 * Makes everything outside `layer` inert: each sibling of `layer` and of each of its ancestors up
 * to the body. An ancestor made inert by a layer below (Settings opened from Evaluate lives in the
 * header under it) is lifted while this one is open. Returns the undo, which restores only what
 * this call changed (so stacked layers unwind in order).
 */
export function enterModalLayer(layer: HTMLElement): () => void {
  const made: HTMLElement[] = [];
  const lifted: HTMLElement[] = [];
  for (let el: HTMLElement | null = layer; el && el !== document.body; el = el.parentElement) {
    if (el.inert) {
      el.inert = false;
      lifted.push(el);
    }
    const parent: HTMLElement | null = el.parentElement;
    if (!parent) break;
    for (const sibling of Array.from(parent.children)) {
      if (sibling === el || !(sibling instanceof HTMLElement) || sibling.inert) continue;
      if (sibling.tagName === "SCRIPT" || sibling.tagName === "STYLE") continue;
      sibling.inert = true;
      made.push(sibling);
    }
  }
  layers.push(layer);
  return () => {
    layers.splice(layers.lastIndexOf(layer), 1);
    for (const el of made) el.inert = false;
    for (const el of lifted) el.inert = true;
  };
}
