"""The local reader: a GGUF chat model on llama.cpp (llama-cpp-python).

Why it is built this way:

- The prompt is rendered with the chat template stored in the GGUF itself
  (llama-cpp-python's Jinja renderer), then tokenised here and handed to
  llama.cpp as token ids. Rendering ourselves gives the exact prompt length
  (so the context can be sized to it) and lets template switches through:
  ``enable_thinking=False`` turns Qwen3's thinking off the way its template
  intends; templates without the switch ignore it.
- The context is sized to the question, not to the model: llama.cpp
  allocates the KV cache up front, and a 32K context for a 3K prompt wastes
  memory and time. Packing needs token counts before anything is generated,
  so the vocabulary is loaded first (no weights, a fraction of a second) and
  the weights only when the first answer is asked for, with a context that
  fits that prompt. A later, longer prompt reloads with a larger context
  (the file is memory-mapped, so this costs little), never beyond
  ``reader.context_cap`` or the model's trained context.
- Temperature 0 (greedy), no repetition penalty: the same evidence gives the
  same answer, which is what citations and evaluation need.
- Threads are set on purpose: llama-cpp-python defaults to half the CPUs,
  which on a 2-core laptop is one thread.
- The prompt is read here in batches before generation starts, for two
  reasons: progress ("read 1,024 of 1,412 tokens") can be reported while a
  CPU works through the evidence, and the longest prefix shared with the
  previous prompt (the fixed instructions) is kept in the KV cache instead of
  being read again (llama.cpp's prompt cache).

This class runs inside the reader's own process (``reader_worker``); the
rest of rawrag talks to it through ``reader_process.ReaderProcess``, so a
native crash here never takes a face down. llama_cpp is imported lazily,
here only, so nothing else pays its start-up.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ModelError, UserError
from .avoided import AVOIDED_BIAS, avoided_ids
from .protocols import Warmed

if TYPE_CHECKING:
    from llama_cpp.llama_types import ChatCompletionRequestMessage

#: Rendering an empty user turn and a real one can merge tokens differently at
#: the seams; this many tokens are kept back for that.
_TEMPLATE_SLACK = 8
#: Contexts are allocated in steps of this many tokens, so a run of questions
#: of similar size reuses one context instead of reloading for each.
_CONTEXT_STEP = 1024
#: Prompt reads shorter than this do not measure the prompt speed; one this
#: long or longer replaces the earlier estimate outright.
_RATE_MIN_TOKENS = 32
_RATE_FULL_WEIGHT = 512


def _import_llama_cpp():
    try:
        import llama_cpp
    except ImportError:
        raise ModelError(
            "the local reader needs llama-cpp-python, which is not installed: "
            "pip install 'rawrag-tui[reader]'"
        ) from None
    return llama_cpp


def resolve_gpu_layers(value: str | int, supports_offload: bool) -> int:
    """``auto`` -> every layer (-1) when llama.cpp can offload, else 0; or N."""
    text = str(value).strip().lower()
    if text == "auto":
        return -1 if supports_offload else 0
    try:
        layers = int(text)
    except ValueError:
        raise UserError(f"gpu layers: {value!r} is neither 'auto' nor a number of layers") from None
    if layers < -1:
        raise UserError(f"gpu layers: {layers} is not a number of layers (use auto, 0, N or -1 for all)")
    return layers


def available_threads(setting: int) -> int:
    """``models.threads`` when set, else every CPU this process may run on."""
    if setting > 0:
        return setting
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


class ThinkFilter:
    """Drops a leading ``<think>...</think>`` block from a stream (a Qwen3
    that thinks despite ``enable_thinking=False`` still gives a clean answer)."""

    OPEN, CLOSE = "<think>", "</think>"

    def __init__(self):
        self._buffer = ""
        self._state = "start"  # start -> (thinking ->) answer

    def feed(self, piece: str) -> str:
        if self._state == "answer":
            return piece
        self._buffer += piece
        if self._state == "start":
            head = self._buffer.lstrip()
            if head.startswith(self.OPEN):
                self._state = "thinking"
            elif len(head) >= len(self.OPEN) or not self.OPEN.startswith(head):
                self._state = "answer"
                out, self._buffer = self._buffer, ""
                return out
            else:
                return ""
        end = self._buffer.find(self.CLOSE)
        if end < 0:
            return ""
        rest = self._buffer[end + len(self.CLOSE) :].lstrip()
        self._buffer = ""
        self._state = "answer"
        return rest

    def flush(self) -> str:
        out = self._buffer if self._state != "thinking" else ""
        self._buffer = ""
        return out


class PromptCache:
    """The fixed prompt prefix, read once per machine, and the prompt speed.

    Every ``rawrag ask`` from a shell starts a fresh reader process, which
    would read the same 107 tokens of instructions again (2.4 s at 44
    tokens/s on a 2-core VM) and would not know how fast this machine reads
    until it had. So the prefix's KV cache (llama.cpp's own sequence-state
    file) and the last measured prompt speed are kept in a private folder,
    named by a hash of everything they depend on: the model file (path,
    size, mtime), the llama.cpp build, threads and GPU layers, the CPU, and
    the prefix's tokens. Anything else, or a file that does not load, is
    simply read afresh. The prefix is rawrag's own instructions: no message
    of the user's history is ever in these files.
    """

    def __init__(self, folder: Path, reader: LlamaReader):
        import hashlib
        import importlib.metadata as md
        import platform

        self.folder = folder
        self._key = hashlib.sha256()
        stat = reader.path.stat()
        for part in (str(reader.path.resolve()), stat.st_size, stat.st_mtime_ns, md.version("llama-cpp-python"),
                     reader.threads, reader.gpu_layers, platform.machine(), _cpu_model()):
            self._key.update(f"{part}\0".encode())

    def _paths(self, tokens: list[int]) -> tuple[Path, Path]:
        key = self._key.copy()
        key.update(",".join(map(str, tokens)).encode())
        stem = key.hexdigest()[:24]
        return self.folder / f"{stem}.kv", self.folder / f"{stem}.json"

    def restore(self, llama: Any, llama_cpp: Any, tokens: list[int]) -> float | None:
        """Load the prefix into ``llama``'s KV cache: the saved prompt speed,
        or None when there is nothing (valid) to load."""
        import ctypes
        import json

        kv, meta = self._paths(tokens)
        try:
            rate = float(json.loads(meta.read_text(encoding="utf-8"))["rate"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not kv.is_file():
            return None
        out = (llama_cpp.llama_token * (len(tokens) + 1))()
        count = ctypes.c_size_t(0)
        llama.reset()
        llama._ctx.kv_cache_clear()
        loaded = llama_cpp.llama_state_seq_load_file(llama._ctx.ctx, str(kv).encode(), 0, out, len(tokens) + 1,
                                                     ctypes.byref(count))
        if not loaded or list(out[: count.value]) != tokens:
            llama._ctx.kv_cache_clear()
            return None
        llama.input_ids[: len(tokens)] = tokens
        llama.n_tokens = len(tokens)
        return rate

    def save(self, llama: Any, llama_cpp: Any, tokens: list[int], rate: float) -> None:
        """Keep the prefix just read (it is ``llama``'s cache now) and the speed."""
        from .gguf import _private_dir

        kv, _ = self._paths(tokens)
        part = kv.with_suffix(f".kv.{os.getpid()}")
        try:  # a cache that cannot be written costs the next process a read, never an answer
            _private_dir(self.folder)
            array = (llama_cpp.llama_token * len(tokens))(*tokens)
            if llama_cpp.llama_state_seq_save_file(llama._ctx.ctx, str(part).encode(), 0, array, len(tokens)):
                os.chmod(part, 0o600)
                os.replace(part, kv)
                self.save_rate(tokens, rate)
            else:
                part.unlink(missing_ok=True)
        except OSError:
            return

    def save_rate(self, tokens: list[int], rate: float) -> None:
        import json

        _, meta = self._paths(tokens)
        if rate <= 0 or not meta.parent.is_dir():
            return
        part = meta.with_suffix(f".json.{os.getpid()}")
        try:
            fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"rate": round(rate, 2)}, f)
            os.replace(part, meta)
        except OSError:
            return


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        import platform

        return platform.processor()


