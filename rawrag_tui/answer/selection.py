"""Message-level evidence: what of the kept windows the reader actually reads.

Windows show where to look; a small reader on a CPU cannot read all of them
(15 windows are ~4,900 tokens: over a minute on 2 cores, and a 0.5B model
loses the thread in them). So the budget is spent on the messages that hold
the evidence:

- **anchors**: messages sharing a content word with the question (speaker
  names do not count: they match every line a person wrote), taken in the
  rank order of their best window, most matching first within a window,
  fused (reciprocal rank) with the :data:`MEANING_ANCHORS` messages closest
  to the question in meaning (the home's embedder, answer/history.py): a
  statement often shares no word with the question that asks for it ("What
  is Priya's job?" - "First week as a UX designer at Monzo done!"), and
  then only its meaning finds it among the windows' hundred-odd messages.
  Meaning is compared without the people's names on either side (the
  messages without their speakers, the question without the speakers'
  names, answer/history.py): a name outweighs a short line. Who is asked
  about is matched by name instead: where the question names one of the
  speakers, only the anchors of those people (their conversations, their
  name) are kept;
- **values asked for**: where the question asks for a phone number or an
  e-mail address in its own language's words ("手机号码", ``lang.kinds_asked``)
  and names a speaker, the latest :data:`VALUE_HOLDERS` messages in which that
  person writes a value of the kind (the kind's pattern is the same in every
  language: answer/values.py) lead the anchors, from the kept
  windows and from the last messages of the anchors' conversations: "以后有事打我这个号
  15906571234" shares no word with the question, and the multilingual embedders did not
  rank it near it;
- **neighbours**: the message before and after each anchor, for the
  context a reply needs ("Yes, on Saturday!"); where both do not fit, the
  one after;
- **the asked person's changes**: for a question that names a speaker and
  does not ask about the past, the :data:`CHANGE_LINES` lines of theirs
  closest to it that say a state of theirs ended or holds now (their
  language's module, ``lang.ends``: "Nope! Left in September. I'm a
  background artist at Nube Animation now"). Where the question asks what
  holds now in its own language's words ("now", "still", 现在, まだ), in
  budget kept back for them: such a line shares no word with "Where does
  Hattie work now?" and is far from it in meaning, and fused with the
  anchors instead it pushed out lines other answers came from. Where it
  does not ("Where does Greta work?"), in what budget the anchors left:
  her "First week at Granite Wind done!" came in, and no anchor went
  (docs/answers.md);
- **later on the same subject**: with the home's history at hand
  (answer/history.py), the later messages of an anchor's conversation (or,
  among the evidence, of another conversation between the same people) that
  speak of its subject, found by meaning (answer/timeline.py), come along
  with it, and the newest statement of each subject is marked as the latest.
  A small reader takes the first value it reads, mark or no mark (the
  bundled 0.5B answered the demo's wedding with the old message's send date,
  the new one marked latest two lines below), so a question about now reads the
  latest message *instead of* the ones it superseded (``drop_superseded``,
  the default); a question about the past (answer/timeline.py) reads every
  version, in time order. Nothing here reads a word of any language for this.

A reader stronger than the bundled 0.5B reads wider evidence to its gain
(``wide``, ``reader.anchors``): its meaning anchors are taken among the
chats of the person the question names, before the closest are counted (not
among every chat's messages and then narrowed to theirs, which left
"In welcher Stadt wohnt Mehmet?" 3 anchors), with no floor under their
closeness, and with longer lines favoured (:data:`LENGTH_PRIOR`): a short
line, a question most often ("How's work?", 0.41), is closer to a short
question than the statement that answers it ("I'm the physio at Red Kite
Cricket Academy now", 0.02). From the lines this adds the bundled reader got
1-2 fewer of 65 answers right, the 1.5B Coder 8 more of 75 about now and 3
fewer of 37 about the past (docs/answers.md).

Without any anchor (no history to find them by meaning and no word shared
with the question), or without one of the people it names, the windows are
packed whole, in rank order, as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .. import lang
from ..search.types import EvidenceMessage, Hit
from .evidence import EvidenceViews
from .history import History, in_time_order, without_names
from .packing import PackedEvidence, TokenCounter, conversation_header, day_line, numbered_line, pack_evidence, render
from .timeline import LATER_CAP, Timeline, follow_subjects
from .unknown import named_as_written
from .values import holds

#: Messages either side of an anchor that come along with it.
NEIGHBOURS = 1
#: The kept windows' messages closest in meaning to the question that become
#: anchors beside the word anchors (measured against 5 and 20, and against
#: appending them after the word anchors: docs/answers.md).
MEANING_ANCHORS = 10
#: The constant of the reciprocal-rank fusion of word and meaning anchors:
#: small, so the first few of each list lead.
FUSION_K = 5
#: How much less close to the question than the closest message a meaning
#: anchor may be: further ones are other events of the same kind (the demo's
#: birthday dinner for "When is Maya's wedding?", 0.31 against the wedding's
#: 0.75, whose send date the 0.5B reader then gave). Relative, so it holds
#: for any embedder's scale.
MEANING_SPREAD = 0.20
#: How much a wide selection (``wide``) favours longer lines among the meaning
#: anchors: closeness plus this times the natural log of the line's terms
#: (words; CJK bigrams). Ranked so, the line holding the latest value is
#: among the 10 closest of its pool for 97 of 116 questions about now
#: against 84 (weights 0.03-0.3 tried; 0.16-0.3 level; docs/answers.md).
LENGTH_PRIOR = 0.2
#: Messages writing a value of the kind the question asks for that lead the
#: anchors (the latest ones: the value now, and the one or two it replaced).
VALUE_HOLDERS = 3
#: The asked person's own lines saying a state of theirs changed that a question
#: about now reads besides its anchors, in budget kept back for them (the closest ones).
CHANGE_LINES = 2


def select_evidence(hits: Sequence[Hit], question: str, budget: int, count_tokens: TokenCounter,
                    views: EvidenceViews | None = None, history: History | None = None,
                    drop_superseded: bool = True, wide: bool = False) -> PackedEvidence:
    """The messages worth reading within ``budget`` tokens (see the module's doc);
    ``history``: where later messages on the anchors' subjects are looked for;
    ``drop_superseded``: leave out the earlier messages of a subject whose
    latest is shown (a question about now; see the module's doc); ``wide``:
    the meaning anchors for a stronger reader (see the module's doc)."""
    views = views or EvidenceViews()
    ordered = sorted(hits, key=lambda h: h.rank)
    best_rank: dict[int, int] = {}
    messages: dict[int, EvidenceMessage] = {}
    at: dict[tuple[int, int], EvidenceMessage] = {}
    for hit in ordered:
        for m in hit.messages:
            best_rank.setdefault(m.message_id, hit.rank)
            messages.setdefault(m.message_id, m)
            at[(m.conversation_id, m.seq)] = m
    terms = views.subject(question, messages.values())
    matches = {mid: len(terms & views(m).stems) for mid, m in messages.items()}
    anchors = sorted((m for m in messages.values() if matches[m.message_id]),
                     key=lambda m: (best_rank[m.message_id], -matches[m.message_id], m.seq))
    # Meaning is compared without the people's names (answer/history.py, message_body, without_names).
    about = without_names(question, {m.speaker for m in messages.values()})
    if history is not None:
        pool = list(messages.values())
        anchors = _fused_with_meaning(anchors, about, _of_named(question, pool, views) if wide else pool,
                                      history, wide)
    anchors, theirs = _only_theirs(anchors, question, messages.values(), views)
    if theirs:
        anchors = _values_asked_first(anchors, question, list(messages.values()), history, views)
    if not anchors or theirs is False:
        # No word anchor (or none of the people the question names): the
        # search's own order, whole windows, is the better evidence.
        return pack_evidence(hits, budget, count_tokens, views)

    timeline = follow_subjects(question, anchors, messages.values(), history) if history else Timeline()
    dropped: dict[int, int] = {}
    bodies: dict[int, str] = {}
    costs: dict[int, int] = {}

    def cost(m: EvidenceMessage) -> int:
        if m.message_id not in costs:
            body = bodies.setdefault(m.message_id, views(m).body)
            costs[m.message_id] = count_tokens(numbered_line(10, m, body)) + 2  # newline, a possible gap line
        return costs[m.message_id]

    changes = _changes_of_named(question, about, list(messages.values()), views, history)
    # What they may cost: each line with its day line and its conversation's header,
    # kept back only where the question says "now"; otherwise they take what is left.
    kept_back = (sum(cost(m) + count_tokens(conversation_header(m)) + count_tokens(day_line(m)) + 3 for m in changes)
                 if lang.says_now(question) else 0)

    chosen: dict[int, EvidenceMessage] = {}
    groups: list[list[int]] = []
    conversations: set[int] = set()
    days: set[tuple[int, str]] = set()  # (conversation, day line) already paid for
    used = 0
    for anchor in anchors:
        if anchor.message_id in chosen:
            continue
        around = [at.get((anchor.conversation_id, anchor.seq + d)) for d in range(-NEIGHBOURS, NEIGHBOURS + 1)]
        group = [m for m in around if m is not None and m.message_id not in chosen]
        if anchor not in group:
            group.append(anchor)
        later = [m for m in timeline.subject_of(anchor.message_id) if m.message_id not in chosen]
        header = 0 if anchor.conversation_id in conversations else count_tokens(conversation_header(anchor)) + 2
        # Short of room for both neighbours, the reply after an anchor comes
        # before the message it answered: "OK, new goal: 1:50." settles what
        # the anchor only proposed.
        # Short of room, the later messages on its subject stay longer than
        # its neighbours: they may change what it says.
        reply = [m for m in group if m.seq == anchor.seq + 1]
        candidates: tuple[list[EvidenceMessage], ...] = (
            [*group, *later], [anchor, *reply, *later], [anchor, *later], [anchor])
        if drop_superseded and timeline.superseded:
            # A question about now reads a subject's latest statement, not the
            # ones it replaced; a superseded anchor goes with the small talk
            # around it. Only where the latest is shown.
            replaced_by = timeline.superseded.get(anchor.message_id)
            if replaced_by is not None and (replaced_by in chosen or any(m.message_id == replaced_by for m in later)):
                dropped[anchor.message_id] = replaced_by
                candidates = (later,)
            candidates = tuple(_without_superseded(c, timeline.superseded, chosen) for c in candidates)
        for candidate in candidates:
            if not candidate:
                continue
            new_days = {(m.conversation_id, day_line(m)) for m in candidate} - days
            # A later message may be of another conversation between the same people
            # (answer/timeline.py): each one new to the evidence adds its header.
            others = {m.conversation_id: m for m in candidate
                      if m.conversation_id != anchor.conversation_id and m.conversation_id not in conversations}
            extra = (header + sum(count_tokens(conversation_header(m)) + 2 for m in others.values())
                     + sum(cost(m) for m in candidate) + sum(count_tokens(d) + 1 for _, d in new_days))
            if used + extra <= budget - kept_back:
                dropped.update((m.message_id, timeline.superseded[m.message_id]) for m in (*group, *later)
                               if m.message_id in timeline.superseded and m not in candidate)
                chosen.update((m.message_id, m) for m in candidate)
                groups.append([m.message_id for m in candidate])
                conversations.update(m.conversation_id for m in (anchor, *candidate))
                days |= new_days
                used += extra
                break

    # The change lines come last, in the budget kept back for them, unless the
    # anchors brought them or a line shown says their subject's state since.
    for m in changes:
        if m.message_id in chosen or timeline.superseded.get(m.message_id) in chosen:
            continue
        new_day = (m.conversation_id, day_line(m))
        extra = (cost(m) + (count_tokens(new_day[1]) + 1 if new_day not in days else 0)
                 + (0 if m.conversation_id in conversations else count_tokens(conversation_header(m)) + 2))
        if used + extra <= budget:
            chosen[m.message_id] = m
            groups.append([m.message_id])
            conversations.add(m.conversation_id)
            days.add(new_day)
            used += extra

    if not chosen:  # even the best anchor alone is over budget: pack the top window, shortened
        return pack_evidence(hits, budget, count_tokens, views)
    latest = timeline.latest & set(chosen)
    text, numbered = render(list(chosen.values()), bodies, latest)
    tokens = count_tokens(text)
    while tokens > budget and len(groups) > 1:  # line estimates were short: drop the last group
        for mid in groups.pop():
            chosen.pop(mid, None)
        latest &= set(chosen)
        text, numbered = render(list(chosen.values()), bodies, latest)
        tokens = count_tokens(text)
    with_messages = [h for h in ordered if h.messages]
    kept = sum(any(m.message_id in chosen for m in h.messages) for h in with_messages)
    superseded = {m: n for m, n in dropped.items() if n in chosen and m not in chosen}
    followed = (m for found in timeline.later.values() for m in found)
    known = {m.message_id: m for m in (*messages.values(), *anchors, *followed)}
    return PackedEvidence(text, numbered, tokens, kept, len(with_messages) - kept,
                          cut_messages=max(len(messages) - len(chosen), 0), latest=latest,
                          earlier=timeline.earlier, past=timeline.past, superseded=superseded,
                          followed={m.message_id for found in timeline.later.values() for m in found},
                          replaced=in_time_order(known[m] for m in superseded if m in known))


def _changes_of_named(question: str, about: str, pool: list[EvidenceMessage], views: EvidenceViews,
                      history: History | None) -> list[EvidenceMessage]:
    """The :data:`CHANGE_LINES` lines of ``pool`` closest in meaning to ``about`` (the
    question without its names) that a person ``question`` names wrote saying a
    state of theirs ended or holds now (their language's words, ``lang.ends``), for
    a question not about the past. "Nope! Left in September. I'm a background
    artist at Nube Animation now" shares no word with "Where does Hattie work
    now?" and is 46th of the 86 lines of her chat by meaning, but it is one of a
    handful where she says something of hers changed. They are read besides the
    anchors, not in their place: fused with them, they pushed out lines other
    answers came from (docs/answers.md). A question that does not say "now" in
    its language's words (``lang.says_now``) gets them too, but only where budget
    is left (:func:`select_evidence`); one about the past gets none."""
    if history is None or lang.asks_about_past(question) or lang.asks_about_earlier(question):
        return []
    named, _ = views.named(question, pool)
    found = [m for m in pool if m.speaker in named and lang.ends(m.text)]
    if not found:
        return []
    near = history.embed(found, speaker=False) @ history.embed_question(about)
    return [found[i] for i in np.argsort(-near, kind="stable")[:CHANGE_LINES]]


def _fused_with_meaning(anchors: list[EvidenceMessage], question: str, pool: list[EvidenceMessage],
                        history: History, wide: bool = False) -> list[EvidenceMessage]:
    """The word ``anchors`` and the :data:`MEANING_ANCHORS` messages of ``pool``
    closest to ``question`` (its names left out) by the home's embedder (within :data:`MEANING_SPREAD`
    of the closest; ``wide``: however far, longer lines favoured by :data:`LENGTH_PRIOR`), in one
    order: each message scores 1/(:data:`FUSION_K` + its place) in each list it is in. No word of
    any language is read for the second list."""
    if not pool:
        return anchors
    closeness = history.embed(pool, speaker=False) @ history.embed_question(question)
    if wide:
        ranked = closeness + LENGTH_PRIOR * np.log([_terms(m) for m in pool])
        closest = [pool[i] for i in np.argsort(-ranked, kind="stable")[:MEANING_ANCHORS]]
    else:
        floor = float(closeness.max()) - MEANING_SPREAD
        closest = [pool[i] for i in np.argsort(-closeness, kind="stable")[:MEANING_ANCHORS]
                   if closeness[i] >= floor]
    score: dict[int, float] = {}
    by_id: dict[int, EvidenceMessage] = {}
    for ranked_list in (anchors, closest):
        for place, m in enumerate(ranked_list):
            score[m.message_id] = score.get(m.message_id, 0.0) + 1.0 / (FUSION_K + place)
            by_id[m.message_id] = m
    return sorted(by_id.values(), key=lambda m: -score[m.message_id])


def _terms(m: EvidenceMessage) -> int:
    """How many terms ``m`` has (its language's words; a CJK run's bigrams), at least 1."""
    return max(sum(1 for _ in lang.of(m.text).tokens(m.text)), 1)


def _values_asked_first(anchors: list[EvidenceMessage], question: str, pool: list[EvidenceMessage],
                        history: History | None, views: EvidenceViews) -> list[EvidenceMessage]:
    """``anchors`` led by the latest :data:`VALUE_HOLDERS` messages in which a
    person the question names writes a value of the kind it asks for (their
    number, their address), found among ``pool`` and the last messages of the
    anchors' conversations; ``anchors`` alone where it asks for no such kind."""
    kinds = lang.kinds_asked(question)
    named, _ = views.named(question, pool)
    if not kinds or not named:
        return anchors
    found = {m.message_id: m for m in pool}
    if history is not None:
        for conversation in {a.conversation_id for a in anchors}:
            for m in history.last_messages(conversation, -1, LATER_CAP):
                found.setdefault(m.message_id, m)
    holders = sorted((m for m in found.values() if m.speaker in named and m.timestamp
                      and any(holds(kind, views(m).text) for kind in kinds)),
                     key=lambda m: m.timestamp or "", reverse=True)[:VALUE_HOLDERS]
    first = {m.message_id for m in holders}
    return holders + [a for a in anchors if a.message_id not in first]


def _only_theirs(anchors: list[EvidenceMessage], question: str, messages: Iterable[EvidenceMessage],
                  views: EvidenceViews) -> tuple[list[EvidenceMessage], bool | None]:
    """Of ``anchors``, those of the people the question names: the messages of
    a conversation one of them writes in, or naming them. "Where does Amir
    live?" is about Amir's chat, not the one where Hannah writes that she
    lives in Chorlton (the bundled reader answered "Chorlton"). A speaker's
    name is how a person is told apart in every language ("李娜" too). The
    others' anchors are left out, not put after theirs: the meaning anchors
    are chosen without the names (answer/history.py, ``message_body``), so
    they bring every person's statements of the kind asked about, and a small
    reader copies another person's e-mail address or number from them. The
    second value: None when the question names no one the evidence's
    speakers are, else whether any anchor is theirs (if none, all are kept)."""
    messages = list(messages)
    named, people = views.named(question, messages)
    if not named:
        return _where_named(anchors, question, messages, views), None
    first = _theirs(anchors, named, people, messages, views)
    return (first, True) if first else (anchors, False)


def _theirs(candidates: Sequence[EvidenceMessage], named: set[str], people: set[str],
            messages: Sequence[EvidenceMessage], views: EvidenceViews) -> list[EvidenceMessage]:
    """Those of ``candidates`` in a conversation where one of the ``named``
    speakers writes (among ``messages``) or that name one of them (``people``: their terms)."""
    conversations = {m.conversation_id for m in messages if m.speaker in named}
    return [m for m in candidates if m.conversation_id in conversations or views(m).stems & people]


def _of_named(question: str, pool: list[EvidenceMessage], views: EvidenceViews) -> list[EvidenceMessage]:
    """``pool``'s messages of the people the question names (:func:`_theirs`),
    where it names any and they write some; else the whole ``pool``."""
    named, people = views.named(question, pool)
    return (_theirs(pool, named, people, pool, views) or pool) if named else pool


def _where_named(anchors: list[EvidenceMessage], question: str, messages: list[EvidenceMessage],
                 views: EvidenceViews) -> list[EvidenceMessage]:
    """Of ``anchors``, those of the conversations that name someone the question
    names who writes none of ``messages`` ("When is Zoe's wedding?": Zoe is
    talked about, not a speaker), where any anchor is: another chat's wedding
    is not hers (the bundled reader answered "2027" from it). A name is a
    capitalised word that does not start a sentence (answer/unknown.py); where
    no conversation of the anchors names one (a month, a script without capitals), all stay."""
    language = lang.of(question)
    names = {term for name in named_as_written(question, (m.text for m in messages))
             for _, _, _, term in language.tokens(name)}
    if not names:
        return anchors
    naming = {m.conversation_id for m in messages if views(m).stems & names}
    kept = [a for a in anchors if a.conversation_id in naming]
    return kept or anchors


def _without_superseded(candidate: list[EvidenceMessage], superseded: dict[int, int],
                        chosen: dict[int, EvidenceMessage]) -> list[EvidenceMessage]:
    """``candidate`` less the messages whose subject's latest is shown (chosen or in it)."""
    shown = set(chosen) | {m.message_id for m in candidate}
    return [m for m in candidate if superseded.get(m.message_id) not in shown]
