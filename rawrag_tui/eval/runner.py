"""The loop every benchmark shares: import a haystack into its own store,
then put each of its questions through the real search path (``Memory.search``)
under every setting, and record what came back.

A benchmark only says what its haystacks and questions are (see
:mod:`.locomo`, :mod:`.longmemeval`). Each haystack gets its own store, so a
question can only ever retrieve from the history it is about, exactly as the
benchmark intends; stores under a given root are reused on the next run
(import is idempotent, vectors are kept).
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import toolkit
from ..errors import ReaderCrashed
from ..memory import Embedder, Memory, Progress
from ..search.types import EvidenceMessage
from . import answers
from .compare import Difference, Setting, paired_bootstrap
from .coverage import Coverage, Outcome, Summary, evidence_tokens, summarise_by_group
from .vector_cache import CachedEmbedder

Log = Callable[[str], None]


@dataclass(frozen=True)
class Question:
    id: str
    group: str
    text: str
    #: Gold ids per coverage level (message external ids, session ids...).
    gold: dict[str, frozenset[str]]
    answer: object = None
    category: int = 4  # LoCoMo category, for the answer metric
    abstention: bool = False
    date: str | None = None  # ISO date the question is asked on (for the reader)


@dataclass
class Haystack:
    """One history with the questions about it; ``write`` puts it in a file the importer reads."""

    name: str
    fmt: str
    write: Callable[[Path], Path]
    questions: list[Question]
    #: Which gold-comparable ids the retrieved messages carry, per level.
    retrieved: Callable[[Memory, Sequence[EvidenceMessage]], dict[str, set[str]]]
    #: Every message id in the history (to spot gold ids that name no message).
    message_ids: frozenset[str] = frozenset()


@dataclass
class EvalResult:
    benchmark: str
    source: str
    primary: str
    settings: list[Setting]
    outcomes: list[list[Outcome]]  # per setting, questions in the same order
    group_order: Sequence[str] = ()
    haystacks: int = 0
    messages: int = 0
    windows: int = 0
    import_s: float = 0.0
    embed_s: float = 0.0
    model_load_s: float = 0.0
    windows_embedded: int = 0  # by the model, in this run
    windows_reused: int = 0  # vectors another store of this run had already made
    reader: bool = False
    notes: list[str] = field(default_factory=list)
    resamples: int = 1000
    seed: int = 0

    def summaries(self) -> list[dict[str, Summary]]:
        return [summarise_by_group(o, self.primary, self.group_order) for o in self.outcomes]

    def comparisons(self) -> list[dict[str, Difference | None]]:
        """Per non-first setting: paired differences against the first one."""
        out = []
        base = self.outcomes[0]
        for other in self.outcomes[1:]:
            diffs: dict[str, Difference | None] = {}
            for name, pick in (("coverage_all", lambda o: o.coverage[self.primary].all),
                               ("coverage_any", lambda o: o.coverage[self.primary].any)):
                pairs = [(float(pick(a)), float(pick(b))) for a, b in zip(base, other)
                         if not a.abstention and self.primary in a.coverage and a.coverage[self.primary].scored]
                diffs[name] = paired_bootstrap([p[0] for p in pairs], [p[1] for p in pairs],
                                               resamples=self.resamples, seed=self.seed)
            if self.reader:
                pairs = [(a.score, b.score) for a, b in zip(base, other)
                         if a.score is not None and b.score is not None]
                diffs["answer_score"] = paired_bootstrap([p[0] for p in pairs], [p[1] for p in pairs],
                                                         resamples=self.resamples, seed=self.seed)
            out.append(diffs)
        return out

    def to_json(self, details: bool = False) -> dict:
        questions = len(self.outcomes[0]) if self.outcomes else 0
        data: dict[str, Any] = {
            "benchmark": self.benchmark,
            "source": self.source,
            "primary_level": self.primary,
            "questions": questions,
            "haystacks": self.haystacks,
            "messages": self.messages,
            "windows": self.windows,
            "timings": {
                "import_s": self.import_s,
                "embed_s": self.embed_s,
                "model_load_s": self.model_load_s,
                "windows_embedded": self.windows_embedded,
                "windows_reused": self.windows_reused,
                "import_s_per_question": self.import_s / questions if questions else None,
                "embed_s_per_question": self.embed_s / questions if questions else None,
            },
            "reader": self.reader,
            "bootstrap": {"resamples": self.resamples, "seed": self.seed, "confidence": 0.95},
            "notes": self.notes,
            "settings": [],
        }
        comparisons = [None, *self.comparisons()]
        for setting, summary, diffs, outcomes in zip(self.settings, self.summaries(), comparisons, self.outcomes):
            entry: dict[str, Any] = {
                "setting": setting.to_json(),
                "summary": {group: s.to_json() for group, s in summary.items()},
                "vs_first": {k: (d.to_json() if d else None) for k, d in diffs.items()} if diffs else None,
            }
            if details:
                entry["outcomes"] = [o.to_json() for o in outcomes]
            data["settings"].append(entry)
        return data


def limit_questions(haystacks: Iterable[Haystack], limit: int | None) -> list[Haystack]:
    """The first ``limit`` questions in file order; haystacks left with none are dropped."""
    chosen: list[Haystack] = []
    left = limit
    for h in haystacks:
        if left is not None and left <= 0:
            break
        questions = h.questions if left is None else h.questions[:left]
        if left is not None:
            left -= len(questions)
        if questions:
            chosen.append(dataclasses.replace(h, questions=questions))
    return chosen


def store_name(name: str) -> str:
    """A directory name for a haystack id (ids come from the benchmark file)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name).strip(".")
    return safe or "haystack"


