import type { ComponentType, ReactNode } from "react";
import { useEffect, useState } from "react";

/**
 * A component whose code loads on first use (or earlier, with `preload`), shown without Suspense:
 * a lazy component behind a Suspense boundary waits out React's reveal throttle (about 300 ms)
 * even when its chunk arrives at once. Until the code is there, `fallback` shows; a chunk that
 * fails to load (the app was updated under an open page) says to reload, and is tried again on
 * the next mount.
 */
export function deferred<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
): { Component: ComponentType<P>; preload: () => void } {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const get = () =>
    (pending ??= load().then(
      (c) => (loaded = c),
      (e: unknown) => {
        pending = null;
        throw e;
      },
    ));
  function Component(props: P) {
    const [ready, setReady] = useState<{ c: ComponentType<P> } | null>(
      loaded ? { c: loaded } : null,
    );
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (ready) return;
      let live = true;
      get().then(
        (c) => live && setReady({ c }),
        () => live && setFailed(true),
      );
      return () => {
        live = false;
      };
    }, [ready]);
    if (ready) return <ready.c {...props} />;
    if (failed)
      return (
        <p className="muted" role="alert">
          This part of the app could not be loaded (it may have been updated): reload the page.
        </p>
      );
    return fallback;
  }
  return { Component, preload: () => void get().catch(() => undefined) };
}

/** Runs `f` once the page is idle (or after a second where the browser has no idle callback). */
export function whenIdle(f: () => void): () => void {
  if ("requestIdleCallback" in window) {
    const handle = window.requestIdleCallback(f);
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(f, 1000);
  return () => clearTimeout(timer);
}
