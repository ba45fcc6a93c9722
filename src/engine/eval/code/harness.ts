/**
 * The Python side of the sandbox, installed in every fresh interpreter. It holds nothing that
 * decides a verdict: no expected value and no comparison ever enter the interpreter. `run` runs
 * one program in a fresh namespace and returns plain data as JSON: how it ended and, for a
 * function test, the returned value encoded from exact built-in types only (value.ts decodes
 * and compares it in the engine). Output is not collected here: every write to a file descriptor
 * reaches the JavaScript side, which counts it against the output limit (runtime.ts).
 *
 * The interpreter is thrown away after the answer, so nothing here restores state; the import
 * guard (`_install`, called once the interpreter is made from the snapshot) only keeps Pyodide's
 * ways into JavaScript out of reach.
 */
export const HARNESS_PY = String.raw`
import builtins as _builtins, io as _io, json as _json, math as _math, os as _os, sys as _sys
import traceback as _tb, types as _types

_DENY = frozenset({
    "js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core", "micropip",
    "socket", "_socket", "ssl", "_ssl", "select", "selectors", "ctypes", "_ctypes",
})
# A native CPython in the Linux sandbox has no socket to wait on (the kernel refuses them);
# subprocess needs select there to fail the way it fails in Pyodide, with OSError.
if _sys.platform != "emscripten":
    _DENY = _DENY - {"select", "selectors"}


class _Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _DENY:
            raise ImportError(f"{name} is not available in the code sandbox", name=name)
        return None


def _gc_stub():
    m = _types.ModuleType("gc")
    state = {"on": True}
    m.enable = lambda: state.update(on=True)
    m.disable = lambda: state.update(on=False)
    m.isenabled = lambda: state["on"]
    m.collect = lambda generation=2: 0
    m.freeze = lambda: None
    return m


def _install():
    for k in [k for k in _sys.modules if k.split(".")[0] in _DENY]:
        del _sys.modules[k]
    _sys.modules["gc"] = _gc_stub()
    # Pyodide's own finders (JsFinder) resolve "js"; only the standard ones stay.
    # BuiltinImporter would still make _pyodide_core (and the real gc) on request.
    import _imp

    def create_builtin(spec, _create=_imp.create_builtin):
        if spec.name.split(".")[0] in _DENY or spec.name == "gc":
            raise ImportError(f"{spec.name} is not available in the code sandbox", name=spec.name)
        return _create(spec)

    _imp.create_builtin = create_builtin
    # A native CPython finds no spec for Pyodide's modules; asking is refused the same way.
    import importlib.machinery as _machinery

    _find = _machinery.BuiltinImporter.find_spec

    def find_spec(cls, name, path=None, target=None):
        if name.split(".")[0] in _DENY:
            raise ImportError(f"{name} is not available in the code sandbox", name=name)
        return _find(name, path, target)

    _machinery.BuiltinImporter.find_spec = classmethod(find_spec)
    _sys.meta_path[:] = [_Blocker()] + [
        f for f in _sys.meta_path if not getattr(f, "__module__", "").startswith("_pyodide")
    ]


_PLAIN = (int, float, str, bool, type(None), list, tuple, dict, set, frozenset)


class _NotPlain(Exception):
    pass


def _kind(v):
    t = type(v)
    for base in _PLAIN:
        if isinstance(v, base) and t is not base:
            return f"an instance of {t.__name__}, a subclass of {base.__name__}"
    return f"an instance of {t.__name__}"


def _encode(v, depth=0, exact=False):
    """Tagged JSON of exact built-in types; anything else (a subclass, a custom class) refused.
    exact: a dict key that is not a str is written tagged too, so that it decodes to its own type."""
    if depth > 200:
        raise _NotPlain("a value nested more than 200 levels deep")
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is int:
        return {"int": _unlimited(str, v)}
    if t is float:
        return {"float": v if _math.isfinite(v) else repr(v)}
    if t is list:
        return [_encode(x, depth + 1, exact) for x in v]
    if t is tuple:
        return {"tuple": [_encode(x, depth + 1, exact) for x in v]}
    if t is set or t is frozenset:
        return {"set": [_encode(x, depth + 1, exact) for x in v]}
    if t is dict:
        pairs = []
        for k, x in v.items():
            if exact and type(k) is not str:
                pairs.append([_encode(k, depth + 1, exact), _encode(x, depth + 1, exact)])
                continue
            if type(k) not in (int, float, str, bool, type(None)):
                raise _NotPlain(f"a dict key that is {_kind(k)}")
            pairs.append([str(k), _encode(x, depth + 1, exact)])
        return {"dict": pairs}
    raise _NotPlain(_kind(v))


def _decode(v):
    """The inverse of _encode(exact=True): arguments passed with their exact types (tuples, sets,
    dict keys, ints of any size)."""
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is list:
        return [_decode(x) for x in v]
    if t is dict and len(v) == 1:
        ((tag, x),) = v.items()
        if tag == "int" and type(x) is str:
            return _unlimited(int, x)
        if tag == "float" and type(x) in (int, float, str):
            return float(x)
        if tag == "tuple" and type(x) is list:
            return tuple(_decode(y) for y in x)
        if tag == "set" and type(x) is list:
            return {_decode(y) for y in x}
        if tag == "dict" and type(x) is list:
            return {_decode(k): _decode(y) for k, y in x}
    raise ValueError("the arguments are not tagged values")


def _unlimited(f, *args):
    """f(*args) with no limit on int digits: ints of any size are exact both ways (the tests hold
    values past 2**53, and a program may have lowered the limit)."""
    limit = _sys.get_int_max_str_digits()
    _sys.set_int_max_str_digits(0)
    try:
        return f(*args)
    finally:
        _sys.set_int_max_str_digits(limit)


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


def _cut(s, n=1000):
    return s if len(s) <= n else s[:n] + f"… ({len(s) - n} more characters)"


def _fd_stream(fd):
    raw = _io.FileIO(fd, "w", closefd=False)
    return _io.TextIOWrapper(_io.BufferedWriter(raw, 8192), encoding="utf-8", errors="backslashreplace")


# A program's open(0) closes fd 0 when its file object goes away; the next test reopens it.
_STD_FDS = {0: ("/dev/stdin", _os.O_RDONLY), 1: ("/dev/stdout", _os.O_WRONLY), 2: ("/dev/stderr", _os.O_WRONLY)}


def _reopen_std_fds():
    for fd, (dev, flags) in _STD_FDS.items():
        try:
            _os.fstat(fd)
        except OSError:
            got = _os.open(dev, flags)  # the lowest free descriptor: fd itself
            if got != fd:
                _os.dup2(got, fd)
                _os.close(got)


def run(request_json):
    req = _json.loads(request_json)
    _reopen_std_fds()
    _sys.stdin = _io.TextIOWrapper(_io.BytesIO(req.get("stdin", "").encode("utf-8")), encoding="utf-8")
    _sys.stdout, _sys.stderr = _fd_stream(1), _fd_stream(2)
    result = {"status": "ok"}
    try:
        code = compile(req["code"], "<program>", "exec")
    except (SyntaxError, ValueError) as e:
        return _json.dumps({"status": "syntax_error", "error": _last_line(e)})
    function = req["mode"] == "function"
    ns = {"__name__": "__solution__" if function else "__main__", "__builtins__": _builtins}
    try:
        try:
            exec(code, ns)
        except SystemExit as e:
            if e.code not in (None, 0):
                raise
        if function:
            args = _unlimited(_json.loads, req["argsJson"])
            exact = bool(req.get("exact"))
            value = _resolve(ns, req["name"])(*(_decode(args) if exact else args))
            try:
                result["value"] = _encode(value, 0, exact)
                # A returned value counts against the output limit like printed text.
                size = len(_unlimited(_json.dumps, result["value"]))
                if size > req.get("valueBytes", size):
                    result = {"status": "output_limit", "error": f"the returned value is {size} bytes of JSON"}
                else:
                    result["repr"] = _cut(_unlimited(repr, value))
            except _NotPlain as e:
                result["notPlain"] = str(e)
    except MemoryError:
        result = {"status": "memory_limit", "error": "MemoryError"}
    except RecursionError as e:
        result = {"status": "runtime_error", "error": _last_line(e)}
    except SystemExit as e:
        result = {"status": "runtime_error", "error": f"SystemExit: {e.code}"}
    except BaseException as e:
        result = {"status": "runtime_error", "error": _last_line(e)}
        try:
            _tb.print_exception(type(e), e, e.__traceback__.tb_next, file=_sys.stderr)
        except BaseException:
            pass
    for s in (_sys.stdout, _sys.stderr):
        try:
            s.flush()
        except BaseException:
            pass
    return _json.dumps(result)
`;
