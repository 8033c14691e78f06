"""Answering a question from a search result: pack, prompt, read, cite.

The reader is passed as a zero-argument factory so that a question with no
evidence (an empty store, or nothing found) is answered without loading a
model at all: loading the default reader takes seconds and half a gigabyte.

Citations are the ``[n]`` the reader writes, mapped back to the numbered
evidence messages. A small reader sometimes invents numbers; those are cut
from the answer as it streams (so what the user sees and what is returned
agree) and counted in ``dropped_citations``.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field

from ..models.protocols import Reader, Warmed
from .later_values import later_value
from .packing import PackedEvidence, pack_evidence
from .prompts import NOTHING_FOUND, build_prompt, fixed_prefix, is_abstention
from .selection import select_evidence
from .stated_dates import second_pass
from .types import EvidenceMessage, SearchResult

ReaderFactory = Callable[[], Reader]
TokenCallback = Callable[[str], None]
EvidenceCallback = Callable[[PackedEvidence], None]
#: ``("read", tokens_read, prompt_tokens)`` while the reader reads the prompt.
ProgressCallback = Callable[[str, int, "int | None"], None]

#: Tokens kept free for the answer when the caller does not say.
DEFAULT_ANSWER_TOKENS = 256

#: Share of the first-token wait the evidence may fill; the rest absorbs a
#: prompt speed measured a little high and the first token's own step.
_WAIT_SHARE = 0.9
#: Tokens the chat template adds after the user's text (its end-of-turn and
#: the assistant's cue), never cached ahead.
_TEMPLATE_TAIL = 8


def after_prefix(frame_tokens: int, count_tokens: Callable[[str], int], style: str) -> int:
    """Prompt tokens besides the evidence still to read once the fixed prefix
    is cached: of ``frame_tokens`` (the prompt with no evidence), the date,
    the question and the template's tail."""
    return frame_tokens - count_tokens(fixed_prefix(style)) + _TEMPLATE_TAIL


def timed_budget(budget: int, warmed: Warmed, seconds: float, floor: int, rest_tokens: int) -> int:
    """The evidence a reader reading ``warmed.rate`` prompt tokens/s gets
    through in ``seconds`` from the start of reading, after what it already
    spent on the prefix and the ``rest_tokens`` of prompt it must still read
    besides the evidence (date, question, template tail). Never below
    ``floor`` (a slower machine waits longer rather than answer from almost
    nothing), never above ``budget``; ``budget`` itself when the speed is
    unknown."""
    if warmed.rate <= 0:
        return budget
    affordable = int(warmed.rate * (seconds * _WAIT_SHARE - warmed.seconds)) - rest_tokens
    return min(budget, max(floor, affordable))


#: ``[3]`` or ``[3, 9]``; four digits are a year ("[2022]"), never a message number.
_CITATION = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")


@dataclass(frozen=True)
class Citation:
    n: int
    external_id: str
    conversation: str
    timestamp: str | None
    speaker: str
    text: str
    #: "cited": the reader wrote [n]; "matched": a reader too small to cite
    #: (prompt "plain") answered, and this message shares the answer's words;
    #: "stated": the message states the date that replaced the reader's answer.
    how: str = "cited"

    @classmethod
    def of(cls, n: int, m: EvidenceMessage, how: str = "cited") -> Citation:
        return cls(n, m.external_id, m.conversation, m.timestamp, m.speaker, m.text, how)


#: At most this many messages are matched to an uncited answer.
MATCHED_SOURCES = 2


def match_sources(answer: str, question: str, messages: list[EvidenceMessage]) -> list[int]:
    """1-based numbers of the evidence messages that best support ``answer``.

    Ranked by the answer's own words (those not already in the question),
    then by the question's words (speaker included), then recency: the newer
    message wins a tie, as the newer state of a changing fact should. A
    message must hold every number the answer states: "4 May" is not
    supported by a message that says "3 May", and such a message is never
    shown as the answer's source.
    """
    from .highlight import query_terms, word_stems
    from .relative_dates import annotate

    asked = query_terms(question)
    said = query_terms(answer) - asked
    if not said:
        return []
    numbers = {w for w in said if w.isdigit()}
    scored = []
    for i, m in enumerate(messages):
        # Relative times resolved: "yesterday (7 May 2023)" supports "7 May 2023".
        words = word_stems(f"{m.speaker} {annotate(m.text, m.timestamp)} {' '.join(m.captions)}")
        if words & said and numbers <= words:
            scored.append((len(words & said), len(words & asked), i))
    best = sorted(scored, key=lambda s: (-s[0], -s[1], -s[2]))[:MATCHED_SOURCES]
    return sorted(i + 1 for *_, i in best)


