"""Values a later message changed, for answers a small reader takes from the first mention.

Asked what finish time Sam is aiming for, the bundled 0.5B reader answers
"5:41" (the pace of the first training plan) though two later messages on the
same subject say 1:50: it takes the first value of the kind it wants and
stops. The instructions say the later message is right; it does not follow
them, and evidence selection can only drop an earlier message when the later
one says it changes something ("moved", "instead": answer/selection.py).
So, as the stated-date pass does for dates, an answer that is a value of a
recognisable kind gets a second look that needs no model:

- the kinds: a clock time or pace (``1:50``), a phone number, an e-mail
  address, an amount of money (with a currency sign, or in the words of
  the text's language: lang/en.py's "40 pounds"); the answer's first such
  value is the one checked;
- the value is **stale** when a message later than every message stating it,
  in a conversation where it is stated, on the question's subject (sharing
  a subject word with the question, replying to a message that does, or
  marked by the evidence as the latest on an anchor's subject: the timeline
  linked it by meaning, answer/timeline.py),
  states a different value of the same kind (another chat's e-mail address
  is someone else's, not a newer one);
- a message that writes the value beside another of its kind that no
  earlier message writes, where an earlier one wrote the value, states that
  new one, not the value again (邓凯's line giving his new number,
  18820396617, names the old one, 13925714406, to say it ends); which
  value is new is which was never written before, in any language;
- then the latest such message's value (the one nearest a subject word in
  it, or the new one it brings in) is the answer, cited, and the reader's
  own words are kept beside it.

A value no message states is left alone (a guess is flagged elsewhere, not
corrected here), and so is one that the latest message on the subject
states. Except where the question asks for a value of the kind in its own
language's words ("phone number", "手机号码", "メールアドレス":
``lang.kinds_asked``): a phone number or an e-mail address is its owner's,
who writes it, so a later message by the writer of the answer's value, in
the same conversation, stating another of the kind is on the subject though
it names none ("以后有事打我这个号 15906571234"); and a value no message
states (the reader made up "1311111111") gives way to the latest of the
kind that a person the question names writes.

A question that names an earlier state ("the e-mail address Priya had before she changed
it", "健太が前に使っていたメールアドレス", answer/timeline.py decides) turns the
rule around: an answer holding the value the *latest* message on the subject
states, where an earlier message on it states another, gets the earliest
such statement instead ("first", "originally" and "before she changed it" of
a fact changed once all name it; "before the last change" of a fact changed
twice would want the middle one, which no rule without words can tell).
Before this, the check replaced a right answer to such a question with the
latest value ("kenta.n@docomo.ne.jp" became the new gmail address).

An answer to a question asking for a phone number or an e-mail address that
is no such value but part of one ("hattiedraws.es", asked Hattie's e-mail
address: the 1.5B Coder left out "hello@") is the whole value, where exactly
one value of the kind in the evidence holds it, and then gets the same look
as a whole one (a later message may have changed it). Where two values hold
it ("gmail.com") it is left alone: which one was meant is not known.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Sequence

from ... import lang
from ...search.types import EvidenceMessage
from ..evidence import EvidenceViews
from ..values import KINDS, MONEY, holds
from ..values import values_in as _values
from .base import Correction

#: The setting's name for this check (``[answer] checks``).
NAME = "later_values"
#: The fewest letters and digits an answer must have to be read as part of a
#: value: "es" or "07" is part of too many.
LEAST_PART = 5
#: What may stand around a part of a value in an answer ("hattiedraws.es.").
_AROUND = " \t\n.,;:!?'\"()[]<>"

def _norm(value: str) -> str:
    return re.sub(r"[\s-]", "", value).lower()


def answer_value(answer: str) -> tuple[str, str] | None:
    """(kind, value) of the first recognisable value in ``answer``."""
    found = [(m.start(), kind, m.group()) for kind in (*KINDS, MONEY) for m in _values(kind, answer)]
    if not found:
        return None
    _, kind, value = min(found)
    return kind, value


def _nearest_subject_value(text: str, kind: str, subject: set[str]) -> str | None:
    """The value of ``kind`` in ``text`` closest to a word of the subject."""
    words = [start for start, _ in lang.term_spans(subject, text)]
    values = _values(kind, text)
    if not values:
        return None
    if not words:
        return values[-1].group()
    return min(values, key=lambda v: min(abs(v.start() - w) for w in words)).group()


def check(question: str, said: str, messages: Sequence[EvidenceMessage],
          views: EvidenceViews | None = None, today: dt.date | None = None,
          earlier: bool = False, latest: Collection[int] = (),
          replaced: Sequence[EvidenceMessage] = ()) -> Correction | None:
    """The value to answer with instead of ``said``, or None to keep the reader's
    (``today`` is not used; ``earlier``: the question names an earlier state)."""
    views = views or EvidenceViews()
    found = answer_value(said)
    if found is None:
        return _whole_value(question, said, messages, views, today, earlier, latest, replaced)
    kind, value = found
    asked = kind in lang.kinds_asked(question)
    sources = [m for m in messages if _norm(value) in _norm(views(m).text)]
    if not sources and asked:
        return _owners_value(question, kind, messages, views, earlier)
    if not sources or any(not m.timestamp for m in sources):
        return None
    # The writers of the value, where the question asks for its kind: their later values are newer ones.
    owners = {(views.circle(m), m.speaker) for m in sources} if asked else set()
    # Someone else's e-mail in another chat is not a newer value of this one; a later
    # conversation between the same people (views.circle: a ChatGPT export's threads) is that chat.
    conversations = {views.circle(m) for m in sources}
    subject = views.subject(question, messages, lang.value_words(question))
    if not subject and not owners:
        return None
    worded = {(m.conversation_id, m.seq) for m in messages if subject & views(m).stems}
    # (sent, number, value) of every dated message on the subject stating a value of the kind.
    stated: list[tuple[str, int, str]] = []
    for n, m in enumerate(messages, 1):
        # A reply to a message on the subject is on it too: "OK, new goal: 1:50." names no subject word.
        # So is a message the evidence marks as the latest on an anchor's subject (answer/timeline.py):
        # it was linked to the anchor by meaning, where the message it replied to was left out.
        on_subject = ((m.conversation_id, m.seq) in worded or (m.conversation_id, m.seq - 1) in worded
                      or m.message_id in latest or (views.circle(m), m.speaker) in owners)
        if not m.timestamp or not on_subject or views.circle(m) not in conversations:
            continue
        other = _nearest_subject_value(views(m).text, kind, subject)
        if other is not None:
            stated.append((m.timestamp, n, other))
    if not stated:
        return None
    stated.sort(key=lambda s: s[0])  # stable: the evidence's order breaks a tie
    if earlier:
        latest_value = stated[-1][2]
        first = stated[0]
        if _norm(latest_value) != _norm(value) or _norm(first[2]) == _norm(value):
            return None
        return Correction(first[1], first[2], earlier=True, superseded=True)
    # A line that writes the value beside another of its kind that no earlier message writes, where
    # an earlier one wrote the value, gives the new one: the line giving 邓凯's new number, which
    # names the old one to say it ends, does not state the old number again, it replaces it.
    replacing = {m.message_id: new for m in sources
                 if any((s.timestamp or "") < (m.timestamp or "") for s in sources)
                 and (new := _introduced(m, kind, value, messages, views)) is not None}
    stated = [(sent, n, replacing.get(messages[n - 1].message_id, other)) for sent, n, other in stated]
    stated_until = max(m.timestamp or "" for m in sources if m.message_id not in replacing)
    later = [s for s in stated if s[0] > stated_until]
    if not later or _norm(later[-1][2]) == _norm(value):
        return None
    return Correction(later[-1][1], later[-1][2], superseded=True)


def _introduced(message: EvidenceMessage, kind: str, value: str, messages: Sequence[EvidenceMessage],
                views: EvidenceViews) -> str | None:
    """A value of ``kind`` that ``message`` writes beside ``value`` and no message
    of ``messages`` sent before it writes: the one it brings in."""
    before = [_norm(views(m).text) for m in messages if m.timestamp and m.timestamp < (message.timestamp or "")]
    for found in _values(kind, views(message).text):
        new = _norm(found.group())
        if new != _norm(value) and not any(new in text for text in before):
            return found.group()
    return None


def _whole_value(question: str, said: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
                 today: dt.date | None, earlier: bool, latest: Collection[int],
                 replaced: Sequence[EvidenceMessage]) -> Correction | None:
    """For a question asking for a value of a kind, an answer that is part of one
    value of the kind in ``messages`` and of no other: that value (from the
    latest message writing it; the earliest, for an earlier state), or the
    later one a later message gives instead (the module's doc)."""
    part = _norm(said.strip(_AROUND))
    if sum(c.isalnum() for c in part) < LEAST_PART:
        return None
    holding: dict[str, list[tuple[str, int, str]]] = {}
    for kind in lang.kinds_asked(question):
        for n, m in enumerate(messages, 1):
            for found in _values(kind, views(m).text):
                # A whole value in the answer was found by answer_value: here the part is never all of it.
                if part in (value := _norm(found.group())):
                    holding.setdefault(value, []).append((m.timestamp or "", n, found.group()))
    if len(holding) != 1:
        return None
    (written,) = holding.values()
    _, n, whole = (min if earlier else max)(written)
    again = check(question, whole, messages, views, today, earlier, latest, replaced)
    if again is not None and again.superseded:
        return again
    return Correction(n, whole, earlier=earlier, part=True)


def _owners_value(question: str, kind: str, messages: Sequence[EvidenceMessage],
                  views: EvidenceViews, earlier: bool) -> Correction | None:
    """For a value of ``kind`` the question asks for and no message states: the
    latest one a person the question names writes (their own number or
    address), if any does; the earliest, where the question names an earlier
    state ("Welche E-Mail-Adresse hatte Mehmet früher?" - "m.yilmaz@web.de",
    made of his old and his new one)."""
    named, _ = views.named(question, messages)
    written = [(m.timestamp, n, _values(kind, views(m).text)[-1].group()) for n, m in enumerate(messages, 1)
               if m.timestamp and m.speaker in named and holds(kind, views(m).text)]
    if not written:
        return None
    if earlier:
        first = min(written, key=lambda w: w[0])
        return Correction(first[1], first[2], earlier=True)
    latest = max(written, key=lambda w: w[0])
    return Correction(latest[1], latest[2])


def explain(answer: str, correction: Correction) -> str:
    if correction.part:
        return f'the reader said "{answer}", part of what [{correction.message}] gives: {correction.text}'
    if not correction.superseded:  # the reader's value is in no message (:func:`_owners_value`)
        which = "earliest" if correction.earlier else "latest"
        return (f'the reader said "{answer}", which no message says; [{correction.message}], '
                f"the {which} message of the person asked about that gives one, says {correction.text}")
    if correction.earlier:
        return (f'the reader said "{answer}", what the latest message on this says; the question asks '
                f"about before it, and [{correction.message}], the earliest, says {correction.text}")
    return (f'the reader said "{answer}", what an earlier message said; [{correction.message}], '
            f"the latest message on this, says {correction.text}")

