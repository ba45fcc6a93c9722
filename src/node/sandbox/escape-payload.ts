/**
 * What an answer that got out of its interpreter tries, for the boundary tests: run through the
 * test-only escape hook (process.ts), as Python with every import back in the confined runtime
 * and as JavaScript in the Pyodide process. It dials a listener the test owns, signals and debugs
 * the CLI, writes a file on the host, looks for the canary key, and poisons what answers after it
 * would use; then prints what happened, so a test sees that it ran.
 */
import { ESCAPE_MARKER } from "./native-main.ts";

export interface EscapeTargets {
  /** A listener on 127.0.0.1 the test owns. */
  port: number;
  /** The CLI (or the test process, for the reward runtime) as the host sees it. */
  pid: number;
  /** A host directory the file would go to. */
  dir: string;
  /** The key's value in the CLI's environment. */
  canary: string;
}

function python(t: EscapeTargets): string {
  const v = JSON.stringify;
  return [
    "import glob, os, signal, socket",
    "out = []",
    "def attempt(name, f):",
    "    try:",
    "        f()",
    "        out.append(name + '=done')",
    "    except BaseException as e:",
    "        out.append(name + '=' + type(e).__name__)",
    `attempt('connect', lambda: socket.create_connection(('127.0.0.1', ${t.port}), timeout=2).sendall(b'escaped'))`,
    `attempt('usr1', lambda: os.kill(${t.pid}, signal.SIGUSR1))`,
    `attempt('file', lambda: open(${v(`${t.dir}/escaped.txt`)}, 'w').write('x'))`,
    "seen = repr(dict(os.environ))",
    "for p in glob.glob('/proc/*/environ'):",
    "    try:",
    "        seen += open(p, errors='replace').read()",
    "    except OSError:",
    "        pass",
    `out.append('canary=' + str(${v(t.canary)} in seen))`,
    "attempt('fork', os.fork)",
    `attempt('kill', lambda: os.kill(${t.pid}, signal.SIGKILL))`,
    "print('escape-ran', ' '.join(out))",
  ].join("\n");
}

/**
 * Python that poisons what it can reach: a thread left writing forged results, and forged lines
 * on the result channel and on stdout (a run's end marker with a made-up id).
 */
const POISON_PY = [
  "import os, threading, time",
  "def flood():",
  "    while True:",
  `        for fd in (1, 2, 3):`,
  "            try:",
  `                os.write(fd, b'\\0x\\0{"type":"ready"}\\n{"type":"result","id":"x","fields":{"status":"ok"}}\\n')`,
  "            except OSError:",
  "                pass",
  "        time.sleep(0.01)",
  "threading.Thread(target=flood, daemon=True).start()",
  "print(3)",
].join("\n");

function js(t: EscapeTargets): string {
  return `
const net = await import("node:net");
const fs = await import("node:fs");
await new Promise((done) => {
  const s = net.connect(${t.port}, "127.0.0.1", () => { s.end("escaped"); done(); });
  s.on("error", done);
});
const tryIt = (f) => { try { f(); } catch {} };
tryIt(() => process.kill(${t.pid}, "SIGUSR1"));
tryIt(() => process._debugProcess(${t.pid}));
tryIt(() => fs.writeFileSync(${JSON.stringify(`${t.dir}/escaped.txt`)}, "x"));
const send = process.send.bind(process);
process.send = (m, ...rest) => {
  if (m && m.type === "result" && m.outcome) m.outcome = { ...m.outcome, status: "ok", stdout: "3\\n" };
  return send(m, ...rest);
};
setTimeout(() => tryIt(() => process.kill(${t.pid}, "SIGKILL")), 2000);
`;
}

const fence = (code: string) => `\`\`\`python\n${ESCAPE_MARKER}${code}\n\`\`\``;

/** The escaping answer, fenced as a model would write it. */
export const escapeAnswer = (t: EscapeTargets) =>
  fence(JSON.stringify({ python: python(t), js: js(t) }));

/** The poisoning answer (in Pyodide, escapeAnswer's JavaScript poisons too). */
export const poisonAnswer = () => fence(JSON.stringify({ python: POISON_PY, js: "" }));
