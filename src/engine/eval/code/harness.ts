/**
 * The Python side of the sandbox, installed once per interpreter. `run(request_json)` runs one
 * program in a fresh namespace and returns a JSON outcome; it never raises for the program's faults.
 *
 * While a program runs: the modules that reach JavaScript or the network (`js`, `pyodide*`,
 * sockets, ctypes) are hidden from `sys.modules` and their import is refused; `gc` is a stub
 * without the object-graph functions; stdin/stdout/stderr are in-memory streams with an output
 * budget; the working directory is a fresh scratch folder (Pyodide's in-memory file system).
 * Afterwards the interpreter is put back as it was: modules the program imported are dropped,
 * builtins, `sys.path`, streams, recursion limit and cwd are restored, the scratch folder removed.
 */
export const HARNESS_PY = String.raw`
import builtins as _builtins, io as _io, json as _json, math as _math, os as _os
import shutil as _shutil, sys as _sys, time as _time, traceback as _tb, types as _types

_DENY = frozenset({
    "js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core", "micropip",
    "socket", "_socket", "ssl", "_ssl", "select", "selectors", "ctypes", "_ctypes",
})
_SCRATCH = "/tmp/sandbox"


class _Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _DENY:
            raise ImportError(f"{name} is not available in the code sandbox", name=name)
        return None


_BLOCKER = _Blocker()
# A program's open(0) closes fd 0 when its file object goes away; reopened by _leave.
_STD_FDS = {0: ("/dev/stdin", _os.O_RDONLY), 1: ("/dev/stdout", _os.O_WRONLY), 2: ("/dev/stderr", _os.O_WRONLY)}
_MISSING = object()


class _OutputLimit(BaseException):
    pass


class _Sink(_io.RawIOBase):
    """Collects bytes against a budget shared by stdout and stderr; past it, every write raises."""

    def __init__(self, budget):
        self.parts = []
        self.budget = budget

    def writable(self):
        return True

    def write(self, b):
        n = len(b)
        if n > self.budget[0]:
            self.parts.append(bytes(b[: self.budget[0]]))
            self.budget[0] = 0
            self.budget[1] = True
            raise _OutputLimit()
        self.budget[0] -= n
        self.parts.append(bytes(b))
        return n

    def text(self):
        return b"".join(self.parts).decode("utf-8", "replace")


def _stream(sink):
    return _io.TextIOWrapper(_io.BufferedWriter(sink, 8192), encoding="utf-8", errors="backslashreplace")


def _gc_stub():
    m = _types.ModuleType("gc")
    state = {"on": True}
    m.enable = lambda: state.update(on=True)
    m.disable = lambda: state.update(on=False)
    m.isenabled = lambda: state["on"]
    m.collect = lambda generation=2: 0
    m.freeze = lambda: None
    return m


def _enter(stdin, budget):
    saved = {
        "hidden": {k: _sys.modules.pop(k) for k in list(_sys.modules) if k.split(".")[0] in _DENY},
        "gc": _sys.modules.get("gc"),
        "meta_path": list(_sys.meta_path),
        "path": list(_sys.path),
        "builtins": dict(_builtins.__dict__),
        "streams": (_sys.stdin, _sys.stdout, _sys.stderr),
        "cwd": _os.getcwd(),
        "recursion": _sys.getrecursionlimit(),
    }
    _sys.modules["gc"] = _gc_stub()
    saved["modules"] = set(_sys.modules)
    # Module globals the program may overwrite (json.loads = ...); restored key by key afterwards.
    saved["dicts"] = [(m.__dict__, dict(m.__dict__)) for m in list(_sys.modules.values()) if m is not None and m is not _builtins]
    # Pyodide's own finders (JsFinder) resolve "js"; only the standard ones stay.
    _sys.meta_path[:] = [_BLOCKER] + [f for f in saved["meta_path"] if not getattr(f, "__module__", "").startswith("_pyodide")]
    out, err = _Sink(budget), _Sink(budget)
    _sys.stdin = _io.TextIOWrapper(_io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    _sys.stdout, _sys.stderr = _stream(out), _stream(err)
    _shutil.rmtree(_SCRATCH, ignore_errors=True)
    _os.makedirs(_SCRATCH + "/work", exist_ok=True)
    _os.chdir(_SCRATCH + "/work")
    return saved, out, err


def _leave(saved):
    for s in (_sys.stdout, _sys.stderr):
        try:
            s.flush()
        except BaseException:
            pass
    _sys.settrace(None)
    _sys.setprofile(None)
    for k in set(_sys.modules) - saved["modules"]:
        del _sys.modules[k]
    if saved["gc"] is None:
        _sys.modules.pop("gc", None)
    else:
        _sys.modules["gc"] = saved["gc"]
    _sys.modules.update(saved["hidden"])
    _sys.meta_path[:] = saved["meta_path"]
    _sys.path[:] = saved["path"]
    _builtins.__dict__.clear()
    _builtins.__dict__.update(saved["builtins"])
    for d, snap in saved["dicts"]:
        for k in [k for k in d if k not in snap]:
            del d[k]
        for k, v in snap.items():
            if d.get(k, _MISSING) is not v:
                d[k] = v
    for fd, (dev, flags) in _STD_FDS.items():
        try:
            _os.fstat(fd)
        except OSError:
            got = _os.open(dev, flags)  # the lowest free descriptor: fd itself
            if got != fd:
                _os.dup2(got, fd)
                _os.close(got)
    _sys.stdin, _sys.stdout, _sys.stderr = saved["streams"]
    _os.chdir(saved["cwd"])
    _shutil.rmtree(_SCRATCH, ignore_errors=True)
    _sys.setrecursionlimit(saved["recursion"])


def _cut(s, n=2000):
    return s if len(s) <= n else s[:n] + f"… ({len(s) - n} more characters)"


def _equal(a, b):
    if isinstance(b, bool) or isinstance(a, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, float) or isinstance(b, float):
            return _math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
        return a == b
    if isinstance(b, list):
        if isinstance(a, (set, frozenset)):
            try:
                a = sorted(a)
                b = sorted(b)
            except TypeError:
                return False
        if not isinstance(a, (list, tuple)) or len(a) != len(b):
            return False
        return all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(b, dict):
        if not isinstance(a, dict) or len(a) != len(b):
            return False
        by_key = {str(k): v for k, v in a.items()}
        return all(k in by_key and _equal(by_key[k], v) for k, v in b.items())
    return a == b


def _resolve(ns, name):
    head, _, method = name.partition(".")
    target = ns.get(head)
    if target is None:
        raise NameError(f"the program defines no '{head}'")
    if method:
        target = getattr(target(), method)
    return target


def _last_line(e):
    return "".join(_tb.format_exception_only(type(e), e)).strip().splitlines()[-1]


def run(request_json):
    req = _json.loads(request_json)
    budget = [req["outputBytes"], False]
    saved, out, err = _enter(req.get("stdin", ""), budget)
    result = {"status": "ok"}
    t0 = _time.perf_counter()
    try:
        try:
            code = compile(req["code"], "<program>", "exec")
        except (SyntaxError, ValueError) as e:
            result = {"status": "syntax_error", "error": _last_line(e)}
        else:
            function = req["mode"] == "function"
            ns = {"__name__": "__solution__" if function else "__main__", "__builtins__": _builtins}
            try:
                try:
                    exec(code, ns)
                except SystemExit as e:
                    if e.code not in (None, 0):
                        raise
                if function:
                    value = _resolve(ns, req["name"])(*_json.loads(req["argsJson"]))
                    result["passed"] = _equal(value, _json.loads(req["expectedJson"]))
                    result["actual"] = _cut(repr(value), 1000)
            except _OutputLimit:
                result = {"status": "output_limit"}
            except MemoryError:
                result = {"status": "memory_limit", "error": "MemoryError"}
            except SystemExit as e:
                result = {"status": "runtime_error", "error": f"SystemExit: {e.code}"}
            except BaseException as e:
                result = {"status": "runtime_error", "error": _last_line(e)}
                try:
                    _tb.print_exception(type(e), e, e.__traceback__.tb_next, file=_sys.stderr)
                except BaseException:
                    pass
    finally:
        elapsed = (_time.perf_counter() - t0) * 1000
        _leave(saved)
    if budget[1]:
        result = {"status": "output_limit"}
    result["stdout"] = out.text()
    result["stderr"] = _cut(err.text())
    result["timeMs"] = elapsed
    return _json.dumps(result)
`;
