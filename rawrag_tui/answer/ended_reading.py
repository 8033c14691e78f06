"""Reading again without the value the newest line naming it says ended.

Asked "Which football team does Daniel support?" over his March line "Gotta
run, Chelsea kick off in ten" and his September one "I've switched to
Brighton. Got a season ticket at the Amex. Chelsea broke my heart one too
many times", the bundled 0.5B reader answered "Chelsea", and read again over
the September line alone it still did: the old value is written in the line
that replaces it, and a small reader takes the value it knows. Nothing later
than that line exists to read again (answer/later_reading.py), and no check
can tell a team from a word without a word list.

So, for a question about now whose answer the checks left alone and the
later reading did not change, where the newest evidence message naming the
answer (its terms, as answer/checks/support.py matches them) says a state
ended, in its own language's words or the question's (``lang.ends``: "switched",
"gekündigt", 辞めて), and an earlier day's message of the same people already
named it (so it is the old state the line ends, not the new one it
introduces), and, where such an earlier line itself said the answer came in
as a new state ("Nope, left at the start of July. I'm a data analyst at
Tidewell Energy now"), a sentence of the newest line naming it says the
ending (not "I've switched from flat whites to matcha. Tidewell has a
little matcha bar", about a drink, nor "I've switched to Club Brugge.
Vlaskop pours the beer at their fan bar", a team), the reader reads that
line again alone with the answer's words hidden ("… broke my heart"); where the sentence the answer was hidden in
itself says the ending, only it and the sentence either side of it
(:func:`around_ending`: "... instead of doing the … again. The full 42 km."
without the "Eskil thinks I've lost my mind." after it, which gave "Eskil").
The second answer replaces the first where it is an answer (not empty, not
"not in your history", not only a chat member's name, no restatement of the
question), shares none of the first answer's terms, and is said by that
line. Where it is not, the line is read once more with the messages of its
conversation just before it, of its day (:data:`BEFORE_LINES`), the answer
hidden in each: "下个月底就过去。成都的房子我已经退了" (off at the end of
next month, the Chengdu flat given up) says no city, the offer in Hangzhou
two lines before it does. That answer must pass the same gates and be said
by one of those lines written by the person whose line ends the state. The
language module's words for an ending are all this step reads of a
language; which message is newest is its send time. Not for the past, a "when" question or an answer that is a date,
number, address or amount (the checks own those), nor for a yes-or-no
question (answer/yes_no_reading.py). Turned off by leaving ``ended_reading``
out of ``[answer] checks``. Measured in docs/answers.md ("An answer the newest
line naming it says ended").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import lang
from ..lang import query_terms
from ..search.types import EvidenceMessage
from .checks.later_values import answer_value
from .checks.support import match_sources, naming
from .evidence import EvidenceViews
from .history import sent_day
from .later_reading import SENTENCE, alone, only_people, restates, same_answer
from .packing import render
from .prompts import is_abstention

#: The setting's name for this step (``[answer] checks``).
NAME = "ended_reading"
#: What stands in a line for the answer's words while it is read again.
HIDDEN = "…"
#: Messages of its conversation just before the ending line (of its day) read
#: with it where it alone says no new state: "成都的房子我已经退了" (the Chengdu
#: flat given up) follows "我拿到杭州一家公司的offer了" (an offer in Hangzhou) by
#: two lines.
BEFORE_LINES = 3


@dataclass(frozen=True)
class EndedReading:
    """The second answer, the line it was read from (``message``) and the
    earlier ones that named the first answer (``earlier``), 1-based in the
    evidence's numbering."""

    text: str
    message: int
    earlier: list[int]
    #: Where the ending line alone did not say the new state: the line just
    #: before it (:data:`BEFORE_LINES`, the same day) the answer was read from.
    said_by: EvidenceMessage | None = None
    #: How many lines before the ending line were read with it.
    before: int = 0