class LlamaReader:
    """A :class:`~rawrag_tui.models.protocols.Reader` on llama.cpp."""

    #: The GGUF's own vocabulary gives every token's id (models/protocols.py, AvoidingReader).
    can_avoid = True

    def __init__(
        self,
        path: Path,
        *,
        context_cap: int = 8192,
        gpu_layers: str | int = "auto",
        threads: int = 0,
        batch: int = 256,
        prompt_cache: Path | None = None,
    ):
        llama_cpp = _import_llama_cpp()
        from llama_cpp import _internals
        from llama_cpp._logger import set_verbose
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        # The vocabulary is loaded below before any Llama object exists, so
        # quiet llama.cpp's log and initialise its backend as Llama would.
        set_verbose(False)
        llama_cpp.llama_backend_init()

        self.path = Path(path)
        self.name = self.path.stem
        self.threads = available_threads(threads)
        self.batch = max(16, batch)
        self.gpu_layers = resolve_gpu_layers(gpu_layers, bool(llama_cpp.llama_supports_gpu_offload()))
        self._llama_cpp = llama_cpp

        params = llama_cpp.llama_model_default_params()
        params.vocab_only = True
        try:
            self._vocab = _internals.LlamaModel(path_model=str(self.path), params=params, verbose=False)
        except ValueError as exc:
            raise ModelError(f"{self.path}: llama.cpp cannot read this GGUF: {exc}") from None
        self.metadata: dict[str, str] = self._vocab.metadata()
        self.architecture = self.metadata.get("general.architecture", "")
        self.trained_context = int(self._vocab.n_ctx_train()) or int(
            self.metadata.get(f"{self.architecture}.context_length", 0) or 2048
        )
        self.max_context = max(256, min(context_cap, self.trained_context))

        template = self.metadata.get("tokenizer.chat_template")
        if not template:
            raise ModelError(f"{self.path}: this GGUF carries no chat template; rawrag needs an instruct model")
        eos, bos = self._vocab.token_eos(), self._vocab.token_bos()
        self._eos_text = self._vocab.token_get_text(eos) if eos != -1 else ""
        bos_text = self._vocab.token_get_text(bos) if bos != -1 else ""
        self._formatter = Jinja2ChatFormatter(template=template, eos_token=self._eos_text, bos_token=bos_text)
        self._add_bos = bool(self._vocab.add_bos_token())
        frame = len(self._prompt_tokens(""))
        #: Tokens the prompt text and the answer may use together.
        self.context_tokens = self.max_context - frame - _TEMPLATE_SLACK
        self._llama: Any = None
        self.loaded_context = 0
        self.loads = 0
        #: What the last answer cost: prompt tokens, how many came from the cache, seconds.
        self.last_prefill: dict[str, float] = {}
        #: Prompt tokens per second, as this process has measured them (0: not yet).
        self.prompt_rate = 0.0
        self._prompt_cache = PromptCache(prompt_cache, self) if prompt_cache is not None else None
        #: The prefix tokens last warmed: the key its saved speed is kept under.
        self._prefix: list[int] = []

    def system_info(self) -> str:
        """llama.cpp's own account of the build: backends and CPU features compiled in."""
        return self._llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()

    def describe(self) -> dict[str, Any]:
        """What the faces show about this reader (``rawrag doctor``, crash lines)."""
        import importlib.metadata as md

        return {
            "name": self.name,
            "path": str(self.path),
            "architecture": self.architecture,
            "context_tokens": self.context_tokens,
            "max_context": self.max_context,
            "threads": self.threads,
            "gpu_layers": self.gpu_layers,
            "gpu_offload": bool(self._llama_cpp.llama_supports_gpu_offload()),
            "llama_cpp_python": md.version("llama-cpp-python"),
            "system_info": self.system_info(),
        }

    # -- tokens ---------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        return len(self._vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def render(self, prompt: str) -> str:
        """The chat-formatted prompt: one user turn, then the assistant's cue."""
        messages: list[ChatCompletionRequestMessage] = [{"role": "user", "content": prompt}]
        return self._formatter(messages=messages, enable_thinking=False).prompt

    def _prompt_tokens(self, prompt: str) -> list[int]:
        text = self.render(prompt)
        # special=True: the template's control tokens (<|im_start|>) must
        # become control ids, not text. A BOS the template already wrote is
        # not added twice.
        bos = self._formatter.bos_token
        add_bos = self._add_bos and not (bos and text.startswith(bos))
        return self._vocab.tokenize(text.encode("utf-8"), add_bos=add_bos, special=True)

    # -- model ----------------------------------------------------------------

    def _ensure_context(self, needed: int) -> None:
        if self._llama is not None and self.loaded_context >= needed:
            return
        size = min(self.max_context, -(-needed // _CONTEXT_STEP) * _CONTEXT_STEP)
        if self._llama is not None:
            self._llama.close()
            self._llama = None
        try:
            self._llama = self._llama_cpp.Llama(
                model_path=str(self.path),
                n_ctx=size,
                n_batch=min(self.batch, size),
                n_threads=self.threads,
                n_threads_batch=self.threads,
                n_gpu_layers=self.gpu_layers,
                verbose=False,
            )
        except ValueError as exc:
            raise ModelError(f"{self.path}: llama.cpp could not load the model: {exc}") from None
        self.loaded_context = size
        self.loads += 1

    def _prefill(self, tokens: list[int], on_progress: Callable[[int, int], None] | None) -> None:
        """Read the prompt into the KV cache, reusing the prefix already there.

        At least the last token is always read again, so the logits the first
        answer token is sampled from belong to this prompt. Beyond the fixed
        prefix (:meth:`warm`), what the last prompt shared is reused in whole
        batches only, counted from the prefix's end: where the rest's reading
        starts, and so how it is cut into batches, changes the sums a little,
        and the 0.5B reader's greedy answer with them (the demo's wedding read
        after two other questions was "(19 March 2026)", asked first the right
        date, from the same prompt). Cut the same way as a fresh read, the
        same prompt gets the same answer whatever was asked before.
        """
        llama = self._llama
        started = time.perf_counter()
        cached = 0
        for have, want in zip(llama.input_ids[: llama.n_tokens].tolist(), tokens[:-1]):
            if have != want:
                break
            cached += 1
        prefix = len(self._prefix)
        if cached >= prefix and tokens[:prefix] == self._prefix:
            cached = prefix + (cached - prefix) // llama.n_batch * llama.n_batch
        else:
            cached = 0
        if cached and not llama._ctx.kv_cache_seq_rm(-1, cached, -1):
            cached = 0  # this model's cache cannot be cut: read it all
        if not cached:
            llama.reset()
        else:
            llama.n_tokens = cached
        total = len(tokens)
        if on_progress:
            on_progress(cached, total)
        for start in range(cached, total, llama.n_batch):
            llama.eval(tokens[start : start + llama.n_batch])
            if on_progress:
                on_progress(min(start + llama.n_batch, total), total)
        seconds = time.perf_counter() - started
        self.last_prefill = {"prompt_tokens": total, "cached_tokens": cached, "seconds": seconds}
        if self._measured(total - cached, seconds) and self._prompt_cache and self._prefix:
            self._prompt_cache.save_rate(self._prefix, self.prompt_rate)  # the next process starts from it

    def _measured(self, read: int, seconds: float) -> bool:
        """Fold one prompt read into :attr:`prompt_rate`; long reads count more
        (a read of a few tokens is mostly fixed cost, not throughput)."""
        if read < _RATE_MIN_TOKENS or seconds <= 0:
            return False
        rate = read / seconds
        weight = 1.0 if not self.prompt_rate else min(1.0, read / _RATE_FULL_WEIGHT)
        self.prompt_rate += weight * (rate - self.prompt_rate)
        return True

    def warm(self, prefix: str, room: int) -> Warmed:
        """Read the start every prompt shares now, in a context of ``room`` tokens.

        A fresh process has to read it anyway; reading it before the evidence
        is chosen measures this machine's prompt speed at no extra cost, and
        the context is allocated once for the answer that follows (a larger
        one later would drop the cache).
        """
        marker = "\x00rawrag-evidence\x00"
        text = self.render(prefix + marker)
        head = text[: text.index(marker)]
        bos = self._formatter.bos_token
        add_bos = self._add_bos and not (bos and head.startswith(bos))
        tokens = self._vocab.tokenize(head.encode("utf-8"), add_bos=add_bos, special=True)
        self._ensure_context(min(max(room, len(tokens) + 16), self.max_context))
        have = self._llama.input_ids[: self._llama.n_tokens].tolist()
        self._prefix = tokens
        if have[: len(tokens)] == tokens:
            return Warmed(self.prompt_rate, len(tokens), 0.0)
        cache = self._prompt_cache
        started = time.perf_counter()
        rate = cache.restore(self._llama, self._llama_cpp, tokens) if cache else None
        if rate is not None:
            self.prompt_rate = self.prompt_rate or rate
            return Warmed(self.prompt_rate, len(tokens), time.perf_counter() - started)
        self._prefill(tokens, None)
        if cache:
            cache.save(self._llama, self._llama_cpp, tokens, self.prompt_rate)
        return Warmed(self.prompt_rate, len(tokens), self.last_prefill["seconds"])

    def answer(self, prompt: str, max_tokens: int = 256,
               on_progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
        """Stream the answer; ``on_progress(done, total)`` while the prompt is read."""
        return self._answer(prompt, max_tokens, on_progress, ())

    def answer_avoiding(self, prompt: str, avoid: Sequence[str], max_tokens: int = 256) -> Iterator[str]:
        """Stream the answer with none of the tokens of ``avoid`` written
        (models/protocols.py, AvoidingReader)."""
        return self._answer(prompt, max_tokens, None, avoid)

    def avoided_tokens(self, avoid: Sequence[str]) -> set[int]:
        """The token ids that spell ``avoid`` (models/avoided.py)."""
        return avoided_ids(avoid, lambda text: self._vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False),
                           self.piece)

    def piece(self, token: int) -> str:
        """The text ``token`` writes (part of a character's bytes write none)."""
        return bytes(self._vocab.token_to_piece(token)).rstrip(b"\0").decode("utf-8", "ignore")

    def _answer(self, prompt: str, max_tokens: int, on_progress: Callable[[int, int], None] | None,
                avoid: Sequence[str]) -> Iterator[str]:
        tokens = self._prompt_tokens(prompt)
        room = self.max_context - len(tokens)
        if room < 16:
            raise ModelError(
                f"the question and evidence take {len(tokens)} tokens, more than the reader's "
                f"context of {self.max_context} allows (raise reader.context_cap)"
            )
        max_tokens = min(max_tokens, room)
        self._ensure_context(len(tokens) + max_tokens)
        self._prefill(tokens, on_progress)
        stream = self._llama.create_completion(
            prompt=tokens,
            max_tokens=max_tokens,
            temperature=0.0,
            top_k=1,
            repeat_penalty=1.0,
            stop=[s for s in {self._eos_text, "<|im_end|>", "<|endoftext|>", "<|eot_id|>"} if s],
            stream=True,
            logit_bias={i: AVOIDED_BIAS for i in self.avoided_tokens(avoid)} if avoid else None,
        )
        think = ThinkFilter()
        for chunk in stream:
            text = think.feed(chunk["choices"][0]["text"])
            if text:
                yield text
        tail = think.flush()
        if tail:
            yield tail

    def close(self) -> None:
        if self._llama is not None:
            self._llama.close()
            self._llama = None
        if self._vocab is not None:
            self._vocab.close()
            self._vocab = None  # type: ignore[assignment]  # a closed reader counts no more tokens
