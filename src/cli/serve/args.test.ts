import { describe, it } from "vitest";
import { main } from "../main.ts";
import { parseServeArgs } from "./args.ts";
import { isLoopback } from "./options.ts";

describe("serve options", () => {
  it("reads defaults and every option", ({ expect }) => {
    const base = parseServeArgs(["--config", "pool.json"], {});
    expect(base).toMatchObject({
      ok: true,
      settings: { host: "127.0.0.1", port: 8080, concurrency: 4, queue: 64, apiKey: undefined },
    });
    const all = parseServeArgs(
      ["--config", "p.json", "--host", "0.0.0.0", "--port", "9000", "--concurrency", "8"]
        .concat(["--queue", "3", "--api-key-env", "K", "--cors", "http://localhost:5173"])
        .concat(["--cors", "https://studio.example", "--runs", "out", "--model", "c7b"]),
      { K: "sk-server" },
    );
    expect(all).toMatchObject({
      ok: true,
      settings: {
        host: "0.0.0.0",
        port: 9000,
        concurrency: 8,
        queue: 3,
        apiKey: "sk-server",
        apiKeyEnv: "K",
        cors: ["http://localhost:5173", "https://studio.example"],
        runs: "out",
        model: "c7b",
      },
    });
  });

  it.for<[string[], string]>([
    [[], "--config FILE is required"],
    [["--config", "p", "--concurrency", "0"], "--concurrency must be an integer of at least 1"],
    [["--config", "p", "--port", "http"], "--port must be an integer"],
    [["--config", "p", "--api-key-env", "UNSET"], "UNSET: that environment variable is not set"],
    [
      ["--config", "p", "--host", "192.168.1.4"],
      "Refusing to serve on 192.168.1.4 without a server key",
    ],
    [["--config", "p", "--bogus"], "Unknown option '--bogus'"],
    [["--config", "p", "--fallback", "Checker"], "--fallback must be worker:NAME"],
    [["--config", "p", "--keepalive-ms", "0"], "--keepalive-ms must be an integer of at least 1"],
    [
      ["--config", "p", "--runs-max-bytes", "10"],
      "--runs-max-bytes must be an integer of at least 1024",
    ],
  ])("refuses %j", ([args, message], { expect }) => {
    const r = parseServeArgs(args, {});
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.message).toContain(message);
  });

  it("reads the keep-alive interval, the runs file size and the fallback worker", ({ expect }) => {
    expect(parseServeArgs(["--config", "p"], {})).toMatchObject({
      settings: { keepAliveMs: 10_000, runsMaxBytes: 256 * 1024 * 1024, fallbackWorker: undefined },
    });
    const args = ["--config", "p", "--keepalive-ms", "250", "--runs-max-bytes", "4096"];
    expect(parseServeArgs([...args, "--fallback", "worker:Solver A"], {})).toMatchObject({
      settings: { keepAliveMs: 250, runsMaxBytes: 4096, fallbackWorker: "Solver A" },
    });
  });

  it("tells loopback addresses from the rest", ({ expect }) => {
    const loop = ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "::ffff:127.0.0.1"];
    const open = ["0.0.0.0", "::", "10.0.0.2", "example.com", "::ffff:10.0.0.1"];
    expect(loop.map(isLoopback)).toEqual(loop.map(() => true));
    expect(open.map(isLoopback)).toEqual(open.map(() => false));
  });
});

describe("conductor-studio serve, in process", () => {
  const io = () => {
    const out = { stdout: "", stderr: "" };
    return {
      out,
      io: {
        stdout: (s: string) => void (out.stdout += s),
        stderr: (s: string) => void (out.stderr += s),
        readStdin: () => Promise.resolve(""),
        env: {},
      },
    };
  };

  it("is documented in serve --help", async ({ expect }) => {
    const { out, io: cli } = io();
    expect(await main(["serve", "--help"], cli)).toBe(0);
    expect(out.stdout).toMatch(/^Usage: conductor-studio serve --config FILE \[options\]/m);
    expect(out.stdout).toMatch(/^ {2}--host HOST/m);
    expect(out.stdout).toContain("conductor_trace");
  });

  it("exits 2 with a message for a config it cannot read", async ({ expect }) => {
    const { out, io: cli } = io();
    expect(await main(["serve", "--config", "/nonexistent/pool.json"], cli)).toBe(2);
    expect(out.stderr).toContain("Cannot read the config file /nonexistent/pool.json");
  });
});
