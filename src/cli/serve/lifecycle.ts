// The life of an HTTP service of the CLI (`serve`, `reward`): listen, drain on Ctrl+C, stop.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunQueue } from "./request-queue.ts";

/** A started service: where it listens, and how it stops. */
export interface RunningService {
  url: string;
  server: Server;
  /** Stops accepting, lets in-flight runs finish for `graceMs`, cancels the rest, resolves when all is closed. */
  shutdown: (graceMs?: number) => Promise<void>;
  /** Resolves once a shutdown has completed. */
  closed: Promise<void>;
}

/** How a service stops: what it queues, why runs are cancelled, what it owns besides its server. */
export interface StopSettings {
  queue: RunQueue;
  graceMs: number;
  /** The reason runs are aborted with, for services that tell their clients why. */
  abortReason?: unknown;
  /** Closes what the service owns (run log, exporter, sandbox) once the server is closed. */
  release: () => Promise<void>;
}

/**
 * The state a service's HTTP layer shares with its shutdown: the runs in flight (a shutdown past
 * its grace aborts them), the requests being answered, and whether it is draining.
 */
export class ServiceLife {
  readonly runs = new Set<AbortController>();
  readonly inFlight = new Set<Promise<void>>();
  private isDraining = false;
  /** True once a shutdown has started: requests are answered 503 "draining" from then on. */
  readonly draining = (): boolean => this.isDraining;
  /** Registers a run's controller; the returned function forgets it. */
  readonly track = (run: AbortController): (() => void) => {
    this.runs.add(run);
    return () => void this.runs.delete(run);
  };

  /**
   * Listens on `host:port` and returns the running service. Its first shutdown drains: the port
   * stays open while runs finish (/health and new requests get a 503 with Connection: close, so
   * a load balancer moves on instead of seeing refusals), what still runs after `graceMs` is
   * aborted, then everything closes. A second shutdown (a second Ctrl+C) cancels at once.
   */
  async start(
    server: Server,
    port: number,
    host: string,
    o: StopSettings,
  ): Promise<RunningService> {
    const url = await listen(server, port, host);
    const abortAll = () => this.runs.forEach((run) => run.abort(o.abortReason));
    let closedResolve: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (closedResolve = resolve));
    let shuttingDown: Promise<void> | undefined;
    const shutdownNow = async (graceMs: number): Promise<void> => {
      this.isDraining = true;
      server.closeIdleConnections();
      o.queue.close();
      const grace = setTimeout(abortAll, graceMs);
      try {
        while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
      } finally {
        clearTimeout(grace);
      }
      server.close();
      server.closeAllConnections();
      await o.release();
      closedResolve();
    };
    return {
      url,
      server,
      closed,
      shutdown(graceMs = o.graceMs) {
        if (shuttingDown) {
          abortAll();
          return shuttingDown;
        }
        shuttingDown = shutdownNow(graceMs);
        return shuttingDown;
      },
    };
  }
}

/** Listens on `host:port` and resolves with the service's URL (IPv6 addresses bracketed). */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}`;
}

/**
 * Waits until `running` has stopped: SIGINT or SIGTERM logs `onSignal`'s line and starts a
 * shutdown (a second one cancels what still runs). The handlers are removed once it has closed.
 */
export async function untilStopped(
  running: RunningService,
  log: (line: string) => void,
  onSignal: (signal: NodeJS.Signals) => string,
): Promise<void> {
  const handler = (signal: NodeJS.Signals) => {
    log(onSignal(signal));
    void running.shutdown();
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  try {
    await running.closed;
  } finally {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  }
  log("stopped");
}
