"""Did retrieval reach the evidence? Per-question outcomes and their summary.

Coverage is measured on what the reader would actually see: the expanded
messages of the top-K windows (``SearchResult.evidence()``), not the window
texts. A question is *covered* when every gold evidence id is among them and
*touched* when at least one is. Questions without parseable gold evidence
cannot be covered or missed: they are counted and left out of coverage.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

from .. import toolkit
from ..display import message_line
from ..search.types import EvidenceMessage

#: LoCoMo dialogue ids; some gold entries hold two ("D8:6; D9:17") or stray text.
LOCOMO_ID = re.compile(r"D\d+:\d+")


def parse_locomo_evidence(entries: Iterable[object] | None) -> frozenset[str]:
    """Every ``D<session>:<turn>`` id in a LoCoMo ``evidence`` list, malformed entries included."""
    found: set[str] = set()
    for entry in entries or ():
        if isinstance(entry, str):
            found.update(normalise_locomo_id(i) for i in LOCOMO_ID.findall(entry))
    return frozenset(found)


def normalise_locomo_id(dia_id: str) -> str:
    """``D30:05`` -> ``D30:5``: the dialogue ids in the conversations carry no leading zeros."""
    session, turn = dia_id[1:].split(":")
    return f"D{int(session)}:{int(turn)}"


@dataclass(frozen=True)
class Coverage:
    """How many of a question's gold ids the retrieved messages hold."""

    needed: int
    found: int

    @classmethod
    def of(cls, gold: Iterable[str], retrieved: Iterable[str]) -> Coverage:
        gold_set = set(gold)
        return cls(len(gold_set), len(gold_set & set(retrieved)))

    @property
    def scored(self) -> bool:
        return self.needed > 0

    @property
    def all(self) -> bool:
        return self.scored and self.found == self.needed

    @property
    def any(self) -> bool:
        return self.found > 0


def evidence_lines(messages: Sequence[EvidenceMessage]) -> str:
    """The evidence exactly as serialised for windows and the reader, one line per message."""
    return "\n".join(message_line(m.timestamp, m.speaker, m.text, m.captions) for m in messages)


def evidence_tokens(messages: Sequence[EvidenceMessage]) -> int:
    """cl100k tokens of the serialised evidence: what a reader would be handed."""
    return toolkit.count_tokens(evidence_lines(messages)) if messages else 0


@dataclass
class Outcome:
    """One question under one retrieval setting."""

    question_id: str
    group: str  # LoCoMo category name, LongMemEval question type
    coverage: dict[str, Coverage]  # per level: "evidence" (LoCoMo); "session", "turn" (LongMemEval)
    evidence_tokens: int
    search_s: float
    abstention: bool = False  # a question whose right answer is "not in the history"
    answer: str | None = None
    score: float | None = None  # answer score (token F1 of the plain text, or 1/0 for abstention)
    read_s: float | None = None  # reading, start to last token (None: no reading, or it crashed)
    first_token_s: float | None = None  # reading, start to the first streamed piece
    #: Why there is no answer (the reader's process crashed: one line), scored 0.
    error: str | None = None

    def to_json(self) -> dict:
        d = asdict(self)
        d["coverage"] = {k: {"needed": c.needed, "found": c.found} for k, c in self.coverage.items()}
        return d


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class Summary:
    """Aggregates over a set of outcomes (a category, or everything)."""

    questions: int
    abstentions: int
    coverage: dict[str, dict[str, float | int | None]] = field(default_factory=dict)
    evidence_tokens_mean: float | None = None
    search_ms_mean: float | None = None
    search_ms_p50: float | None = None
    search_ms_p95: float | None = None
    read_s_mean: float | None = None
    first_token_s_mean: float | None = None
    #: Mean seconds per question read, search + read (crashed questions left out).
    question_s_mean: float | None = None
    reader_crashes: int = 0  # questions whose reader process crashed (scored 0)
    answer_score: float | None = None  # mean score over answerable questions (LoCoMo: token F1)
    utilisation: float | None = None  # mean score over questions covered at the primary level
    abstention_accuracy: float | None = None

    def to_json(self) -> dict:
        return asdict(self)


def summarise(outcomes: Sequence[Outcome], primary: str) -> Summary:
    """Coverage per level (share of scored questions fully / partly covered),
    evidence size, latency, and, when answers were scored, accuracy and
    utilisation (accuracy where the evidence was all there)."""
    answerable = [o for o in outcomes if not o.abstention]
    summary = Summary(questions=len(outcomes), abstentions=len(outcomes) - len(answerable))
    levels = sorted({level for o in answerable for level in o.coverage}, key=lambda lv: (lv != primary, lv))
    for level in levels:
        scored = [o.coverage[level] for o in answerable if level in o.coverage and o.coverage[level].scored]
        summary.coverage[level] = {
            "scored": len(scored),
            "unscored": len(answerable) - len(scored),
            "all": _mean([float(c.all) for c in scored]),
            "any": _mean([float(c.any) for c in scored]),
        }
    summary.evidence_tokens_mean = _mean([o.evidence_tokens for o in outcomes])
    searches = [o.search_s * 1000 for o in outcomes]
    summary.search_ms_mean = _mean(searches)
    summary.search_ms_p50 = _percentile(searches, 0.5)
    summary.search_ms_p95 = _percentile(searches, 0.95)
    read = [o for o in outcomes if o.read_s is not None]
    summary.read_s_mean = _mean([o.read_s for o in outcomes if o.read_s is not None])
    summary.first_token_s_mean = _mean([o.first_token_s for o in read if o.first_token_s is not None])
    summary.question_s_mean = _mean([o.search_s + o.read_s for o in outcomes if o.read_s is not None])
    summary.reader_crashes = sum(1 for o in outcomes if o.error)
    scored_answers = [o for o in answerable if o.score is not None]
    summary.answer_score = _mean([o.score for o in answerable if o.score is not None])
    covered = [o for o in scored_answers if primary in o.coverage and o.coverage[primary].all]
    summary.utilisation = _mean([o.score for o in covered if o.score is not None])
    summary.abstention_accuracy = _mean([o.score for o in outcomes if o.abstention and o.score is not None])
    return summary


def summarise_by_group(outcomes: Sequence[Outcome], primary: str, order: Sequence[str] = ()) -> dict[str, Summary]:
    """One summary per group (in ``order`` first, then as met), plus ``"all"``."""
    groups: dict[str, list[Outcome]] = {name: [] for name in order}
    for o in outcomes:
        groups.setdefault(o.group, []).append(o)
    out = {name: summarise(items, primary) for name, items in groups.items() if items}
    out["all"] = summarise(outcomes, primary)
    return out
