"""The reader behind a process boundary: native crashes become one clear line.

llama.cpp is native code, and native code can die in ways Python cannot
catch: an instruction the CPU lacks (SIGILL, the AMX bug that
``reader_build.py`` describes), a segfault, an abort, the out-of-memory
killer. In-process, any of those ends ``rawrag ask``, the terminal app, an
evaluation or the test run with it. So the reader runs in a child process
(``reader_worker``) and this class is its stand-in: it implements the
:class:`~rawrag_tui.models.protocols.Reader` protocol by sending requests over
a pipe and streaming the replies back.

- The child is started once and kept (the app's second question pays no
  load); after a crash or a hang it is started afresh on the next call.
- A crash is a :class:`~rawrag_tui.errors.ReaderCrashed` naming the signal,
  the model, the build and the command that fixes it.
- A child that sends nothing for ``reader.timeout`` seconds (no progress, no
  token) is killed: a ModelError, never a frozen face. Reading the prompt
  reports progress per batch, so a slow CPU is not mistaken for a hang.
- The parent never imports llama_cpp: even loading a library built for
  another CPU can kill a process.
"""

from __future__ import annotations

import collections
import importlib.metadata as md
import importlib.util
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..errors import ModelError, ReaderCrashed, UserError
from ..settings import Settings
from .gguf import PackagedGguf, VerifiedCache, check_magic, verify
from .protocols import Warmed
from .reader_build import install_command

ProgressCallback = Callable[[int, int], None]

#: Under the models folder: the reader's saved prompt prefix (llama_reader.PromptCache).
PROMPT_CACHE_DIR = "prompt-cache"

_EOF = object()
#: Seconds a closing child gets to exit by itself before it is killed.
_GRACE = 3.0

#: What each fatal signal usually means for a llama.cpp reader, and what fixes it.
_SIGNALS: dict[int, tuple[str, str]] = {
    signal.SIGILL: ("illegal instruction: the llama.cpp build uses a CPU instruction this CPU lacks",
                    "rebuild the reader portably: {rebuild}"),
    signal.SIGSEGV: ("segmentation fault in llama.cpp",
                     "check the build and the model with `rawrag doctor`; a portable rebuild: {rebuild}"),
    signal.SIGABRT: ("llama.cpp aborted",
                     "check the model file and the build with `rawrag doctor`"),
    signal.SIGBUS: ("bus error: the model file changed or became unreadable while in use",
                    "check the model file with `rawrag doctor`"),
    signal.SIGKILL: ("killed (on Linux usually the out-of-memory killer)",
                     "free memory, or lower reader.context_cap in config.toml"),
    signal.SIGFPE: ("floating-point exception in llama.cpp",
                    "check the build with `rawrag doctor`; a portable rebuild: {rebuild}"),
}


@dataclass(frozen=True)
class ReaderLaunch:
    """Everything the reader's process needs to load a GGUF."""

    path: str
    context_cap: int = 8192
    gpu_layers: str = "auto"
    threads: int = 0
    batch: int = 256
    #: Seconds without a sign of life (a progress report or a token) before
    #: the child is taken for hung and killed.
    timeout: float = 120.0
    #: A private folder where the reader keeps the fixed prompt prefix, read
    #: once, and its measured prompt speed ("" = keep nothing).
    prompt_cache: str = ""

    @property
    def name(self) -> str:
        return Path(self.path).stem


