"""Reading again from the asked person's own lines, where the answer came only from someone else's.

Asked "Where does Thandi work now?", the bundled 0.5B reader answered
"Inverness": the city of Morag, whom Thandi writes to, from Morag's "It's
blowing a gale here in Inverness" and "I still dream I'm climbing the stairs
in the old Inverness house". Thandi's own "sooo. work news. I switched
jobs! Sandpiper Marine Rescue in Hout Bay took me on" was in the evidence,
marked the latest on its subject. Asked where Kabir works, it gave Ishani's
new city, "Hyderabad", from two lines she wrote. A fact of a person's life
is most often what they write themself.

So, for a question about now that names a person of the chat (a speaker of
the evidence), where every message the answer comes from (its citations, or
the messages that support it) is written by someone else and does not name
the person asked, the reader reads the same question again over only the
evidence messages that person writes, in time order, the latest marks kept.
A source the person wrote counts as someone else's where it is their reply,
the very next message, to such a source that speaks of its writer's own
life and already holds the words of the answer the reply holds
(``someone_else.replies``): asked where 邓凯
works now, the reader said "长沙" from 许悦's line "公司在长沙开新工作室…
我可能要过去" (her company's new studio, where she may go) and his "长沙好啊"
right after it, which says what he thinks of her city, not where he is
(his "在魅族上班第三周" does).
The second answer replaces the first only where it is no abstention,
differs from the first, is no restatement of the question, is not only the
name of a person in the chat, one of the person's messages holds every word
of it (beyond the question's; answer/checks/support.py), and one such is
later than the first answer's earliest source. Asked where Jess's brother
lives (no message says), the reader read again over Jess's lines answered
"New York", a guess one of them shared "new" with; and over Hattie's lines,
asked where she works now, the school she had left, from a line older than
the one the first answer came from. Where that is the only gate the second
answer fails, it is an older state of theirs, and their lines after its
line are read once more, alone: asked in German which city Mehmet lives in,
the reader said "Berlin" from Anna's "Kommt ihr mal nach Berlin?", over his
own lines "Neukölln" (his district before the move), and over his lines
after that one "Leipzig". That third answer must pass the same gates but
the last (it is later than an older state of theirs by construction), and
be neither of the two before. Otherwise the first stands,
and the check someone_else may still find it is another person's line about
their own life.

Not where a line the answer came from is of a chat the person does not
write in: in a haystack of LoCoMo's long chats, asked which instrument
Greta plays (no message says), the reader took Melanie's clarinet from
another chat, and read again over Greta's four lines it answered "chips";
that first answer is someone_else's to turn into "not in your history".
Not for a "when" question or an answer that is a value (a clock time, a
number, an address: answer/values.py), which the checks own; nor for a
question about the past, nor a yes-or-no one. No word of any language is
read: who writes a message is the import's, a name is matched by each
language's terms.

Turned off by leaving ``own_reading`` out of ``[answer] checks``. Measured
in docs/answers.md ("An answer from someone else's lines, read again from
the asked person's own").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import lang
from ..lang import query_terms
from ..search.types import EvidenceMessage
from . import someone_else
from .checks.later_values import answer_value
from .checks.support import match_sources, naming
from .evidence import EvidenceViews
from .later_reading import only_people, restates, same_answer
from .packing import render
from .prompts import is_abstention

#: The setting's name for this step (``[answer] checks``).
NAME = "own_reading"


@dataclass(frozen=True)
class OwnReading:
    """The second answer, the messages that support it, and how many were read."""

    text: str
    said_by: list[EvidenceMessage]
    read: int
    asked: str  #: the person (or people) whose lines were read, for the note
    #: Their older state, read first, where the answer is from their lines after it.
    after: str = ""
    #: The ids of the sources that are the person's replies to someone else's (``someone_else.replies``).
    replies: frozenset[int] = frozenset()


def read_own(question: str, first: str, sources: Sequence[EvidenceMessage], messages: Sequence[EvidenceMessage],
             views: EvidenceViews, read: Callable[[str], str],
             latest: frozenset[int] | set[int] = frozenset()) -> OwnReading | None:
    """The reader's answer to ``question`` from the evidence lines of the person
    it asks about, where ``sources`` (what the first answer ``first`` came from)
    are all someone else's and the second answer stands (the module's doc);
    else None. ``messages``: the evidence; ``read`` answers an evidence block
    (the first reading's prompt); ``latest``: ids marked newest, marked again."""
    if not sources or lang.asks_when(question) or lang.asks_closed(question) or answer_value(first) is not None:
        return None
    named, people = views.named(question, messages)
    replies = someone_else.replies(first, question, sources, named, people, views)
    if not named or any(m.speaker in named or views(m).stems & people for m in sources
                        if m.message_id not in replies):
        return None
    own = [m for m in messages if m.speaker in named]
    theirs = {views.circle(m) for m in own}
    if not own or any(views.circle(m) not in theirs for m in sources):
        return None  # a line of a chat they are not in says nothing of them (someone_else's to judge)
    found = _read_lines(question, first, own, messages, views, read, latest)
    if found is None:
        return None
    second, said_by = found
    since = min((m.timestamp or "" for m in sources), default="")
    if any((m.timestamp or "") > since for m in said_by):
        return OwnReading(second, said_by, len(own), "/".join(sorted(named)), replies=replies)
    # None of it later than what the first answer came from: an older state of
    # theirs. Their lines after it are read once more, alone.
    until = max(m.timestamp or "" for m in said_by)
    newer = [m for m in own if (m.timestamp or "") > until]
    found = _read_lines(question, first, newer, messages, views, read, latest, also=second) if newer else None
    if found is None:
        return None
    return OwnReading(found[0], found[1], len(own), "/".join(sorted(named)), after=second, replies=replies)


def _read_lines(question: str, first: str, lines: Sequence[EvidenceMessage], messages: Sequence[EvidenceMessage],
                views: EvidenceViews, read: Callable[[str], str], latest: frozenset[int] | set[int],
                also: str = "") -> tuple[str, list[EvidenceMessage]] | None:
    """The reader's answer over ``lines`` and the lines that hold every word of
    it, where it is no abstention, neither ``first`` nor ``also`` again, no
    restatement of the question and not only a person's name; else None."""
    text, numbered = render(lines, {m.message_id: views(m).body for m in lines}, latest)
    second = read(text).strip()
    if (not second or is_abstention(second) or same_answer(second, first) or (also and same_answer(second, also))
            or restates(question, second, first) or only_people(second, messages)):
        return None
    said = query_terms(second) - query_terms(question)
    whole = {n for n, held, _ in naming(second, question, numbered, views) if held == len(said)}
    supported = [n for n in match_sources(second, question, numbered, views) if n in whole]
    return (second, [numbered[n - 1] for n in supported]) if supported else None


def explain(first: str, sources: Sequence[int], reading: OwnReading, numbers: Sequence[int],
            replies: Sequence[int] = ()) -> str:
    """The note under the answer: what the reader said first, from whose lines, and what it read again;
    ``replies``: the numbers among ``sources`` that are the person's replies to someone else's."""
    said = ", ".join(f"[{n}]" for n in sources)
    others = ", ".join(f"[{n}]" for n in sources if n not in replies)
    answered = ", ".join(f"[{n}]" for n in replies)
    reply = "replies" if len(replies) > 1 else "reply"
    whose = (f"{others}, written by someone else, and {answered}, {reading.asked}'s {reply}" if replies
             else f"{said}, written by someone else")
    start = (f'the reader said "{first}" from {whose}; read again from the '
             f"{reading.read} message{'s' if reading.read != 1 else ''} {reading.asked} wrote, ")
    now = ", ".join(f"[{n}]" for n in numbers)
    if reading.after:
        return (start + f'it said "{reading.after}", older than {said}; from their messages after that one, '
                f"it answered from {now}")
    return start + f"it answered from {now}"
