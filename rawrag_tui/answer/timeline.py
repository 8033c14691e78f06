"""Subjects over time: which later messages speak of what the evidence says, and which is the latest.

A personal history holds every version of a fact (a move, a new job, a date
moved twice). The question's evidence often holds the first version only,
or both with nothing to say which came last. So for the best evidence
messages (the anchors) this finds the *later* messages of the same
conversation that are on the same subject, by meaning, with the embedder
that indexed the home: no word of any language is looked at. Where the same
people talk in several conversations (a ChatGPT or Claude export keeps one
thread per topic, all between the user and the assistant; History.same_people),
the evidence's messages of their other conversations sent after an anchor
count as later too, ordered by send time.

A later message is on an anchor's subject when its vector is close to both
the anchor's and the question's (the smaller of the two cosines is at least
:data:`SAME_SUBJECT`), and at least as close to the question as the anchor:
close to the anchor alone is chat about the same people; close to the
question alone is another part of the answer. The
anchor and the later messages it finds (joined where they overlap) make one
subject; its messages are shown in time order, the last statement marked as the latest
(answer/packing.py, answer/prompts.py).

Unless the question asks about the past: then no message is marked latest
and none is superseded (it names what only the latest message says and
does not say "now", writes an earlier year, or its language's module says
so, :func:`asks_about_past`);
when it names an earlier state (:func:`asks_about_earlier`), the answer
checks turn round too and prefer the earliest statement (answer/checks).
Otherwise the subject's earlier messages are *superseded*: a question about
now reads the latest one without them (answer/selection.py), except those
of the latest's conversation sent the same day, which it goes on with
rather than replaces ("Chloe and I split up", then "It was pretty mutual"),
and those more than twice as long as the latest (:data:`REPLACES_FROM`): a
short line the embedder put on the subject ("それな", "Commitment.", "急だね")
follows it but does not take the place of the statement before it (it had
left out 山本's interview moved to 6月18日 and Kofi's "I'm doing the Maratona
dles Dolomites next July instead of the triathlon"), and the statement keeps
the latest mark (:func:`_latest_statement`). Length is what any script has;
closeness to the question did not tell these from a moved date
(docs/answers.md).

Cost: the candidates are the kept windows' messages and the last
:data:`LATER_CAP` messages of each anchor's conversation; their vectors are
kept between questions (answer/history.py), so a conversation is embedded
once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .. import lang
from ..search.types import EvidenceMessage
from .history import History, as_searched, in_time_order, sent_day
from .unknown import named_as_written
from .values import holds

#: The smaller of cosine(later, anchor) and cosine(later, question) a later
#: message needs to be on the anchor's subject (all-MiniLM-L6-v2, measured on
#: the changed-facts set: docs/answers.md).
SAME_SUBJECT = 0.50
#: How much less close to the question than its anchor a later message may
#: be: none (a later message that changes the anchor's fact speaks of what the
#: question asks at least as much; measured: docs/answers.md).
QUESTION_MARGIN = 0.15
#: How far above the typical later message of the conversation a message's
#: score must stand: an embedder that does not know a language scores every
#: message of it alike, and then nothing stands out.
STAND_OUT = 0.25
#: Later messages kept per anchor (the closest one).
PER_ANCHOR = 1
#: The least share of an earlier message's length (characters) its subject's
#: latest must have to replace it for a question about now (measured against
#: none: docs/answers.md).
REPLACES_FROM = 0.5
#: Anchors whose subjects are followed (the best-ranked ones).
ANCHORS = 8
#: Messages read from the store per anchor conversation (its latest ones).
LATER_CAP = 96
#: A year written in digits (the one date part every script writes alike).
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")


@dataclass
class Timeline:
    """What :func:`follow_subjects` found."""

    #: Anchor id -> later messages on its subject, in time order.
    later: dict[int, list[EvidenceMessage]] = field(default_factory=dict)
    #: Ids of the messages that are the latest statement of a subject of two or more
    #: (a short reply after it is not: :func:`_latest_statement`).
    latest: set[int] = field(default_factory=set)
    #: Whether the question asks about the past (no latest marks then).
    past: bool = False
    #: Whether it names a state earlier than the latest (the latest is then the wrong answer).
    earlier: bool = False
    #: Earlier message id -> the latest message of its subject (none when the
    #: question asks about the past): what a question about now leaves out.
    superseded: dict[int, int] = field(default_factory=dict)

    def subject_of(self, message_id: int) -> list[EvidenceMessage]:
        return self.later.get(message_id, [])


def asks_about_earlier(question: str, subjects: Sequence[Sequence[EvidenceMessage]]) -> bool:
    """Whether ``question`` says it asks about a state earlier than the latest message
    of one of ``subjects`` (each in time order), where the latest statement is the
    wrong answer (answer/checks):

    - its language's module (``rawrag_tui/lang``) recognises it ("before
      she moved", "之前", "前に", "früher");
    - it writes a year, in digits, earlier than the latest message's.
    """
    if lang.asks_about_earlier(question):  # the question's language module knows its words for it
        return True
    years = [int(y) for y in _YEAR.findall(question)]
    stamps = [s[-1].timestamp[:4] for s in subjects if s[-1].timestamp and s[-1].timestamp[:4].isdigit()]
    return bool(years and stamps) and min(years) < max(int(y) for y in stamps)


def names_the_latest(question: str, subjects: Sequence[Sequence[EvidenceMessage]]) -> bool:
    """Whether ``question`` names what only the latest message of one of ``subjects``
    says ("Where did Ines live before Braga?"): a capitalised name (answer/unknown.py)
    the latest message holds and no earlier one of its subject does. Then it asks
    about the past, but it is no sign of an earlier state for the checks: "When is
    Sam running the Dublin Marathon?" names Dublin, which only the latest plan says
    (measured: the stated-date check then gave the first plan's date)."""
    names = [n.casefold() for n in named_as_written(question, (m.text for s in subjects for m in s))]
    for subject in subjects:
        *earlier, latest = subject
        said_before = " ".join(m.text for m in earlier).casefold()
        if any(n in latest.text.casefold() and n not in said_before for n in names):
            return True
    return False


def asks_about_past(question: str, subjects: Sequence[Sequence[EvidenceMessage]]) -> bool:
    """Whether ``question`` asks about the past, where every version of a fact
    counts: an earlier state (:func:`asks_about_earlier`), a name only the
    latest message says (:func:`names_the_latest`) unless the question says it
    asks about now ("Which city are Jess and Naomi visiting at Easter now?",
    with Easter only in the latest plan: ``lang.says_now``), or what happened,
    where its language's module recognises that (the English simple past, "When
    did Caroline go ...")."""
    return (lang.asks_about_past(question) or asks_about_earlier(question, subjects)
            or (names_the_latest(question, subjects) and not lang.says_now(question)))


def _candidates(anchors: Sequence[EvidenceMessage], pool: Iterable[EvidenceMessage],
                history: History, kin: dict[int, frozenset[int]]) -> list[EvidenceMessage]:
    """The messages that may follow an anchor: ``pool``'s and the store's later
    messages of the anchors' conversations and, where the same people talk in
    other conversations too (``kin``: a ChatGPT export's threads), ``pool``'s
    messages sent there after the anchor (the search found them; the store's
    newest messages of every thread would be many more to embed, most about
    something else)."""
    first: dict[int, int] = {}
    since: dict[int, str] = {}
    for a in anchors:
        first[a.conversation_id] = min(first.get(a.conversation_id, a.seq), a.seq)
        if a.timestamp:
            since[a.conversation_id] = min(since.get(a.conversation_id, a.timestamp), a.timestamp)
    found: dict[int, EvidenceMessage] = {}
    for m in pool:
        if m.seq > first.get(m.conversation_id, 1 << 62) or any(
                m.conversation_id in kin[c] and m.conversation_id != c and m.timestamp and m.timestamp > t
                for c, t in since.items()):
            found[m.message_id] = m
    for conversation_id, seq in first.items():
        for m in history.last_messages(conversation_id, seq, LATER_CAP):
            found.setdefault(m.message_id, m)
    return list(found.values())


def _after(m: EvidenceMessage, anchor: EvidenceMessage, kin: frozenset[int]) -> bool:
    """Whether ``m`` follows ``anchor``: later in its conversation, or sent
    later in another conversation between the same people."""
    if m.conversation_id == anchor.conversation_id:
        return m.seq > anchor.seq
    return (m.conversation_id in kin and bool(m.timestamp and anchor.timestamp)
            and (m.timestamp or "") > (anchor.timestamp or ""))


def follow_subjects(question: str, anchors: Sequence[EvidenceMessage], pool: Iterable[EvidenceMessage],
                    history: History) -> Timeline:
    """The later messages on the subjects of the first :data:`ANCHORS` ``anchors``
    (candidates: ``pool``, the kept windows' messages, and the store's latest)."""
    anchors = list(anchors[:ANCHORS])
    if not anchors:
        return Timeline()
    kin = {a.conversation_id: history.same_people(a.conversation_id) for a in anchors}
    candidates = _candidates(anchors, pool, history, kin)
    if not candidates:
        return Timeline()
    vectors = history.embed([*anchors, *candidates])
    anchor_vecs, cand_vecs = vectors[: len(anchors)], vectors[len(anchors):]
    asked = history.embed_question(as_searched(question))
    to_question, anchor_to_question = cand_vecs @ asked, anchor_vecs @ asked
    timeline = Timeline()
    parent: dict[int, int] = {}

    def root(i: int) -> int:
        while parent.get(i, i) != i:
            i = parent[i]
        return i

    members: dict[int, EvidenceMessage] = {}
    for a, vec, own in zip(anchors, anchor_vecs, anchor_to_question):
        score = np.minimum(cand_vecs @ vec, to_question)
        after = [i for i in range(len(candidates)) if _after(candidates[i], a, kin[a.conversation_id])]
        if not after:
            continue
        typical = float(np.median(score[after]))
        later = [i for i in sorted(after, key=lambda i: -score[i]) if score[i] >= SAME_SUBJECT
                 and score[i] - typical >= STAND_OUT and to_question[i] >= own - QUESTION_MARGIN][:PER_ANCHOR]
        if not later:
            continue
        found = in_time_order(candidates[i] for i in later)
        timeline.later[a.message_id] = found
        members[a.message_id] = a
        for m in found:
            members[m.message_id] = m
            parent[root(m.message_id)] = root(a.message_id)
    subjects: dict[int, list[EvidenceMessage]] = {}
    for mid, m in members.items():
        subjects.setdefault(root(mid), []).append(m)
    ordered = [in_time_order(group) for group in subjects.values() if len(group) > 1]
    timeline.earlier = asks_about_earlier(question, ordered)
    timeline.past = timeline.earlier or asks_about_past(question, ordered)
    if not timeline.past:
        kinds = lang.kinds_asked(question)
        when = lang.asks_when(question)
        for group in ordered:
            newest = _latest_of_kind(group, kinds)
            latest = group[newest]
            marked = newest if _states_asked(latest, kinds, when) else _latest_statement(group, newest)
            timeline.latest.add(group[marked].message_id)
            timeline.superseded.update({m.message_id: latest.message_id for m in group[:newest]
                                        if not _same_sitting(m, latest) and _replaces(latest, m)})
    return timeline


def _same_sitting(earlier: EvidenceMessage, latest: EvidenceMessage) -> bool:
    """Whether ``latest`` was written in the same conversation on the same day
    as ``earlier``: then it goes on with what ``earlier`` says (a reply, the
    rest of the story: "Chloe and I split up" then "It was pretty mutual")
    rather than replacing it, and both are read."""
    return (earlier.conversation_id == latest.conversation_id and bool(earlier.timestamp and latest.timestamp)
            and sent_day(earlier) == sent_day(latest))


def _replaces(latest: EvidenceMessage, earlier: EvidenceMessage) -> bool:
    """Whether ``latest`` says enough to be read instead of ``earlier``: at least
    :data:`REPLACES_FROM` of its length, in characters (a reply of a word or two
    after a statement of a sentence is no new statement of it)."""
    return len(latest.text.strip()) >= REPLACES_FROM * len(earlier.text.strip())


def _latest_of_kind(group: Sequence[EvidenceMessage], kinds: Iterable[str]) -> int:
    """Where in ``group`` (in time order) its latest statement is: the last
    message, or, for a question asking for a value of a kind (a phone number),
    the last that writes one, where one does: a later "哈哈哈" linked to the
    number by its writer's name changes no number."""
    kinds = list(kinds)
    holding = [i for i, m in enumerate(group) if any(holds(kind, m.text) for kind in kinds)]
    return holding[-1] if holding else len(group) - 1


def _latest_statement(group: Sequence[EvidenceMessage], newest: int) -> int:
    """Which message of ``group`` (in time order) the latest mark goes on:
    ``newest``, unless it replaces none of the messages before it (a reply of
    a word or two, :func:`_replaces`); then the last before it that replaces
    one, else the first. The mark tells the reader which message holds the
    state now; on "Commitment." or "Fingers crossed." it pointed at no state,
    and the 0.5B reader took a value from elsewhere (docs/answers.md). Not
    asked where the newest writes what the question asks for (a number, a
    clock time, a date for a "when" question: "New number: 07700 900461" is
    short and states it; :func:`follow_subjects`)."""
    i = newest
    while i > 0 and not any(_replaces(group[i], m) for m in group[:i]):
        i -= 1
    return i


def _states_asked(message: EvidenceMessage, kinds: Iterable[str], when: bool) -> bool:
    """Whether ``message`` writes what the question asks for: a value of one of
    ``kinds`` (a phone number, a clock time), or a date where it asks ``when``.
    Such a line keeps the latest mark however short it is."""
    return (any(holds(kind, message.text) for kind in kinds)
            or (when and bool(lang.dates_in(message.text, message.timestamp))))
