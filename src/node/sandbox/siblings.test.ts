// The confined runtime's processes share what one sandbox holds (its namespaces, and with the
// zygote the trusted process that forks each answer's): an answer that got out of Python (the
// test-only escape hook) tries every other process it can see and leaves what it can for the
// next answer. Each attempt must be refused, and the answers after it must see nothing of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import { ESCAPE_MARKER } from "./native-main.ts";
import { ESCAPE_HOOK_ENV, createNodeSandbox } from "./process.ts";

const LIMITS = { timeMs: 20_000, outputBytes: 1 << 20, memoryBytes: 1 << 30 };
const KEY = 0x5eed33;

/** Every other process this one sees: signalled, debugged, read, reniced, limited. */
const ATTACK = String.raw`
import ctypes, errno, os, signal, threading, time
libc = ctypes.CDLL(None, use_errno=True)
me = os.getpid()
others = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me]
seen = {}
def attempt(name, f):
    try:
        r = f()
        if isinstance(r, int) and r < 0:
            raise OSError(ctypes.get_errno(), "")
        seen.setdefault(name, set()).add("ok")
    except OSError as e:
        seen.setdefault(name, set()).add(errno.errorcode.get(e.errno, str(e.errno)))
class Rlim(ctypes.Structure):
    _fields_ = [("cur", ctypes.c_ulong), ("max", ctypes.c_ulong)]
tiny = Rlim(1 << 16, 1 << 16)
for pid in others:
    attempt("signal", lambda: os.kill(pid, 0))
    attempt("kill", lambda: os.kill(pid, signal.SIGKILL))
    attempt("tgkill", lambda: libc.syscall(234, pid, pid, 9))
    attempt("ptrace", lambda: libc.ptrace(16, pid, 0, 0))
    attempt("mem", lambda: open(f"/proc/{pid}/mem", "rb").read(1))
    attempt("environ", lambda: open(f"/proc/{pid}/environ", "rb").read(1))
    attempt("prlimit", lambda: libc.prlimit(pid, 9, ctypes.byref(tiny), None))
    attempt("renice", lambda: os.setpriority(os.PRIO_PROCESS, pid, 19))
    attempt("idle", lambda: os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0)))
attempt("renice-user", lambda: os.setpriority(os.PRIO_USER, os.getuid(), 19))
attempt("shm", lambda: libc.shmget(${KEY}, 4096, 0o1000 | 0o666))
attempt("msg", lambda: libc.msgget(${KEY}, 0o1000 | 0o666))
attempt("fork", os.fork)
print(len(others), " ".join(f"{k}={','.join(sorted(v))}" for k, v in sorted(seen.items())))
`;

/** What the next answer finds of the one before: its IPC objects, a process still alive. */
const PROBE = String.raw`
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
found = [n for n, r in (("shm", libc.shmget(${KEY}, 0, 0)), ("msg", libc.msgget(${KEY}, 0, 0))) if r >= 0]
print("left:", found)
`;

/** An answer that prints a token; its text never appears whole in any program here. */
const TOKEN_PY = "print(''.join(chr(ord(c) + 1) for c in 'qdrhctd,7w3pk'))";
/**
 * The next answer looks for that token in its own memory (all of it that it may read): its first
 * half, then the rest compared byte by byte, so the token never exists whole in this process.
 */
const SCAN = String.raw`
import re
half, rest = bytes(c + 1 for c in b"qdrhct"), [c + 1 for c in b"d,7w3pk"]
found = 0
for line in open("/proc/self/maps").read().splitlines():
    f = line.split()
    if "r" not in f[1] or (len(f) > 5 and f[5].startswith("[v")):
        continue
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    try:
        with open("/proc/self/mem", "rb", buffering=0) as m:
            m.seek(lo)
            data = m.read(hi - lo)
    except OSError:
        continue
    for at in (m.start() for m in re.finditer(re.escape(half), data)):
        if list(data[at + len(half):at + len(half) + len(rest)]) == rest:
            found += 1
    del data
print("found", found)
`;

const escaped = (python: string) => ESCAPE_MARKER + JSON.stringify({ python, js: "" });

let sandbox: Sandbox;
beforeAll(async () => {
  process.env[ESCAPE_HOOK_ENV] = "1";
  // one slot: every answer runs after the attack in the same sandbox
  sandbox = createNodeSandbox({ size: 1 });
  await sandbox.warm();
}, 60_000);
afterAll(() => {
  sandbox.dispose();
  delete process.env[ESCAPE_HOOK_ENV];
});

describe("an escaped answer and the processes beside it", { timeout: 60_000 }, () => {
  it("signals, debugs, reads, renices and limits none of them, and leaves nothing behind", async () => {
    const r = await sandbox.run({ mode: "stdio", code: escaped(ATTACK), stdin: "" }, LIMITS);
    const out = r.ok ? r.outcome.stdout.trim() : r.message;
    const [count, ...results] = out.split(" ");
    // It saw someone to attack (the zygote, the namespace's init).
    expect(Number(count), out).toBeGreaterThanOrEqual(1);
    const outcome = Object.fromEntries(results.map((x) => x.split("=") as [string, string]));
    expect(outcome).toEqual({
      signal: "EPERM",
      kill: "EPERM",
      tgkill: "EPERM",
      ptrace: "EPERM",
      mem: "EACCES",
      environ: "EACCES",
      prlimit: "EPERM",
      renice: "EPERM",
      idle: "EPERM",
      "renice-user": "EPERM",
      shm: "EPERM",
      msg: "EPERM",
      fork: "ENOSYS",
    });
    const probe = await sandbox.run({ mode: "stdio", code: escaped(PROBE), stdin: "" }, LIMITS);
    expect(probe.ok && probe.outcome.stdout).toBe("left: []\n");
    const honest = await sandbox.run({ mode: "stdio", code: "print(6 * 7)", stdin: "" }, LIMITS);
    expect(honest).toMatchObject({ ok: true, outcome: { status: "ok", stdout: "42\n" } });
  });

  it("finds nothing in its own memory of what the answer before it ran or printed", async () => {
    const first = await sandbox.run({ mode: "stdio", code: TOKEN_PY, stdin: "" }, LIMITS);
    expect(first.ok && first.outcome.stdout).toBe("residue-8x4ql\n");
    const scan = await sandbox.run({ mode: "stdio", code: escaped(SCAN), stdin: "" }, LIMITS);
    expect(scan.ok && scan.outcome.stdout).toBe("found 0\n");
  });
});