def ended_source(question: str, answer: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
                 same_people: Callable[[int], frozenset[int]] = alone) -> tuple[int, list[int]] | None:
    """The newest evidence message naming ``answer`` where it says a state
    ended, and the earlier day's messages of the same people that named it
    first (1-based); None where the newest does not say so or nothing before
    it named the answer."""
    found = [n for n, *_ in naming(answer, question, messages, views) if messages[n - 1].timestamp]
    if len(found) < 2:
        return None
    newest = max(found, key=lambda n: messages[n - 1].timestamp or "")
    m = messages[newest - 1]
    circle = {m.conversation_id, *same_people(m.conversation_id)}
    earlier = [n for n in found
               if messages[n - 1].conversation_id in circle and sent_day(messages[n - 1]) < sent_day(m)]
    if not earlier or not lang.ends(m.text, question):
        return None
    if (any(lang.ends(messages[n - 1].text, question) for n in earlier)
            and not _ends_where_named(m.text, answer, question)):
        # It came in as a new state ("Nope, left at the start of July. I'm a data analyst at
        # Tidewell Energy now"), and the newer line says another thing ended, not it ("I've
        # switched from flat whites to matcha. Tidewell has a little matcha bar").
        return None
    return newest, earlier


def _ends_where_named(text: str, answer: str, question: str) -> bool:
    """Whether a sentence of ``text`` that names ``answer`` (shares a term with it) says a state ended."""
    said = query_terms(answer)
    return any(query_terms(s) & said and lang.ends(s, question) for s in SENTENCE.findall(text))


def hide(text: str, answer: str) -> str | None:
    """``text`` with ``answer``'s words replaced by :data:`HIDDEN`: the answer
    as written (any case), else each word that shares a term with it; None
    where nothing of it is in ``text``."""
    core = _trimmed(answer)
    if core and core.casefold() in text.casefold():
        return re.sub(re.escape(core), HIDDEN, text, flags=re.IGNORECASE)
    terms = query_terms(core)
    hidden = re.sub(r"\w+", lambda w: HIDDEN if query_terms(w.group()) & terms else w.group(), text)
    return hidden if hidden != text else None


def _trimmed(answer: str) -> str:
    """``answer`` without the spaces and punctuation (any script's) around what it names."""
    chars = list(answer.strip())
    while chars and unicodedata.category(chars[-1]).startswith("P"):
        chars.pop()
    while chars and unicodedata.category(chars[0]).startswith("P"):
        chars.pop(0)
    return "".join(chars).strip()


def around_ending(body: str, question: str) -> str:
    """Of ``body`` (a line with the answer hidden), the sentence the answer was
    hidden in and the one either side of it, where that sentence itself says
    the ending; else all of it. The rest of a long line is other news: "I've
    signed up for the Bergen City Marathon in April instead of doing the …
    again. The full 42 km. Eskil thinks I've lost my mind." gave "Eskil". The
    new state may be the sentence before or after ("Ich hab bei … gekündigt.
    Ab Mai bin ich bei Klimawerk"; "I'm a data engineer at Corrib Labs now ...
    I left … in January.")."""
    sentences = [s.strip() for s in SENTENCE.findall(body) if s.strip()]
    ending = [i for i, s in enumerate(sentences) if HIDDEN in s and lang.ends(s, question)]
    if len(ending) != 1:
        return body
    i = ending[0]
    return " ".join(sentences[max(i - 1, 0): i + 2])