@dataclass
class Answer:
    question: str
    answer: str
    citations: list[Citation] = field(default_factory=list)
    dropped_citations: int = 0
    evidence_tokens: int = 0
    #: The evidence budget this question had: the setting's, or less where
    #: the reader's measured prompt speed would not read it in time.
    evidence_budget: int = 0
    #: The reader's prompt speed, tokens/s, as it measured it (0: unknown).
    prompt_rate: float = 0.0
    #: The whole prompt (evidence, rules, question) in the reader's tokens.
    prompt_tokens: int = 0
    dropped_windows: int = 0
    #: Messages of the kept windows the reader was not given (selection, budget).
    cut_messages: int = 0
    #: Earlier messages left out because a later one changed what they said.
    superseded: int = 0
    #: A plain answer (not an abstention) that no evidence message supports:
    #: the faces say it may be a guess.
    unsupported: bool = False
    #: The reader's own answer when a second pass replaced it: a "when"
    #: answer no message states, replaced by the date the latest message on
    #: the subject states (retrieval/stated_dates.py), or a value a later
    #: message on the subject changed (retrieval/later_values.py). Empty when kept.
    reader_said: str = ""
    #: Why it was replaced, in words the faces show after the reader's answer.
    correction: str = ""
    #: Seconds: search, pack, load (the reader factory), warm (the fixed
    #: prefix read or loaded ahead), read and first_token (from the start of
    #: reading, the prefix included, to the end / the first streamed piece).
    timings: dict[str, float] = field(default_factory=dict)
    #: The numbered evidence the reader saw (``evidence[n - 1]`` is ``[n]``).
    evidence: list[EvidenceMessage] = field(default_factory=list)
    evidence_text: str = ""

    def plain_text(self) -> str:
        """The answer without its ``[n]`` markers (what answer metrics score)."""
        return _tidy(_CITATION.sub("", self.answer))

    def to_json(self) -> dict:
        return {
            "question": self.question,
            "answer": self.answer,
            "citations": [asdict(c) for c in self.citations],
            "dropped_citations": self.dropped_citations,
            "evidence_tokens": self.evidence_tokens,
            "evidence_budget": self.evidence_budget,
            "prompt_rate": round(self.prompt_rate, 1),
            "prompt_tokens": self.prompt_tokens,
            "dropped_windows": self.dropped_windows,
            "cut_messages": self.cut_messages,
            "superseded": self.superseded,
            "unsupported": self.unsupported,
            "reader_said": self.reader_said,
            "correction": self.correction,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }


class CitationFilter:
    """Streams text through, holding back a ``[...`` until it is closed, so a
    citation to a number that is not in the evidence can be removed before
    anyone sees it. ``[3, 9]`` with only 3 valid becomes ``[3]``; a citation
    removed whole takes the space before it along (``x [9].`` -> ``x.``), so
    trailing whitespace is held until the next text shows whether it stays."""

    _MAX_HELD = 24  # longer than any citation group a reader writes

    def __init__(self, valid: int):
        self.valid = valid
        self.cited: list[int] = []
        self.dropped = 0
        self._held = ""
        self._space = ""

    def feed(self, piece: str) -> str:
        self._held += piece
        out: list[str] = []
        while self._held:
            start = self._held.find("[")
            if start < 0:
                out.append(self._emit(self._held))
                self._held = ""
                break
            out.append(self._emit(self._held[:start]))
            self._held = self._held[start:]
            end = self._held.find("]")
            if end < 0:
                if len(self._held) > self._MAX_HELD or not re.fullmatch(r"\[[\d,\s]*", self._held):
                    out.append(self._emit(self._held[0]))  # not a citation: let the bracket through
                    self._held = self._held[1:]
                    continue
                break  # maybe a citation still arriving
            match = _CITATION.fullmatch(self._held[: end + 1])
            if match:
                kept = self._rewrite(match)
                if kept:
                    out.append(self._emit(kept))
                else:
                    self._space = ""  # the citation goes, and the space before it
                self._held = self._held[end + 1 :]
            else:
                out.append(self._emit(self._held[0]))
                self._held = self._held[1:]
        return "".join(out)

    def flush(self) -> str:
        rest, self._held = self._held, ""
        return self._emit(rest)

    def _emit(self, text: str) -> str:
        if not text:
            return ""
        text = self._space + text
        body = text.rstrip(" \t")
        self._space = text[len(body) :]
        return body

    def _rewrite(self, match: re.Match) -> str:
        numbers = [int(x) for x in match.group(1).split(",")]
        good = [n for n in numbers if 1 <= n <= self.valid]
        self.dropped += len(numbers) - len(good)
        for n in good:
            if n not in self.cited:
                self.cited.append(n)
        return "[" + ", ".join(str(n) for n in good) + "]" if good else ""


def _tidy(text: str) -> str:
    """Whitespace left where an invented citation was cut: ``x  .`` -> ``x.``."""
    text = re.sub(r"[ \t]+([.,;:!?])", r"\1", text)
    return re.sub(r"[ \t]{2,}", " ", text).strip()


def _stream(pieces: Iterable[str], filt: CitationFilter, on_token: TokenCallback | None, clock: dict) -> Iterator[str]:
    for piece in pieces:
        if "first_token" not in clock:
            clock["first_token"] = time.perf_counter() - clock["start"]
        text = filt.feed(piece)
        if text:
            if on_token:
                on_token(text)
            yield text
    tail = filt.flush()
    if tail:
        if on_token:
            on_token(tail)
        yield tail