def run(
    benchmark: str,
    source: str,
    haystacks: Sequence[Haystack],
    settings: Sequence[Setting],
    *,
    primary: str,
    group_order: Sequence[str] = (),
    root: Path | None = None,
    embedder: Embedder | None = None,
    reader: bool = False,
    log: Log | None = None,
    progress: Progress | None = None,
    resamples: int = 1000,
    seed: int = 0,
) -> EvalResult:
    """Evaluate ``settings`` on ``haystacks``; stores live under ``root`` (default: a temporary folder)."""
    settings = list(settings)
    result = EvalResult(benchmark, source, primary, settings, [[] for _ in settings], group_order=group_order,
                        reader=reader, resamples=resamples, seed=seed)
    scorer = None
    # The reader the user chose (their home's [reader], or RAWRAG_READER_*),
    # the bundled one or a server, reads in every evaluation store too.
    chosen: dict = {}
    if reader:
        answers.require_reader()  # before minutes of importing and embedding, not at the first question
        scorer = answers.load_scorer()
        chosen = {"reader": toolkit.reader_choice()}
    needs_vectors = any(s.mode != "lexical" for s in settings)
    cache: CachedEmbedder | None = None  # one model, and each distinct window embedded once, for every store
    with ExitStack() as stack:
        if root is None:
            root = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="rawrag-eval-")))
        used: set[str] = set()
        for number, haystack in enumerate(haystacks, start=1):
            name = store_name(haystack.name)
            if name in used:  # two ids that read the same as folder names must not share a store
                name = f"{name}-{number}"
            used.add(name)
            home = Path(root) / name
            home.mkdir(parents=True, exist_ok=True, mode=0o700)
            if needs_vectors and cache is None:
                if embedder is None:
                    started = time.perf_counter()
                    embedder = toolkit.load_embedder(home)
                    result.model_load_s = time.perf_counter() - started
                cache = CachedEmbedder(embedder)
            with Memory.open(home, embedder=cache, **chosen) as mem:
                started = time.perf_counter()
                report = mem.import_path(haystack.write(home), haystack.fmt, embed=False)
                result.import_s += time.perf_counter() - started
                if needs_vectors:
                    started = time.perf_counter()
                    mem.index(progress)
                    result.embed_s += time.perf_counter() - started
                counts = mem.counts()
                result.haystacks += 1
                result.messages += counts["messages"]
                result.windows += counts["windows"]
                if log:
                    log(f"[{number}/{len(haystacks)}] {haystack.name}: {counts['messages']} messages, "
                        f"{counts['windows']} windows ({'reused' if report.already_imported else 'imported'}), "
                        f"{len(haystack.questions)} questions")
                configured = mem.settings.retrieval
                for index, setting in enumerate(settings):
                    overrides = {k: v for k, v in setting.retrieval_overrides().items() if v is not None}
                    # One facade per store, settings swapped: models load once, search and reader agree.
                    mem.settings = dataclasses.replace(
                        mem.settings, retrieval=dataclasses.replace(configured, **overrides))
                    for q in haystack.questions:
                        result.outcomes[index].append(_ask_one(mem, haystack, q, scorer))
    crashes = [o.error for outcomes in result.outcomes for o in outcomes if o.error]
    if crashes:
        result.notes.append(f"the reader crashed on {len(crashes)} question(s), scored 0: {crashes[0]}")
    if cache is not None:
        result.windows_embedded, result.windows_reused = cache.misses, cache.hits
    else:
        result.notes.append("lexical only: nothing was embedded")
    return result


def _ask_one(mem: Memory, haystack: Haystack, q: Question, scorer) -> Outcome:
    started = time.perf_counter()
    found = mem.search_for_answer(q.text)
    search_s = time.perf_counter() - started
    messages = found.evidence()
    retrieved = haystack.retrieved(mem, messages)
    outcome = Outcome(
        question_id=q.id,
        group=q.group,
        coverage={level: Coverage.of(gold, retrieved.get(level, ())) for level, gold in q.gold.items()},
        evidence_tokens=evidence_tokens(messages),
        search_s=search_s,
        abstention=q.abstention,
    )
    if scorer is not None:
        try:
            # The very evidence whose coverage was just measured: one search per question.
            read = answers.ask(mem, q.text, q.date, result=found)
        except ReaderCrashed as exc:
            # Scored as a wrong answer, left out of the timings; the next question starts a fresh reader process.
            text, outcome.error = "", str(exc)
        else:
            text, outcome.read_s, outcome.first_token_s = read
        outcome.answer = text
        if q.abstention:
            outcome.score = 1.0 if answers.abstains(text) else 0.0
        else:
            outcome.score = float(scorer(text, q.answer, q.category))
    return outcome
