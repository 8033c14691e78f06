"""Message-level evidence: what of the kept windows the reader actually reads.

Windows show where to look; a small reader on a CPU cannot read all of them
(15 windows are ~4,900 tokens: over a minute on 2 cores, and a 0.5B model
loses the thread in them). So the budget is spent on the messages that hold
the evidence:

- **anchors**: messages sharing a content word with the question (speaker
  names do not count: they match every line a person wrote), taken in the
  rank order of their best window, most matching first within a window;
- **neighbours**: the message before and after each anchor, for the
  context a reply needs ("Yes, on Saturday!"); where both do not fit, the
  one after;
- **the latest fact wins**: an anchor that a later message on the same
  subject changes (a change word such as "moved", "postponed", "cancelled",
  "instead", "no longer", plus a question word they share) is replaced by that
  later message and left out. A small reader takes the first date it reads;
  it cannot be trusted to prefer the later one, so it is not shown the
  stale one. What is left out is counted and reported.

Without any anchor (a question sharing no word with its evidence), the
windows are packed whole, in rank order, as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..search.types import EvidenceMessage, Hit
from ..words import word_stems
from .evidence import EvidenceViews
from .packing import PackedEvidence, TokenCounter, conversation_header, numbered_line, pack_evidence, render

#: Words with which a message says an earlier plan or fact changed.
CHANGE_CUE = re.compile(
    r"\b(?:mov(?:e|ed|es|ing)|postpon\w*|reschedul\w*|cancel\w*|called off|change of plans?|changed|"
    r"instead|no longer|not any ?more|anymore|switch(?:ed)?)\b",
    re.IGNORECASE,
)
_CUE_STEMS = word_stems("move moved moves moving postponed rescheduled cancelled called change changed instead "
                        "longer anymore switched plans")
#: Messages either side of an anchor that come along with it.
NEIGHBOURS = 1


def superseded_by(anchors: Sequence[EvidenceMessage], terms: set[str],
                  views: EvidenceViews | None = None) -> dict[int, int]:
    """Anchor id -> id of the latest later anchor that changes it (same subject, a change word)."""
    views = views or EvidenceViews()
    changes = [n for n in anchors if n.timestamp and CHANGE_CUE.search(n.text)]
    out: dict[int, int] = {}
    for m in anchors:
        if not m.timestamp:
            continue
        subject = (views(m).stems & terms) - _CUE_STEMS
        later = [n for n in changes if (n.timestamp or "") > m.timestamp
                 and subject & views(n).stems]
        if later:
            out[m.message_id] = max(later, key=lambda n: n.timestamp or "").message_id
    return out


def select_evidence(hits: Sequence[Hit], question: str, budget: int, count_tokens: TokenCounter,
                    views: EvidenceViews | None = None) -> PackedEvidence:
    """The messages worth reading within ``budget`` tokens (see the module's doc)."""
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
    if not anchors:
        return pack_evidence(hits, budget, count_tokens, views)

    superseded = superseded_by(anchors, terms, views)
    bodies: dict[int, str] = {}
    costs: dict[int, int] = {}

    def cost(m: EvidenceMessage) -> int:
        if m.message_id not in costs:
            body = bodies.setdefault(m.message_id, views(m).body)
            costs[m.message_id] = count_tokens(numbered_line(10, m, body)) + 2  # newline, a possible gap line
        return costs[m.message_id]

    chosen: dict[int, EvidenceMessage] = {}
    groups: list[list[int]] = []
    conversations: set[int] = set()
    used = 0
    for anchor in anchors:
        if anchor.message_id in superseded:
            anchor = messages[superseded[anchor.message_id]]
        if anchor.message_id in chosen:
            continue
        around = [at.get((anchor.conversation_id, anchor.seq + d)) for d in range(-NEIGHBOURS, NEIGHBOURS + 1)]
        group = [m for m in around if m is not None and m.message_id not in chosen
                 and m.message_id not in superseded]
        if anchor not in group:
            group.append(anchor)
        header = 0 if anchor.conversation_id in conversations else count_tokens(conversation_header(anchor)) + 2
        # Short of room for both neighbours, the reply after an anchor comes
        # before the message it answered: "OK, new goal: 1:50." settles what
        # the anchor only proposed.
        reply = [m for m in group if m.seq == anchor.seq + 1]
        for candidate in (group, [anchor, *reply], [anchor]):
            extra = header + sum(cost(m) for m in candidate)
            if used + extra <= budget:
                chosen.update((m.message_id, m) for m in candidate)
                groups.append([m.message_id for m in candidate])
                conversations.add(anchor.conversation_id)
                used += extra
                break

    if not chosen:  # even the best anchor alone is over budget: pack the top window, shortened
        return pack_evidence(hits, budget, count_tokens, views)
    text, numbered = render(list(chosen.values()), bodies)
    tokens = count_tokens(text)
    while tokens > budget and len(groups) > 1:  # line estimates were short: drop the last group
        for mid in groups.pop():
            chosen.pop(mid, None)
        text, numbered = render(list(chosen.values()), bodies)
        tokens = count_tokens(text)
    with_messages = [h for h in ordered if h.messages]
    kept = sum(any(m.message_id in chosen for m in h.messages) for h in with_messages)
    return PackedEvidence(text, numbered, tokens, kept, len(with_messages) - kept,
                          cut_messages=len(messages) - len(chosen),
                          superseded={k: v for k, v in superseded.items() if v in chosen})
