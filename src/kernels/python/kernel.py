"""The Python kernel driver of the eval tool: runs cells of Python in one persistent namespace.

Protocol (newline-delimited JSON): commands arrive on fd 3, messages leave on fd 4, so whatever
libraries or subprocesses write to fd 1/2 at C level cannot corrupt it (the host reports those
bytes as the running cell's output). Every message begins with a line break as well as ending
with one, so bytes a cell writes to fd 4 itself end there instead of swallowing the next message;
no message is longer than MAX_MESSAGE_BYTES (the host drops longer lines). User code runs in the
main thread, so SIGINT becomes a KeyboardInterrupt in the cell; a daemon thread reads fd 3 and
hands tool results to `tool()`. When the host goes (fd 3 ends, or on Linux its death signal) the
kernel kills its own process group: what its cells started does not outlive it.
IPython idioms (%pip, %cd, !cmd, %%bash, %%timeit) are rewritten here, see `rewrite_magics`.
Standard library only; pandas and matplotlib are used only when the cell already imported them.
"""

import ast
import base64
import builtins
import codecs
import importlib
import io
import json
import linecache
import os
import platform
import queue
import shlex
import signal
import statistics
import subprocess
import sys
import sysconfig
import threading
import time
import timeit
import traceback
import types

COMMAND_FD = 3
MESSAGE_FD = 4
# Bytes of one message line, as the host reads it (src/kernels/kernelLimits.ts; a unit test holds them equal).
MAX_MESSAGE_BYTES = 8 * 1024 * 1024
# Beyond this many characters of stream text a cell's output is dropped here (and counted), so a
# flood costs the host nothing; the host keeps far less than this anyway (head and tail).
HARD_OUTPUT_LIMIT = 2_000_000
STREAM_CHUNK = 65_536
FLUSH_INTERVAL = 0.1
REPR_LIMIT = 10_000
TABLE_ROWS = 20

_DRIVER_FILE = os.path.abspath(__file__)
_MAIN_THREAD = threading.get_ident()


class ToolError(Exception):
    """A tool the cell called through `tool()` answered with an error."""


class UsageError(Exception):
    """A magic the kernel does not know or cannot parse."""


class _MessageTooLarge(Exception):
    """A message would be longer than the host reads; the caller sends something smaller instead."""

    def __init__(self, size):
        super().__init__(size)
        self.size = size


class _State:
    cell_id = None  # the host's id of the running cell, None when idle
    count = 0  # cells run, for the `<cell N>` file names
    interruptible = False  # user code is running: SIGINT raises KeyboardInterrupt
    critical = 0  # the main thread is writing a message: an interrupt waits until it is whole
    interrupt_pending = False
    idle_interrupt_at = 0.0
    emitted_figures = set()


_state = _State()
_send_lock = threading.Lock()


def _on_sigint(signum, frame):
    # Only user code is interrupted; the driver's own bookkeeping (and the `done` message) never is.
    if _state.cell_id is None:
        # The host only interrupts a cell it has sent: this one may be queued, not started yet.
        _state.idle_interrupt_at = time.monotonic()
        return
    if _state.interruptible and _state.critical == 0:
        raise KeyboardInterrupt
    _state.interrupt_pending = True


def _check_pending_interrupt():
    if _state.interrupt_pending and _state.interruptible and _state.critical == 0:
        _state.interrupt_pending = False
        raise KeyboardInterrupt


