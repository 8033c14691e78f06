"""Answering a question from a search result: select, prompt, read, check, cite.

The reader is passed as a zero-argument factory so that a question with no
evidence (an empty store, or nothing found) is answered without loading a
model at all: loading the default reader takes seconds and half a gigabyte.
The pieces live beside this module: ``budget`` (how much evidence),
``selection`` and ``packing`` (which evidence, numbered), ``prompts``,
``citations`` (the ``[n]`` the reader writes) and ``checks/`` (what is
checked once it has answered).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from ..lang import asks_about_now, asks_yes_no
from ..models.protocols import AvoidingReader, Reader
from ..progress import Progress
from ..search.types import EvidenceMessage, SearchResult
from ..settings import ANSWER_CHECKS
from . import (
    avoided_reading,
    chat_partner,
    earlier_reading,
    ended_reading,
    later_reading,
    nearest_reading,
    own_reading,
    someone_else,
    yes_no_reading,
)
from .budget import TEMPLATE_TAIL, after_prefix, timed_budget
from .checks import first_correction
from .checks.support import match_sources
from .citations import CITATION, CitationFilter, only_citations, tidy
from .evidence import EvidenceViews
from .history import History, without_names
from .packing import PackedEvidence, pack_evidence
from .prompts import NOT_IN_HISTORY, NOT_MENTIONED, NOTHING_FOUND, build_prompt, fixed_prefix, is_abstention
from .selection import select_evidence
from .timeline import asks_about_earlier, asks_about_past
from .types import Answer, Citation
from .unknown import unknown_names

ReaderFactory = Callable[[], Reader]
TokenCallback = Callable[[str], None]
EvidenceCallback = Callable[[PackedEvidence], None]

#: Tokens kept free for the answer when the caller does not say.
DEFAULT_ANSWER_TOKENS = 256


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


def read_by(model: Reader) -> dict[str, str]:
    """Where ``model`` reads (its ``read_by``; a reader without one, such as a
    caller's own or a test double, is named by its ``name``, else its class)."""
    where = getattr(model, "read_by", None)
    if isinstance(where, dict):
        return dict(where)
    return {"backend": "other", "model": getattr(model, "name", type(model).__name__), "endpoint": "local"}


def answer_question(
    question: str,
    result: SearchResult,
    reader: ReaderFactory,
    *,
    date: str | dt.date | None = None,
    on_token: TokenCallback | None = None,
    on_evidence: EvidenceCallback | None = None,
    on_progress: Progress | None = None,
    checks: Sequence[str] | None = None,  # [answer] checks: the checks that may replace the reader's answer
    answer_tokens: int = DEFAULT_ANSWER_TOKENS,
    prompt_style: str = "cited",
    evidence_tokens: int = 0,
    select: str = "messages",
    anchors: str = "close",
    hints: bool = True,
    first_token_seconds: float = 0.0,
    min_evidence_tokens: int = 256,
    history: History | None = None,
    drop_superseded: bool = True,
) -> Answer:
    """Answer ``question`` from ``result``'s evidence with the reader ``reader()`` makes.

    ``date`` is the day the question is asked (ISO string or date; default
    today); ``on_token`` receives the answer's text as it streams;
    ``on_evidence`` the packed evidence, before the reader starts;
    ``on_progress`` how much of the prompt the reader has read;
    ``prompt_style`` is ``reader.prompt`` (see answer/prompts.py);
    ``evidence_tokens`` bounds the evidence (0: only the reader's context
    does); ``select`` is ``reader.select`` (messages or whole windows),
    ``anchors`` how messages are found by meaning ("close" or "wide":
    ``reader.anchors`` resolved, answer/options.py); ``hints``: the
    question's words for the small reader in its prompt (``reader.hints``
    resolved, answer/prompts.py ``build_prompt``);
    ``first_token_seconds`` > 0 sizes the evidence to what the reader reads
    in that time on this machine (``timed_budget``), ``min_evidence_tokens``
    its floor; ``history`` (answer/history.py) is where later messages on the
    evidence's subjects and the names the question asks about are looked up;
    ``drop_superseded``: a question about now reads only the latest message of
    a subject (answer/selection.py), else every version, the latest marked.
    """
    timings = {"search": float(result.timings.get("total", sum(result.timings.values())))}
    if not any(h.messages for h in result.hits):
        if on_token:
            on_token(NOTHING_FOUND)
        return Answer(question, NOTHING_FOUND, timings=timings | {"pack": 0.0, "read": 0.0})
    unknown = unknown_names(question, history) if history is not None else []
    if unknown:  # a name no message holds: the nearest person's fact would be a wrong answer
        said = NOT_MENTIONED.format(names=", ".join(f"'{n}'" for n in unknown))
        if on_token:
            on_token(said)
        return Answer(question, said, timings=timings | {"pack": 0.0, "read": 0.0})

    started = time.perf_counter()
    model = reader()
    timings["load"] = time.perf_counter() - started

    # The first-token clock starts here: reading the fixed prefix ahead is
    # part of the wait, and so is choosing the evidence after it.
    clock = {"start": time.perf_counter()}
    say_date = asks_about_now(question)  # else today's date is not the reader's to write
    frame_tokens = model.count_tokens(build_prompt(question, "", date, prompt_style, say_date, hints))
    budget = max(model.context_tokens - frame_tokens - answer_tokens, 0)
    if evidence_tokens > 0:
        budget = min(budget, evidence_tokens)
    rate = 0.0
    if first_token_seconds > 0:
        warmed = model.warm(fixed_prefix(prompt_style), frame_tokens + budget + answer_tokens + TEMPLATE_TAIL)
        timings["warm"] = warmed.seconds
        rest = after_prefix(frame_tokens, model.count_tokens, prompt_style)
        budget = timed_budget(budget, warmed, first_token_seconds, min_evidence_tokens, rest)
        rate = warmed.rate
    started = time.perf_counter()
    views = EvidenceViews(history.same_people if history is not None else None)
    if select == "messages":
        packed: PackedEvidence = select_evidence(result.hits, question, budget, model.count_tokens, views,
                                                   history, drop_superseded, wide=anchors == "wide")
    elif select == "windows":
        packed = pack_evidence(result.hits, budget, model.count_tokens, views)
    else:
        raise ValueError(f"reader.select: {select!r} is neither 'messages' nor 'windows'")
    prompt = build_prompt(question, packed.text, date, prompt_style, say_date, hints)
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

    answer = tidy(text)
    reader_said = correction = ""
    # The timeline decides a question names an earlier state; without one (whole
    # windows, no history) the question's own words and years do.
    earlier = packed.earlier or asks_about_earlier(question, ())
    corrected = None
    if filt.cited and only_citations(answer) and (checks is None or checks):
        # "[2]" and nothing else: asked to cite, a small reader names the message that
        # answers and writes no words of it (docs/answers.md). That message is the
        # answer, word for word, and the checks leave a quoted message as it is.
        # With the checks off ("[answer] checks = []") the reader's words stand.
        reader_said, answer = answer, packed.messages[filt.cited[0] - 1].text.strip()
        correction = f'the reader answered "{reader_said}" alone: the message it names'
        filt.cited = filt.cited[:1]
    else:
        corrected = first_correction(question, answer, CITATION.sub("", answer), packed.messages, views,
                                     checks, date, earlier, packed.latest, packed.replaced)
    if corrected is not None:
        reader_said, answer, correction = answer, corrected.correction.text, corrected.why
        filt.cited = [corrected.correction.message] if corrected.correction.message else []
    how = "stated" if corrected else "cited"
    active = ANSWER_CHECKS if checks is None else checks
    past = earlier or packed.past or asks_about_past(question, ())
    quoted = bool(reader_said) and corrected is None
    read_too: list[EvidenceMessage] = []  # messages a second reading read beyond the evidence
    # A second reading of part of the evidence (answer/later_reading.py,
    # answer/earlier_reading.py, answer/yes_no_reading.py, answer/nearest_reading.py): where the first took a
    # state the question did not ask for. Each compares lines by meaning, so needs the history.
    stands = corrected is None and not quoted and not is_abstention(answer) and not past
    # A yes-or-no question about now is read again over the latest statement
    # (answer/yes_no_reading.py): its "Yes" is no value a later message could change.
    # So is one whose answer only repeated the question ("Biscuit", asked whether her
    # cat is still called Biscuit): "not in your history" stays unless that reading answers.
    echoed = corrected is not None and is_abstention(answer)
    yes_no_again = (yes_no_reading.NAME in active and not past and asks_yes_no(question) and (stands or echoed))
    now_again = (bool({later_reading.NAME, ended_reading.NAME, own_reading.NAME} & set(active)) and stands
                 and not yes_no_again)
    # One that only repeated the question is read again over the closest messages
    # (answer/nearest_reading.py): "Utrecht", asked which neighbourhood of Utrecht.
    repeated_again = nearest_reading.NAME in active and echoed and not past and not yes_no_again
    before_again = (earlier_reading.NAME in active and earlier and not quoted
                    and (corrected is None or is_abstention(answer)))
    if history is not None and (now_again or before_again or yes_no_again or repeated_again):
        known = history

        def read_again(evidence: str) -> str:
            again_prompt = build_prompt(question, evidence, date, prompt_style, say_date, hints)
            second = CitationFilter(0)  # its [n] number other messages: dropped
            return tidy("".join(_stream(model.answer(again_prompt, max_tokens=answer_tokens, on_progress=reading),
                                        second, None, {"start": time.perf_counter()})))

        def closeness(messages: list[EvidenceMessage]) -> np.ndarray:
            asked = without_names(question, {m.speaker for m in packed.messages})
            return known.embed(messages, speaker=False) @ known.embed_question(asked)

        first = CITATION.sub("", reader_said or answer).strip()
        # Evidence numbers of the messages a reading answers from (read_too's are added after them).
        number = {m.message_id: n for n, m in enumerate(packed.messages, 1)}

        def numbered(m: EvidenceMessage) -> int:
            """``m``'s evidence number; a message read again that the evidence did not hold is numbered after it."""
            if m.message_id not in number:
                read_too.append(m)
                number[m.message_id] = len(packed.messages) + len(read_too)
            return number[m.message_id]
        started = time.perf_counter()
        if yes_no_again:
            yes_no = yes_no_reading.read_yes_no(question, first, packed.messages, views, read_again, closeness,
                                                packed.latest, known.same_people, packed.replaced)
            if yes_no is not None:
                reader_said, answer = reader_said or answer, yes_no.text
                correction = yes_no_reading.explain(first, yes_no)
                filt.cited, how = yes_no.messages, "read"
        elif repeated_again:
            nearest = nearest_reading.read_repeated(question, first, packed.messages, views, read_again, closeness,
                                                    packed.latest)
            if nearest is not None:
                numbers = [number[m.message_id] for m in nearest.said_by]
                reader_said, answer = reader_said or answer, nearest.text
                correction = nearest_reading.explain(first, nearest, numbers)
                filt.cited, how = numbers, "matched"
        elif now_again:
            sources = filt.cited or match_sources(answer, question, packed.messages, views)
            later = None
            if later_reading.NAME in active:
                later = later_reading.read_later(question, first, sources, packed.messages, views,
                                                 read_again, closeness, packed.latest, known.same_people)
            if later is not None:
                reader_said, answer, correction = answer, later.text, later_reading.explain(first, later)
                filt.cited, how = later.messages, "matched"
            else:
                ended = None
                if ended_reading.NAME in active:
                    # The answer's newest line says it ended: that line again, the answer hidden.
                    def lines_before(line: EvidenceMessage, n: int) -> list[EvidenceMessage]:
                        return known.messages_before(line.conversation_id, line.seq, n)

                    ended = ended_reading.read_ended(question, first, packed.messages, views, read_again,
                                                     packed.latest, known.same_people, lines_before)
                    if ended is not None:
                        said_at = None if ended.said_by is None else numbered(ended.said_by)
                        at = ended.message if said_at is None else said_at
                        correction = ended_reading.explain(first, ended, said_at)
                        reader_said, answer = answer, ended.text
                        filt.cited, how = [at], "matched"
                if ended is None and own_reading.NAME in active:
                    # Only someone else's lines: the asked person's own, read again.
                    own = own_reading.read_own(question, first, [packed.messages[n - 1] for n in sources],
                                               packed.messages, views, read_again, packed.latest)
                    if own is not None:
                        numbers = [number[m.message_id] for m in own.said_by]
                        replies = [n for n in sources if packed.messages[n - 1].message_id in own.replies]
                        correction = own_reading.explain(first, sources, own, numbers, replies)
                        reader_said, answer = answer, own.text
                        filt.cited, how = numbers, "matched"
        else:
            def just_before(anchor: EvidenceMessage) -> list[EvidenceMessage]:
                return known.earlier_messages(anchor, earlier_reading.EARLIER_MESSAGES)

            def fits(evidence: str) -> bool:
                return model.count_tokens(evidence) <= budget

            def reply(anchor: EvidenceMessage) -> list[EvidenceMessage]:
                return known.messages_after(anchor.conversation_id, anchor.seq, 1)

            before = earlier_reading.read_earlier(question, first, packed.messages, views, read_again, closeness,
                                                  just_before, fits, packed.followed, reply)
            if before is not None:
                numbers = [numbered(m) for m in before.said_by]
                reader_said, answer = reader_said or answer, before.text
                correction = earlier_reading.explain(first, before, numbers)
                filt.cited, how = numbers, "matched"
        timings["reread"] = time.perf_counter() - started
    can_avoid = (avoided_reading.NAME in active and not asks_yes_no(question)
                 and isinstance(model, AvoidingReader) and model.can_avoid)

    def read_avoiding(avoid: Sequence[str]) -> str:
        """The first prompt read again without writing ``avoid`` (answer/avoided_reading.py)."""
        assert isinstance(model, AvoidingReader)
        second = CitationFilter(len(packed.messages))
        tokens = min(answer_tokens, avoided_reading.ANSWER_TOKENS)
        return tidy("".join(_stream(model.answer_avoiding(prompt, avoid, max_tokens=tokens),
                                    second, None, {"start": time.perf_counter()})))

    if can_avoid and corrected is not None and is_abstention(answer):
        # Still "not in your history" after an answer that only repeated the question:
        # the same prompt once more, that answer and the chat's names not to be written.
        first_said = CITATION.sub("", reader_said).strip()
        started = time.perf_counter()
        avoided = avoided_reading.read_avoiding(question, first_said, packed.messages, views, read_avoiding, earlier)
        if avoided is not None:
            answer, correction = avoided.text, avoided_reading.explain(first_said, avoided)
            filt.cited, how = avoided.sources, "matched"
        timings["avoided"] = time.perf_counter() - started
    evidence = [*packed.messages, *read_too]
    citations = [Citation.of(n, evidence[n - 1], how) for n in filt.cited]
    unsupported = False
    if not citations and prompt_style == "plain" and not is_abstention(answer):
        matched = match_sources(answer, question, packed.messages, views)
        citations = [Citation.of(n, packed.messages[n - 1], "matched") for n in matched]
        unsupported = bool(answer) and not matched
    taken_from = [evidence[c.n - 1] for c in citations]
    if (someone_else.NAME in active and not is_abstention(answer)
            and someone_else.others_own(question, CITATION.sub("", answer).strip(), taken_from, packed.messages,
                                        views)):
        # Only another person's line about their own life: nothing the history says of the one asked.
        correction = someone_else.explain(CITATION.sub("", answer).strip(), [c.n for c in citations], taken_from,
                                          question, packed.messages, views)
        reader_said, answer, citations = reader_said or answer, NOT_IN_HISTORY, []
    elif chat_partner.NAME in active and not is_abstention(answer):
        # Only the name of the one the asked person writes to, which nothing on the subject connects to them.
        said_now = CITATION.sub("", answer).strip()
        partner = chat_partner.partner_named(question, said_now, packed.messages, views)
        if partner is not None:
            # Read again with the chat's names set aside (answer/avoided_reading.py); else "not in your history".
            avoided = None
            if can_avoid:
                started = time.perf_counter()
                avoided = avoided_reading.read_avoiding(question, said_now, packed.messages, views, read_avoiding,
                                                        earlier, partner=True)
                timings["avoided"] = time.perf_counter() - started
            if avoided is not None:
                correction = avoided_reading.explain(said_now, avoided, partner)
                reader_said, answer = reader_said or answer, avoided.text
                citations = [Citation.of(n, packed.messages[n - 1], "matched") for n in avoided.sources]
                unsupported = False  # its sources hold it
            else:
                correction = chat_partner.explain(said_now, partner)
                reader_said, answer, citations = reader_said or answer, NOT_IN_HISTORY, []
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
        evidence=evidence,
        evidence_text=packed.text,
        reader=read_by(model),
    )