def read_ended(question: str, first: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
               read: Callable[[str], str], latest: frozenset[int] | set[int] = frozenset(),
               same_people: Callable[[int], frozenset[int]] = alone,
               before: Callable[[EvidenceMessage, int], list[EvidenceMessage]] | None = None,
               ) -> EndedReading | None:
    """The reader's answer from the newest line naming ``first`` with it
    hidden, where that line says it ended and the answer stands (see the
    module's doc), else None. ``read`` answers an evidence block (the same
    prompt as the first reading); ``latest``: ids marked newest on their subject;
    ``before(line, n)``: up to ``n`` messages of its conversation just before
    ``line``, in order, read with it where it alone says no new state."""
    if lang.asks_when(question) or lang.asks_yes_no(question) or answer_value(first) is not None:
        return None
    found = ended_source(question, first, messages, views, same_people)
    if found is None:
        return None
    newest, earlier = found
    m = messages[newest - 1]
    body = hide(views(m).body, first)
    if body is None:
        return None
    text, _ = render([m], {m.message_id: around_ending(body, question)}, latest)
    second = read(text).strip()
    if (_stands(second, question, first, messages) and match_sources(second, question, [m], views)
            and not _what_ended(m, second, question, messages, views)):
        return EndedReading(second, newest, earlier)
    if before is None:
        return None
    # The new state may be told just before the line that ends the old one,
    # the same day: those lines and it, the answer hidden in each, read once more.
    lines = [p for p in before(m, BEFORE_LINES) if sent_day(p) == sent_day(m)]
    if not lines:
        return None
    bodies = {p.message_id: hide(views(p).body, first) or views(p).body for p in lines}
    bodies[m.message_id] = body
    text, _ = render([*lines, m], bodies, latest)
    second = read(text).strip()
    if not _stands(second, question, first, messages):
        return None
    # Said by a line of the one whose state ended, before the line that ends it.
    said = [p for p in lines if p.speaker == m.speaker and match_sources(second, question, [p], views)]
    if not said:
        return None
    return EndedReading(second, newest, earlier, said_by=said[-1], before=len(lines))


#: A clause: a sentence's part up to a comma or semicolon (any script's) or the sentence's end.
CLAUSE = re.compile(r"[^.!?。！？\n,;，；、]+")


def _what_ended(line: EvidenceMessage, second: str, question: str, messages: Sequence[EvidenceMessage],
                views: EvidenceViews) -> bool:
    """Whether ``second`` is what ``line`` says ended, not the new state: an earlier
    message of the evidence names it, and every clause of ``line`` naming it (shares
    a term with it) says a state ended. "搬完了! 深圳的房子也退了, 东莞这边走路十分钟就到公司"
    (full-width marks in the chat) ends 深圳, named before, and names 东莞 as the new
    state; read again with 东莞 hidden, the bundled reader answered 深圳. "I've switched
    to Brighton" says a change where it names the new team, which no earlier line names."""
    said = query_terms(second)
    naming = [c for c in CLAUSE.findall(line.text) if query_terms(c) & said]
    if not naming or not all(lang.ends(c, question) for c in naming):
        return False
    before = [m for m in messages if m.timestamp and line.timestamp and m.timestamp < line.timestamp]
    return bool(match_sources(second, question, before, views))


def _stands(second: str, question: str, first: str, messages: Sequence[EvidenceMessage]) -> bool:
    """Whether ``second`` is an answer that may replace ``first``: not empty, nothing
    hidden, no abstention, no word of ``first``, no restatement of the question, not
    only a chat member's name."""
    return not (not second or HIDDEN in second or is_abstention(second) or same_answer(second, first)
                or bool(query_terms(second) & query_terms(first)) or restates(question, second, first)
                or only_people(second, messages))


def explain(first: str, reading: EndedReading, said_at: int | None = None) -> str:
    """The note under the answer: what the reader said, and the line that says it ended;
    ``said_at``: the number of :attr:`EndedReading.said_by` where the answer came from a line before it."""
    before = ", ".join(f"[{n}]" for n in reading.earlier)
    start = (f'the reader said "{first}", named in {before}; [{reading.message}], the latest message naming it, '
             f"says that ended: ")
    if said_at is None:
        return start + f"read again without it, it answered from [{reading.message}]"
    lines = f"{reading.before} message{'s' if reading.before != 1 else ''}"
    return start + f"read again without it, with the {lines} just before it, it answered from [{said_at}]"
