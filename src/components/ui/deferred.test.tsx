// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { deferred } from "./deferred.tsx";

afterEach(cleanup);

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

/** A loader the test resolves or rejects by hand. */
function gate() {
  let open: (c: typeof Hello) => void = () => undefined;
  let fail: (e: Error) => void = () => undefined;
  let calls = 0;
  const load = () => {
    calls++;
    return new Promise<typeof Hello>((res, rej) => {
      open = res;
      fail = rej;
    });
  };
  return {
    load,
    open: () => open(Hello),
    fail: () => fail(new Error("chunk gone")),
    calls: () => calls,
  };
}

describe("deferred", () => {
  it("shows the fallback, then the component with its props, without suspending", async () => {
    const g = gate();
    const D = deferred(g.load, <p>Loading…</p>);
    render(<D.Component name="Ada" />);
    expect(screen.getByText("Loading…")).toBeTruthy();
    await act(async () => {
      g.open();
      await Promise.resolve();
    });
    expect(screen.getByText("Hello Ada")).toBeTruthy();
    // Once loaded, a new mount shows it at once, with no second load.
    cleanup();
    render(<D.Component name="Grace" />);
    expect(screen.getByText("Hello Grace")).toBeTruthy();
    expect(g.calls()).toBe(1);
  });

  it("preload starts the load once; a failed load says to reload and is tried again next time", async () => {
    const g = gate();
    const D = deferred(g.load);
    D.preload();
    D.preload();
    expect(g.calls()).toBe(1);
    render(<D.Component name="Ada" />);
    await act(async () => {
      g.fail();
      await Promise.resolve();
    });
    expect(screen.getByRole("alert").textContent).toContain("reload the page");
    cleanup();
    render(<D.Component name="Ada" />);
    expect(g.calls()).toBe(2);
    await act(async () => {
      g.open();
      await Promise.resolve();
    });
    expect(screen.getByText("Hello Ada")).toBeTruthy();
  });
});