def send(message):
    data = ("\n" + json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8", "replace")
    if len(data) > MAX_MESSAGE_BYTES:
        raise _MessageTooLarge(len(data))
    on_main = threading.get_ident() == _MAIN_THREAD
    if on_main:
        _state.critical += 1
    try:
        with _send_lock:
            view = memoryview(data)
            while view:
                written = os.write(MESSAGE_FD, view)
                view = view[written:]
    finally:
        if on_main:
            _state.critical -= 1
    if on_main:
        _check_pending_interrupt()


class _Output:
    """The cell's stdout/stderr text, batched into `stream` messages in the order written."""

    def __init__(self):
        self.lock = threading.RLock()
        self.name = None
        self.buffer = []
        self.size = 0
        self.sent = 0
        self.dropped = 0
        self.last_flush = 0.0

    def begin(self):
        with self.lock:
            self.name, self.buffer, self.size, self.sent, self.dropped = None, [], 0, 0, 0

    def write(self, name, text):
        with self.lock:
            if _state.cell_id is None:
                # A thread printing between cells: raw bytes, which the host logs.
                os.write(1 if name == "stdout" else 2, text.encode("utf-8", "replace"))
                return
            room = HARD_OUTPUT_LIMIT - self.sent - self.size
            if len(text) > room:
                self.dropped += len(text) - max(room, 0)
                text = text[: max(room, 0)]
            if not text:
                return
            if name != self.name:
                self._flush_locked()
                self.name = name
            self.buffer.append(text)
            self.size += len(text)
            # A finished line goes out at once unless lines come fast (then the flusher batches them),
            # so what a cell printed just before a crash reaches the host.
            now = time.monotonic()
            if self.size >= STREAM_CHUNK or ("\n" in text and now - self.last_flush >= FLUSH_INTERVAL):
                self._flush_locked()

    def flush(self):
        with self.lock:
            self._flush_locked()

    def _flush_locked(self):
        if not self.buffer or _state.cell_id is None:
            return
        text = "".join(self.buffer)
        self.buffer, self.sent, self.size = [], self.sent + self.size, 0
        self.last_flush = time.monotonic()
        for start in range(0, len(text), STREAM_CHUNK):
            send({"type": "stream", "id": _state.cell_id, "name": self.name, "text": text[start : start + STREAM_CHUNK]})


_output = _Output()


class _StreamWriter(io.TextIOBase):
    def __init__(self, name, fd):
        self._name = name
        self._fd = fd

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        _output.write(self._name, text)
        return len(text)

    def flush(self):
        _output.flush()

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        # Code that hands sys.stdout to a subprocess writes to the real fd, which the host collects.
        return self._fd

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "replace"


def _flusher():
    # Output of a long cell reaches the host while it runs (and survives a kill).
    while True:
        time.sleep(FLUSH_INTERVAL)
        try:
            _output.flush()
        except Exception:
            pass


# ---- tool relay -----------------------------------------------------------------------------

_tool_lock = threading.Lock()
_tool_calls = {}
_next_call = [0]
_executions = queue.Queue()


def tool(name, input=None):
    """Calls one of the agent's tools and returns its text; raises ToolError when it fails.

    Called on the cell's own thread, the cell waits on the call and the wait does not count against
    its idle budget; called from another thread it does (the cell may be computing meanwhile).
    """
    if _state.cell_id is None:
        raise RuntimeError("tool() can only be called while a cell runs")
    with _tool_lock:
        _next_call[0] += 1
        call = _next_call[0]
        answer = queue.Queue(1)
        _tool_calls[call] = answer
    try:
        _output.flush()
        message = {"type": "tool", "id": _state.cell_id, "call": call, "name": str(name), "input": input if input is not None else {}}
        message["awaited"] = threading.get_ident() == _MAIN_THREAD
        try:
            send(message)
        except _MessageTooLarge as error:
            raise ToolError(
                f"tool({str(name)!r}) was not called: its input is {error.size:,} bytes as JSON, over the {_megabytes(MAX_MESSAGE_BYTES)} one kernel message may hold; write the data to a file and pass its path"
            ) from None
        result = answer.get()
    finally:
        with _tool_lock:
            _tool_calls.pop(call, None)
    if not result.get("ok"):
        raise ToolError(result.get("text", ""))
    return result.get("text", "")


def _reader():
    stream = os.fdopen(COMMAND_FD, "rb", buffering=65536)
    for line in stream:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        kind = message.get("type")
        if kind == "execute":
            message["received_at"] = time.monotonic()
            _executions.put(message)
        elif kind == "tool_result":
            with _tool_lock:
                answer = _tool_calls.get(message.get("call"))
            if answer is not None:
                answer.put(message)
    # The host closed the pipe: nobody is left to answer, so the kernel ends, its cells' processes with it.
    _end_process_group()


def _end_process_group():
    """Kills the process group this kernel leads (what its cells started), itself included."""
    try:
        # Only a group this process leads has its pid as id: started any other way, nothing else is hit.
        os.killpg(os.getpid(), signal.SIGKILL)
    except OSError:
        pass
    os._exit(0)


def _die_with_host():
    """On Linux the kernel gets SIGTERM when the host that started it dies, and ends its group then.

    The end of fd 3 says the same on every platform; this holds too if another process kept the
    pipe open. The signal comes when the thread that started the kernel ends: the host starts it from
    its main thread.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError, ImportError):
        return
    signal.signal(signal.SIGTERM, lambda signum, frame: _end_process_group())


# ---- rich output ----------------------------------------------------------------------------


def _cut(text, limit=REPR_LIMIT):
    if len(text) <= limit:
        return text
    return text[: limit // 2] + f"\n… ({len(text) - limit:,} characters cut) …\n" + text[-limit // 2 :]


def _figure_png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    _state.emitted_figures.add(id(figure))
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def represent(value):
    """(mime, data) for a value: a figure as PNG, a DataFrame as a capped table, else its repr."""
    figure_module = sys.modules.get("matplotlib.figure")
    if figure_module is not None and isinstance(value, figure_module.Figure):
        return "image/png", _figure_png(value)
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(value, (pandas.DataFrame, pandas.Series)):
        rows = len(value)
        shown = value.head(TABLE_ROWS)
        if isinstance(value, pandas.DataFrame):
            table = shown.to_string(max_cols=30, max_colwidth=60)
            shape = f"{rows} rows × {value.shape[1]} columns"
        else:
            table = shown.to_string()
            shape = f"{rows} rows"
        note = f"\n(showing {TABLE_ROWS} of {rows} rows)" if rows > TABLE_ROWS else f"\n({shape})"
        return "text/plain", _cut(table) + note
    for method, mime in (("_repr_png_", "image/png"), ("_repr_markdown_", "text/markdown")):
        render = getattr(type(value), method, None)
        if render is not None and not isinstance(value, type):
            try:
                data = render(value)
            except Exception:
                data = None
            if isinstance(data, bytes) and mime == "image/png":
                return mime, base64.b64encode(data).decode("ascii")
            if isinstance(data, str):
                return mime, _cut(data)
    return "text/plain", _cut(repr(value))


def _megabytes(size):
    return f"{size / (1024 * 1024):g} MB"


def _publish(kind, value):
    mime, data = represent(value)
    try:
        send({"type": kind, "id": _state.cell_id, "mime": mime, "data": data})
    except _MessageTooLarge as error:
        note = f"[{mime} output not shown: {error.size:,} bytes as a message, over the {_megabytes(MAX_MESSAGE_BYTES)} one kernel message may hold; save it to a file instead]"
        send({"type": kind, "id": _state.cell_id, "mime": "text/plain", "data": note})


def display(*values):
    """Shows each value in the cell's output: figures as images, tables capped, others as repr."""
    _output.flush()
    for value in values:
        _publish("display", value)


def _emit_open_figures():
    # Figures left open by pyplot are shown as a notebook would, then closed so the next cell starts clean.
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return
    for number in pyplot.get_fignums():
        figure = pyplot.figure(number)
        if id(figure) not in _state.emitted_figures:
            _publish("display", figure)
    pyplot.close("all")


# ---- magics ---------------------------------------------------------------------------------


def rewrite_magics(code):
    """(source to run, source to show in tracebacks).

    A cell that is valid Python is never rewritten. Otherwise a first line `%%bash` / `%%timeit`
    makes the whole cell a call, and each line whose first non-space character is `%` or `!` is
    replaced by a call of the same indentation. Limitation: the check is per line, so in a cell that
    has magics, a line of a multi-line string starting with `%` or `!` would be rewritten too.
    """
    try:
        compile(code, "<probe>", "exec", ast.PyCF_ONLY_AST)
        return code, code
    except (SyntaxError, ValueError):
        pass
    lines = code.split("\n")
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith("%%"):
        index = next(i for i, line in enumerate(lines) if line.strip())
        name, _, args = first[2:].partition(" ")
        body = "\n".join(lines[index + 1 :])
        if name == "bash":
            source = f"__agent_kernel__.bash({body!r})"
        elif name == "timeit":
            source = f"__agent_kernel__.timeit({args!r}, {body!r})"
        else:
            source = f"__agent_kernel__.unknown({'%%' + name!r})"
        return source, source
    out = []
    for line in lines:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped.startswith("!"):
            out.append(f"{indent}__agent_kernel__.shell({stripped[1:]!r})")
        elif stripped.startswith("%"):
            name, _, args = stripped[1:].partition(" ")
            if name in ("pip", "cd"):
                out.append(f"{indent}__agent_kernel__.{name}({args!r})")
            else:
                out.append(f"{indent}__agent_kernel__.unknown({'%' + name!r})")
        else:
            out.append(line)
    return "\n".join(out), code


def _run_streaming(args, shell=False, env=None):
    """Runs a command with its output (stderr merged) streamed into the cell's stdout; its exit code."""
    sys.stdout.flush()
    process = subprocess.Popen(
        args,
        shell=shell,
        executable="/bin/bash" if shell else None,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    try:
        while True:
            chunk = process.stdout.read1(65536)
            if not chunk:
                break
            sys.stdout.write(decoder.decode(chunk))
        sys.stdout.write(decoder.decode(b"", True))
        code = process.wait()
    except BaseException:
        process.kill()
        process.wait()
        raise
    if code != 0:
        sys.stderr.write(f"(exit code {code})\n")
    return code


def _module_stamp(module):
    file = getattr(module, "__file__", None)
    if not file:
        return None
    try:
        return os.stat(file).st_mtime_ns
    except OSError:
        return "gone"


def _top_level_names(distributions):
    """Import names of the given distribution names, from the installed metadata."""
    import importlib.metadata as metadata

    wanted = {name.lower().replace("_", "-") for name in distributions}
    names = set()
    for top, owners in metadata.packages_distributions().items():
        if any(owner.lower().replace("_", "-") in wanted for owner in owners):
            names.add(top)
    return names


class _Magics:
    """What the rewritten magic lines call (reached through the builtin `__agent_kernel__`)."""

    def shell(self, command):
        _run_streaming(command, shell=True)

    def bash(self, body):
        _run_streaming(["bash", "-c", body])

    def cd(self, args):
        target = args.strip().strip("'\"") or "~"
        os.chdir(os.path.expanduser(target))
        print(os.getcwd())

    def pip(self, args):
        argv = shlex.split(args)
        named = [arg for arg in argv[1:] if not arg.startswith("-") and not os.path.sep in arg]
        before = {name: _module_stamp(module) for name, module in list(sys.modules.items())}
        affected = _top_level_names(named)
        capture = io.StringIO()
        real_write = sys.stdout.write

        # Keep a copy of pip's output to learn what it installed.
        def tee(text):
            capture.write(text)
            return real_write(text)

        sys.stdout.write = tee
        try:
            env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
            _run_streaming([sys.executable, "-m", "pip", *argv], env=env)
        finally:
            del sys.stdout.write
        installed = []
        for line in capture.getvalue().splitlines():
            if line.startswith("Successfully installed "):
                installed += [item.rsplit("-", 1)[0] for item in line.split()[2:]]
        affected |= _top_level_names(installed)
        for name, stamp in before.items():
            if stamp is not None and _module_stamp(sys.modules.get(name)) != stamp:
                affected.add(name.split(".")[0])
        affected -= set(sys.stdlib_module_names) | {"__main__", "builtins"}
        purged = [name for name in list(sys.modules) if name.split(".")[0] in affected]
        for name in purged:
            del sys.modules[name]
        importlib.invalidate_caches()
        if purged:
            print(f"(modules purged, the next import loads the new version: {', '.join(sorted(affected & {n.split('.')[0] for n in purged}))})")

    def timeit(self, args, body):
        words = shlex.split(args)
        number, repeat, setup = None, 7, []
        index = 0
        while index < len(words):
            if words[index] == "-n" and index + 1 < len(words):
                number, index = int(words[index + 1]), index + 2
            elif words[index] == "-r" and index + 1 < len(words):
                repeat, index = int(words[index + 1]), index + 2
            else:
                setup.append(words[index])
                index += 1
        if setup:
            exec(" ".join(setup), _namespace)
        code = compile(body, f"<cell {_state.count}>", "exec")
        timer = timeit.Timer(lambda: exec(code, _namespace))
        if number is None:
            number, _ = timer.autorange()
        per_loop = [total / number for total in timer.repeat(repeat=repeat, number=number)]
        spread = statistics.pstdev(per_loop) if len(per_loop) > 1 else 0.0
        print(f"{_duration(statistics.mean(per_loop))} ± {_duration(spread)} per loop (mean ± std. dev. of {repeat} runs, {number:,} loops each)")

    def unknown(self, name):
        raise UsageError(f"{name} is not supported here (supported: %pip, %cd, !command, %%bash, %%timeit)")


def _duration(seconds):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


# ---- cells ----------------------------------------------------------------------------------

_namespace = None
_LIBRARY_DIRS = tuple(
    {os.path.abspath(path) + os.sep for key in ("stdlib", "platstdlib", "purelib", "platlib") for path in [sysconfig.get_paths().get(key)] if path}
)


def _is_user_frame(frame):
    filename = frame.filename
    if filename.startswith("<cell "):
        return True
    if filename.startswith("<") or os.path.abspath(filename) == _DRIVER_FILE:
        return False
    path = os.path.abspath(filename)
    return not path.startswith(_LIBRARY_DIRS) and "site-packages" not in path and "dist-packages" not in path


def _prune(exception, seen):
    if exception is None or id(exception) in seen:
        return
    seen.add(id(exception))
    exception.stack = traceback.StackSummary.from_list([frame for frame in exception.stack if _is_user_frame(frame)])
    _prune(exception.__cause__, seen)
    _prune(exception.__context__, seen)


def _send_error(error):
    described = traceback.TracebackException.from_exception(error)
    _prune(described, set())
    # A message of megabytes (or a traceback of thousands of frames) is cut here: it must fit one message.
    send(
        {
            "type": "error",
            "id": _state.cell_id,
            "ename": type(error).__name__,
            "evalue": _cut(str(error)),
            "traceback": [_cut("".join(described.format()), 10 * REPR_LIMIT)],
        }
    )


def _ends_with_semicolon(code):
    lines = [line for line in code.rstrip().split("\n") if line.strip()]
    return bool(lines) and lines[-1].split("#")[0].rstrip().endswith(";")


def _execute(code):
    _state.count += 1
    filename = f"<cell {_state.count}>"
    source, shown = rewrite_magics(code)
    linecache.cache[filename] = (len(shown), None, shown.splitlines(True), filename)
    tree = ast.parse(source, filename, "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not _ends_with_semicolon(code):
        last = ast.Expression(tree.body.pop().value)
    body = compile(tree, filename, "exec")
    expression = compile(last, filename, "eval") if last is not None else None
    value = None
    _state.interruptible = True
    try:
        _check_pending_interrupt()
        exec(body, _namespace)
        if expression is not None:
            value = eval(expression, _namespace)
    finally:
        _state.interruptible = False
    if value is not None:
        _namespace["_"] = value
        _output.flush()
        _publish("result", value)


def _run_cell(message):
    _state.cell_id = message["id"]
    # A SIGINT that came after this cell arrived but before it started is for this cell; an older
    # one was for the previous cell, which ended before it was handled.
    _state.interrupt_pending = _state.idle_interrupt_at >= message["received_at"]
    _state.emitted_figures = set()
    _output.begin()
    try:
        try:
            _execute(message.get("code", ""))
        except BaseException as error:  # KeyboardInterrupt and SystemExit too: the kernel lives on
            _state.interruptible = False
            _output.flush()
            _send_error(error)
        try:
            _emit_open_figures()
        except Exception as error:
            _send_error(error)
    finally:
        _state.interruptible = False
        _output.flush()
        dropped = _output.dropped
        done = {"type": "done", "id": _state.cell_id}
        if dropped:
            done["dropped"] = dropped
        send(done)
        _state.cell_id = None
        _state.interrupt_pending = False


def main():
    global _namespace
    os.set_inheritable(COMMAND_FD, False)
    os.set_inheritable(MESSAGE_FD, False)
    _die_with_host()
    signal.signal(signal.SIGINT, _on_sigint)
    # The cells' module is __main__, so classes defined in cells pickle as in a script.
    module = types.ModuleType("__main__")
    module.__dict__["__builtins__"] = builtins
    _namespace = module.__dict__
    sys.modules["__main__"] = module
    sys.path[0] = ""  # imports resolve from the working directory, as in a notebook
    builtins.display = display
    builtins.tool = tool
    builtins.ToolError = ToolError
    builtins.__agent_kernel__ = _Magics()
    sys.stdout = _StreamWriter("stdout", 1)
    sys.stderr = _StreamWriter("stderr", 2)
    threading.Thread(target=_reader, name="kernel-commands", daemon=True).start()
    threading.Thread(target=_flusher, name="kernel-flusher", daemon=True).start()
    send({"type": "ready", "pid": os.getpid(), "version": platform.python_version()})
    while True:
        try:
            message = _executions.get()
        except KeyboardInterrupt:
            continue
        _run_cell(message)


if __name__ == "__main__":
    main()