def require_llama_cpp() -> None:
    """Say what is missing before assembling half a gigabyte (without importing it)."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise ModelError(
            "the local reader needs llama-cpp-python, which is not installed: "
            "pip install 'rawrag-tui[reader]' (the README's `make demo` builds it portably)"
        )


def llama_cpp_version() -> str:
    try:
        return md.version("llama-cpp-python")
    except md.PackageNotFoundError:
        return "not installed"


def gguf_launch(path: str | Path, settings: Settings, *, spec: PackagedGguf | None = None,
                gpu_layers: str | int | None = None) -> ReaderLaunch:
    """A launch for the GGUF at ``path``, verified before llama.cpp ever parses it.

    With ``spec`` the file must be that pinned file (size and SHA-256);
    without, it must at least be a GGUF.
    """
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: model file not found")
    if spec is not None:
        verify(path, spec, VerifiedCache(settings.models_dir))
    else:
        check_magic(path)
    reader = settings.reader
    return ReaderLaunch(
        path=str(path),
        context_cap=reader.context_cap,
        gpu_layers=str(reader.gpu_layers if gpu_layers is None else gpu_layers),
        threads=settings.models.threads,
        batch=reader.batch,
        timeout=reader.timeout,
        prompt_cache=str(settings.models_dir / PROMPT_CACHE_DIR),
    )


def packaged_launch(spec: PackagedGguf, settings: Settings, *, gpu_layers: str | int | None = None) -> ReaderLaunch:
    """A launch for a GGUF that ships in packages (assembled and verified once)."""
    from .gguf import locate

    require_llama_cpp()
    return gguf_launch(locate(spec, settings.models_dir), settings, gpu_layers=gpu_layers)


def compiled_features(system_info: str) -> list[str]:
    """The CPU features a llama.cpp build says it uses (``AVX2 = 1`` -> ``AVX2``)."""
    features = []
    for part in system_info.replace("\n", "|").split("|"):
        name, _, value = part.rpartition("=")
        name = name.split(":")[-1].strip()
        if name and value.strip() == "1":
            features.append(name)
    return features


def crash_message(returncode: int, launch: ReaderLaunch, info: dict[str, Any], stderr_tail: list[str]) -> str:
    """One line: what happened, to which model, on which build, and the fix."""
    build = f"llama-cpp-python {info.get('llama_cpp_python') or llama_cpp_version()}"
    features = compiled_features(info.get("system_info", ""))
    if features:
        build += f" built with {' '.join(features)}"
    rebuild = install_command()
    if returncode < 0:
        number = -returncode
        try:
            sig = signal.Signals(number).name
        except ValueError:
            sig = f"signal {number}"
        what, fix = _SIGNALS.get(number, (f"killed by {sig}", "run `rawrag doctor`"))
        what = f"{what} ({sig})"
    else:
        last = next((line for line in reversed(stderr_tail) if line.strip()), "")
        what = f"exited with code {returncode}" + (f": {last.strip()[:200]}" if last else "")
        fix = "run `rawrag doctor`"
    return f"the reader crashed: {what}, running {launch.name} on {build}; fix: {fix.format(rebuild=rebuild)}"


class ReaderProcess:
    """A :class:`~rawrag_tui.models.protocols.Reader` whose llama.cpp runs in a child process."""

    #: The child's GGUF vocabulary gives every token's id (models/protocols.py, AvoidingReader).
    can_avoid = True

    def __init__(self, launch: ReaderLaunch):
        self.launch = launch
        self.name = launch.name
        #: The child's description of itself (``LlamaReader.describe``).
        self.info: dict[str, Any] = {}
        #: Children started so far (1 after a clean run; more after crashes).
        self.starts = 0
        #: What the last answer's prompt cost (tokens, cached tokens, seconds).
        self.last_prefill: dict[str, float] = {}
        self._proc: subprocess.Popen | None = None
        self._replies: queue.Queue = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._finalizer: weakref.finalize | None = None
        self._start()

    @property
    def read_by(self) -> dict[str, str]:
        """Where the evidence is read: every answer carries it."""
        return {"backend": "bundled", "model": self.name, "endpoint": "local"}

    # -- the Reader protocol ---------------------------------------------------

    @property
    def context_tokens(self) -> int:
        return int(self.info["context_tokens"])

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def count_tokens(self, text: str) -> int:
        return self.count_many([text])[0]

    def count_many(self, texts: list[str]) -> list[int]:
        self._ensure_running()
        self._send({"op": "count", "texts": texts})
        reply = self._next()
        self._raise_error(reply)
        return [int(n) for n in reply["counts"]]

    def answer(self, prompt: str, max_tokens: int = 256,
               on_progress: ProgressCallback | None = None) -> Iterator[str]:
        return self._answer({"op": "answer", "prompt": prompt, "max_tokens": max_tokens}, on_progress)

    def answer_avoiding(self, prompt: str, avoid: Sequence[str], max_tokens: int = 256) -> Iterator[str]:
        """The child's llama.cpp answer with none of the tokens of ``avoid``
        written (models/protocols.py, AvoidingReader)."""
        return self._answer({"op": "answer", "prompt": prompt, "max_tokens": max_tokens, "avoid": list(avoid)},
                            None)

    def _answer(self, request: dict[str, Any], on_progress: ProgressCallback | None) -> Iterator[str]:
        self._ensure_running()
        self._send(request)
        finished = False
        try:
            while True:
                reply = self._next()
                if "piece" in reply:
                    yield reply["piece"]
                elif "progress" in reply:
                    if on_progress:
                        on_progress(*reply["progress"])
                elif "done" in reply:
                    finished = True
                    self.last_prefill = reply["done"]
                    return
                else:
                    finished = True
                    self._raise_error(reply)
                    raise ModelError(f"the reader sent an unexpected reply: {str(reply)[:200]}")
        finally:
            if not finished:
                # Left mid-answer (a crash, a hang, or the caller stopped
                # reading): the child's state is unknown, start afresh next time.
                self._stop(kill=True)

    def warm(self, prefix: str, room: int) -> Warmed:
        self._ensure_running()
        self._send({"op": "warm", "prefix": prefix, "room": room})
        reply = self._next()
        self._raise_error(reply)
        if "warmed" not in reply:
            raise ModelError(f"the reader sent an unexpected reply: {str(reply)[:200]}")
        return Warmed(**reply["warmed"])

    def close(self) -> None:
        self._stop(kill=False)

    # -- the child -------------------------------------------------------------

    def _ensure_running(self) -> None:
        if self._proc is None or self._proc.poll() is not None:
            self._stop(kill=True)
            self._start()

    def _start(self) -> None:
        import rawrag_tui

        root = str(Path(rawrag_tui.__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        self._replies = queue.Queue()
        self._stderr.clear()
        proc = subprocess.Popen(
            [sys.executable, "-m", "rawrag_tui.models.reader_worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )
        self._proc = proc
        self.starts += 1
        self._finalizer = weakref.finalize(self, _kill, proc)
        threading.Thread(target=_pump_replies, args=(proc.stdout, self._replies), daemon=True,
                         name="reader-replies").start()
        threading.Thread(target=_pump_stderr, args=(proc.stderr, self._stderr), daemon=True,
                         name="reader-stderr").start()
        self._send({"op": "load", **asdict(self.launch)})
        reply = self._next()
        if "ready" not in reply:
            self._stop(kill=True)
            self._raise_error(reply)
            raise ModelError(f"the reader sent an unexpected reply: {str(reply)[:200]}")
        self.info = reply["ready"]

    def _send(self, message: dict[str, Any]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write((json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8"))
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._crashed()

    def _next(self) -> dict[str, Any]:
        try:
            reply = self._replies.get(timeout=self.launch.timeout)
        except queue.Empty:
            self._stop(kill=True)
            raise ModelError(
                f"the reader ({self.name}) gave no sign of life for {self.launch.timeout:g} s and was stopped; "
                "raise reader.timeout for a slow machine, or check it with `rawrag doctor`"
            ) from None
        if reply is _EOF:
            self._crashed()
        return reply

    def _crashed(self) -> None:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=_GRACE)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
        time.sleep(0.05)  # let the stderr pump take the child's last words
        tail = list(self._stderr)
        self._stop(kill=True)
        raise ReaderCrashed(crash_message(code if code is not None else -1, self.launch, self.info, tail))

    def _raise_error(self, reply: dict[str, Any]) -> None:
        if "error" in reply:
            cls = UserError if reply.get("kind") == "user" else ModelError
            raise cls(reply["error"])

    def _stop(self, kill: bool) -> None:
        proc, self._proc = self._proc, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if proc is None:
            return
        if not kill and proc.poll() is None:
            try:
                assert proc.stdin is not None
                proc.stdin.write(b'{"op": "quit"}\n')
                proc.stdin.close()
                proc.wait(timeout=_GRACE)
            except (OSError, subprocess.TimeoutExpired, ValueError):
                pass
        _kill(proc)


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


def _pump_replies(stream, replies: queue.Queue) -> None:
    try:
        for line in stream:
            try:
                replies.put(json.loads(line))
            except ValueError:
                continue  # not the protocol: ignore rather than die
    except (OSError, ValueError):
        pass
    replies.put(_EOF)


def _pump_stderr(stream, tail: collections.deque) -> None:
    try:
        for line in stream:
            tail.append(line.decode("utf-8", "replace").rstrip())
    except (OSError, ValueError):
        pass
