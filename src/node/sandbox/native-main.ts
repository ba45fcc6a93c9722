/**
 * The script a confined `python3` runs (native.ts): a zygote. It is trusted and runs no answer:
 * it imports the harness (HARNESS_PY, the same as Pyodide's, so the verdict rules and the
 * exact-type encoding are one code) once, then forks one relay per answer, which forks the
 * answer's process before it reads anything, then carries that answer's requests and output.
 * So the answer's process has run nothing before it, and its memory (a copy of the zygote's)
 * holds nothing an earlier answer sent or printed: that stayed in the earlier relay, which
 * exited. The next answer gets the next pair, after this one is dead and reaped.
 *
 * An answer's process, before it reads its first request: keeps only its own pipes, loads its
 * own seccomp filter (seccomp.ts childProgram, with its pid written in: no fork, no signal or
 * limit aimed at another process, no IPC object that outlives it) and is not dumpable, like the
 * zygote, so nothing in the sandbox can debug or read the memory of another process there.
 *
 * Descriptors of the zygote and its relays: 0 requests in (a line each; `{"type":"next"}` ends
 * the answer's process and its relay, and the zygote forks the next), 3 frames out: a kind byte,
 * a 4-byte length, the bytes (1 and 2 the program's stdout and stderr, 3 result lines, 4
 * "ready", 5 the answer's process exited, with how). One ordered stream: what a dead answer wrote comes before the next one's "ready".
 * In the answer's process: fd 4 its requests, 1 and 2 the program's output (pipes, read and
 * counted by the host: the output limit holds there, whatever path the program writes by), 3 its
 * result lines. Each test gets a fresh pipe as fd 0 holding its input, and ends with a marker
 * (NUL, the run id, NUL) on fd 1 and fd 2, so the host knows where its output stops.
 *
 * Nothing here decides a verdict: a program can tamper with its own process, and all it reaches
 * is its own answer's results, which the host schema-checks and judges.
 */
import { HARNESS_PY } from "../../engine/eval/code/harness.ts";
import { childFilter } from "./seccomp.ts";

/** The first line of a program that the test-only escape hook runs unguarded (process.ts). */
export const ESCAPE_MARKER = "#!sandbox-escape-test\n";

