/**
 * The script a confined `python3` runs (native.ts): the same harness as Pyodide's (HARNESS_PY,
 * so the verdict rules and the exact-type encoding are one code), and a loop that serves one
 * answer's tests, one request line at a time. The process is never given a second answer.
 *
 * Descriptors, as native.ts opens them: 0 requests in, 3 results out, 1 and 2 the program's
 * stdout and stderr (through pipes relayed by two threads), read and counted by the host (the output limit holds there, whatever path
 * the program writes by). Each test gets a fresh pipe as fd 0 holding its input, and ends with a
 * marker (NUL, the run id, NUL) on fd 1 and fd 2, so the host knows where its output stops.
 *
 * Nothing here decides a verdict: a program can tamper with this loop, and all it reaches is
 * its own answer's results, which the host schema-checks and judges.
 */
import { HARNESS_PY } from "../../engine/eval/code/harness.ts";

/** The first line of a program that the test-only escape hook runs unguarded (process.ts). */
export const ESCAPE_MARKER = "#!sandbox-escape-test\n";

const MAIN_PY = String.raw`
import json as _j, os as _o, resource as _r, sys as _s, threading as _t, types as _ty, _imp
import importlib.machinery as _mach

_HOOK = "--escape-hook" in _s.argv
_CTL_IN = _o.fdopen(_o.dup(0), "rb")


def _write(fd, data):
    view = memoryview(data)
    while view:
        view = view[_o.write(fd, view):]


def _relay(r, sock):
    while True:
        data = _o.read(r, 65536)
        if not data:
            return
        _write(sock, data)


# The host's ends are sockets, which /dev/stdout cannot open: the program writes to real pipes,
# relayed in order (its output, then the run's marker) to the host.
def _piped(fd):
    sock = _o.dup(fd)
    r, w = _o.pipe()
    _t.Thread(target=_relay, args=(r, sock), daemon=True).start()
    return w


_OUT, _ERR = _piped(1), _piped(2)
_h = _ty.ModuleType("_conductor_harness")
exec(_HARNESS, _h.__dict__)
del _HARNESS
_r.setrlimit(_r.RLIMIT_CORE, (0, 0))
_r.setrlimit(_r.RLIMIT_FSIZE, (0, 0))
_r.setrlimit(_r.RLIMIT_NOFILE, (256, 256))
_UNGUARDED = (list(_s.meta_path), _imp.create_builtin, _mach.BuiltinImporter.find_spec)
_h._install()


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


def _escape(code):
    """The test-only hook: the program runs as an escaped one would, with every import back."""
    _s.meta_path[:], _imp.create_builtin, _mach.BuiltinImporter.find_spec = _UNGUARDED
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


_write(3, b'{"type":"ready"}\n')
_hard = None
for _line in _CTL_IN:
    _m = _j.loads(_line)
    _mem = int(_m["limits"]["memoryBytes"])
    _hard = _hard or _mem
    _r.setrlimit(_r.RLIMIT_AS, (min(_mem, _hard), _hard))
    _o.dup2(_OUT, 1)
    _o.dup2(_ERR, 2)
    _req = _m["request"]
    _stdin(_req.get("stdin", "").encode("utf-8"))
    _req["valueBytes"] = int(_m["limits"]["outputBytes"])
    if _HOOK and _req["code"].startswith(_MARKER):
        _res = _escape(_j.loads(_req["code"][len(_MARKER):])["python"])
    else:
        try:
            _res = _h.run(_j.dumps(_req))
        except BaseException as e:  # the harness itself failed: this answer's verdict only
            _res = _j.dumps({"status": "crashed", "error": f"{type(e).__name__}: {e}"})
    _mark = ("\0" + _m["id"] + "\0").encode()
    _write(_OUT, _mark)
    _write(_ERR, _mark)
    _write(3, ('{"type":"result","id":' + _j.dumps(_m["id"]) + ',"fields":' + _res + "}\n").encode())
`;

/** The whole script, for `python3 -c`. */
export const NATIVE_SCRIPT =
  `_HARNESS = ${JSON.stringify(HARNESS_PY)}\n_MARKER = ${JSON.stringify(ESCAPE_MARKER)}\n` +
  MAIN_PY;