def answer_question(
    question: str,
    result: SearchResult,
    reader: ReaderFactory,
    *,
    date: str | dt.date | None = None,
    on_token: TokenCallback | None = None,
    on_evidence: EvidenceCallback | None = None,
    on_progress: ProgressCallback | None = None,
    answer_tokens: int = DEFAULT_ANSWER_TOKENS,
    prompt_style: str = "cited",
    evidence_tokens: int = 0,
    select: str = "messages",
    first_token_seconds: float = 0.0,
    min_evidence_tokens: int = 256,
) -> Answer:
    """Answer ``question`` from ``result``'s evidence with the reader ``reader()`` makes.

    ``date`` is the day the question is asked (ISO string or date; default
    today); ``on_token`` receives the answer's text as it streams;
    ``on_evidence`` the packed evidence, before the reader starts;
    ``on_progress`` how much of the prompt the reader has read;
    ``prompt_style`` is ``reader.prompt`` (see retrieval/prompts.py);
    ``evidence_tokens`` bounds the evidence (0: only the reader's context
    does); ``select`` is ``reader.select`` (messages or whole windows);
    ``first_token_seconds`` > 0 sizes the evidence to what the reader reads
    in that time on this machine (``timed_budget``), ``min_evidence_tokens``
    its floor.
    """
    timings = {"search": float(result.timings.get("total", sum(result.timings.values())))}
    if not any(h.messages for h in result.hits):
        if on_token:
            on_token(NOTHING_FOUND)
        return Answer(question, NOTHING_FOUND, timings=timings | {"pack": 0.0, "read": 0.0})

    started = time.perf_counter()
    model = reader()
    timings["load"] = time.perf_counter() - started

    # The first-token clock starts here: reading the fixed prefix ahead is
    # part of the wait, and so is choosing the evidence after it.
    clock = {"start": time.perf_counter()}
    frame_tokens = model.count_tokens(build_prompt(question, "", date, prompt_style))
    budget = max(model.context_tokens - frame_tokens - answer_tokens, 0)
    if evidence_tokens > 0:
        budget = min(budget, evidence_tokens)
    rate = 0.0
    if first_token_seconds > 0:
        warmed = model.warm(fixed_prefix(prompt_style), frame_tokens + budget + answer_tokens + _TEMPLATE_TAIL)
        timings["warm"] = warmed.seconds
        rest = after_prefix(frame_tokens, model.count_tokens, prompt_style)
        budget = timed_budget(budget, warmed, first_token_seconds, min_evidence_tokens, rest)
        rate = warmed.rate
    started = time.perf_counter()
    if select == "messages":
        packed: PackedEvidence = select_evidence(result.hits, question, budget, model.count_tokens)
    elif select == "windows":
        packed = pack_evidence(result.hits, budget, model.count_tokens)
    else:
        raise ValueError(f"reader.select: {select!r} is neither 'messages' nor 'windows'")
    prompt = build_prompt(question, packed.text, date, prompt_style)
    prompt_tokens = model.count_tokens(prompt)
    timings["pack"] = time.perf_counter() - started
    if on_evidence:
        on_evidence(packed)

    filt = CitationFilter(len(packed.messages))
    def reading(done: int, total: int) -> None:
        if on_progress:
            on_progress("read", done, total)

    text = "".join(_stream(model.answer(prompt, max_tokens=answer_tokens, on_progress=reading),
                           filt, on_token, clock))
    timings["read"] = time.perf_counter() - clock["start"]
    timings["first_token"] = clock.get("first_token", timings["read"])

    answer = _tidy(text)
    reader_said = correction = ""
    plain = _CITATION.sub("", answer)
    stated = None if is_abstention(answer) else second_pass(question, plain, packed.messages)
    if stated is not None:
        correction = f"no message says {answer!r}; [{stated.message}], the latest message on this subject, says this"
    else:
        stated = None if is_abstention(answer) else later_value(question, plain, packed.messages)
        if stated is not None:
            correction = (f"{answer!r} is what an earlier message said; [{stated.message}], "
                          "a later message on this subject, says this")
    if stated is not None:
        reader_said, answer = answer, stated.text
        filt.cited = [stated.message]
    citations = [Citation.of(n, packed.messages[n - 1], "stated" if stated else "cited") for n in filt.cited]
    unsupported = False
    if not citations and prompt_style == "plain" and not is_abstention(answer):
        matched = match_sources(answer, question, packed.messages)
        citations = [Citation.of(n, packed.messages[n - 1], "matched") for n in matched]
        unsupported = bool(answer) and not matched
    return Answer(
        question=question,
        answer=answer,
        citations=citations,
        dropped_citations=filt.dropped,
        evidence_tokens=packed.tokens,
        evidence_budget=budget,
        prompt_rate=rate,
        prompt_tokens=prompt_tokens,
        dropped_windows=packed.dropped_windows,
        cut_messages=packed.cut_messages,
        superseded=len(packed.superseded),
        unsupported=unsupported,
        reader_said=reader_said,
        correction=correction,
        timings=timings,
        evidence=packed.messages,
        evidence_text=packed.text,
    )