const MAIN_PY = String.raw`
import ctypes as _ct, gc as _gc, json as _j, os as _o, resource as _r, select as _sel, signal as _sig
import sys as _s, threading as _t, types as _ty, _imp
import importlib.machinery as _mach

_HOOK = "--escape-hook" in _s.argv
_libc = _ct.CDLL(None, use_errno=True)
_libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: no process here reads this one's memory
_h = _ty.ModuleType("_conductor_harness")
exec(_HARNESS, _h.__dict__)
del _HARNESS
_r.setrlimit(_r.RLIMIT_CORE, (0, 0))
_r.setrlimit(_r.RLIMIT_FSIZE, (0, 0))


class _Fprog(_ct.Structure):
    _fields_ = [("len", _ct.c_ushort), ("filter", _ct.c_void_p)]


def _write(fd, data):
    view = memoryview(data)
    while view:
        view = view[_o.write(fd, view):]


def _frame(kind, data=b""):
    _write(3, bytes([kind]) + len(data).to_bytes(4, "big") + data)


# ---- an answer's process: runs in the fork, never returns ----

def _confine():
    prog = bytearray(_FILTER)
    for at in _PID_AT:
        prog[at:at + 4] = _o.getpid().to_bytes(4, "little")
    buf = _ct.create_string_buffer(bytes(prog), len(prog))
    fp = _Fprog(len(prog) // 8, _ct.addressof(buf))
    _libc.prctl(4, 0, 0, 0, 0)
    if _libc.prctl(38, 1, 0, 0, 0) != 0 or _libc.prctl(22, 2, _ct.byref(fp), 0, 0) != 0:
        _o._exit(71)


def _pump(w, data):
    try:
        _write(w, data)
    except OSError:
        pass
    finally:
        _o.close(w)


def _stdin(data):
    r, w = _o.pipe()
    if r != 0:  # 0 itself when the last test's program closed it
        _o.dup2(r, 0)
        _o.close(r)
    if len(data) <= 32768:  # fits the pipe: no thread
        _pump(w, data)
    else:
        _t.Thread(target=_pump, args=(w, data), daemon=True).start()


def _escape(code, unguarded):
    """The test-only hook: the program runs as an escaped one would, with every import back."""
    _s.meta_path[:], _imp.create_builtin, _mach.BuiltinImporter.find_spec = unguarded
    _s.modules.pop("gc", None)
    try:
        exec(compile(code, "<escape>", "exec"), {"__name__": "__escape__"})
        return _j.dumps({"status": "ok"})
    except BaseException as e:
        return _j.dumps({"status": "runtime_error", "error": f"{type(e).__name__}: {e}"})
    finally:
        for s in (_s.stdout, _s.stderr):
            try:
                s.flush()
            except BaseException:
                pass


def _answer(fds):
    # its own pipes at 1..4 and nothing else (not the zygote's request or frame descriptors)
    high = [_o.dup(fd) for fd in fds]
    for target, fd in zip((1, 2, 3, 4), high):
        _o.dup2(fd, target)
    _o.closerange(5, 1 << 20)
    out, err = _o.dup(1), _o.dup(2)  # 5 and 6: fd 0 is still taken
    _o.close(0)
    _confine()
    _r.setrlimit(_r.RLIMIT_NOFILE, (256, 256))
    unguarded = (list(_s.meta_path), _imp.create_builtin, _mach.BuiltinImporter.find_spec)
    _h._install()
    hard = None
    for line in _o.fdopen(4, "rb"):
        m = _j.loads(line)
        mem = int(m["limits"]["memoryBytes"])
        hard = hard or mem
        _r.setrlimit(_r.RLIMIT_AS, (min(mem, hard), hard))
        _o.dup2(out, 1)
        _o.dup2(err, 2)
        req = m["request"]
        _stdin(req.get("stdin", "").encode("utf-8"))
        req["valueBytes"] = int(m["limits"]["outputBytes"])
        if _HOOK and req["code"].startswith(_MARKER):
            res = _escape(_j.loads(req["code"][len(_MARKER):])["python"], unguarded)
        else:
            try:
                res = _h.run(_j.dumps(req))
            except BaseException as e:  # the harness itself failed: this answer's verdict only
                res = _j.dumps({"status": "crashed", "error": f"{type(e).__name__}: {e}"})
        mark = ("\0" + m["id"] + "\0").encode()
        _write(out, mark)
        _write(err, mark)
        _write(3, ('{"type":"result","id":' + _j.dumps(m["id"]) + ',"fields":' + res + "}\n").encode())
    _o._exit(0)


# ---- the zygote ----

def _fork():
    ours, theirs = [], []
    for _ in range(3):  # stdout, stderr, results: the answer writes, the zygote reads
        r, w = _o.pipe()
        ours.append(r)
        theirs.append(w)
    r, w = _o.pipe()  # requests: the zygote writes
    theirs.append(r)
    _gc.freeze()  # the collector leaves the zygote's objects alone: fewer pages copied in the fork
    pid = _o.fork()
    if pid == 0:
        try:
            _answer(theirs)
        finally:
            _o._exit(70)
    for fd in theirs:
        _o.close(fd)
    _o.set_blocking(w, False)
    _frame(4)
    return {"pid": pid, "req": w, "pending": b"", "open": {ours[0]: 1, ours[1]: 2, ours[2]: 3}}


def _end(a, report):
    """Ends an answer's process (dead already, or killed now) and closes its pipes."""
    try:
        _o.kill(a["pid"], _sig.SIGKILL)
    except ProcessLookupError:
        pass
    _, status = _o.waitpid(a["pid"], 0)
    for fd in [a["req"], *a["open"]]:
        _o.close(fd)
    if report:
        sig = _o.WTERMSIG(status) if _o.WIFSIGNALED(status) else None
        how = {"signal": _sig.Signals(sig).name if sig else None, "code": _o.WEXITSTATUS(status)}
        _frame(5, _j.dumps(how).encode())


def _relay():
    """One answer's relay, a fresh fork of the zygote: it forks the answer's process before it
    reads a byte of anyone's requests or output, so neither holds what an earlier answer sent."""
    cur = _fork()
    inbox = b""
    while True:
        a = cur
        rl = [0, *(a["open"] if a else ())]
        wl = [a["req"]] if a and a["pending"] else []
        readable, writable, _ = _sel.select(rl, wl, [])
        if a and writable:
            try:
                a["pending"] = a["pending"][_o.write(a["req"], a["pending"]):]
            except BlockingIOError:
                pass
            except OSError:
                a["pending"] = b""
        for fd in readable:
            if fd == 0 or not a or fd not in a["open"]:
                continue
            data = _o.read(fd, 65536)
            if data:
                _frame(a["open"][fd], data)
            else:
                _o.close(fd)
                del a["open"][fd]
        if a and not a["open"]:  # every pipe at its end: the process is gone, or soon is
            _end(a, True)
            cur = a = None
        if 0 in readable:
            data = _o.read(0, 1 << 20)
            if not data:
                if cur:
                    _end(cur, False)
                _o._exit(3)
            inbox += data
            while b"\n" in inbox:
                line, inbox = inbox.split(b"\n", 1)
                if line == b'{"type":"next"}':
                    if cur:
                        _end(cur, False)
                    _o._exit(0)
                if cur:
                    cur["pending"] += line + b"\n"


# The zygote itself reads no request and no output: one relay at a time, each forked from here.
while True:
    _relay_pid = _o.fork()
    if _relay_pid == 0:
        try:
            _relay()
        finally:
            _o._exit(3)
    while True:  # pid 1: every orphan in the namespace is reaped here
        _p, _status = _o.waitpid(-1, 0)
        if _p == _relay_pid:
            break
    if not _o.WIFEXITED(_status) or _o.WEXITSTATUS(_status) != 0:
        break
`;

/** The whole script, for `python3 -c`. */
export function nativeScript(): string {
  const { bytes, pidOffsets } = childFilter();
  return (
    `_HARNESS = ${JSON.stringify(HARNESS_PY)}\n_MARKER = ${JSON.stringify(ESCAPE_MARKER)}\n` +
    `_FILTER = bytes.fromhex("${Buffer.from(bytes).toString("hex")}")\n_PID_AT = ${JSON.stringify(pidOffsets)}\n` +
    MAIN_PY
  );
}
