"""What the answer path reads of the whole history beyond the search's hits.

Two questions need more than the kept windows: which *later* messages of a
conversation speak of the same subject as the evidence (answer/timeline.py;
and which conversations are between the same people, whose later messages
count too),
and whether a name the question asks about occurs anywhere at all (if not,
the answer is "not in your history" before any reader is loaded). Both are
answered from what a home already has: the store and the embedder that
indexed it. :class:`StoreHistory` is that; a caller without a store passes
nothing and the answer path does without.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import numpy as np

from .. import lang
from ..models.protocols import Embedder
from ..search.types import EvidenceMessage
from ..storage.store import Store

#: Message vectors kept between questions, with and without the speaker
#: (384 floats each: ~6 MB at the cap).
CACHE_LIMIT = 4096
#: Question vectors kept: one question is embedded by several steps (the meaning
#: anchors, the asked person's change lines, the timeline, a second reading).
QUESTION_CACHE_LIMIT = 64


class History(Protocol):
    def embed(self, messages: Sequence[EvidenceMessage], speaker: bool = True) -> np.ndarray:
        """One L2-normalised vector per message (as a document): of
        :func:`message_text`, or of :func:`message_body` without ``speaker``."""
        ...

    def embed_question(self, question: str) -> np.ndarray: ...

    def last_messages(self, conversation_id: int, after_seq: int, limit: int) -> list[EvidenceMessage]:
        """The latest ``limit`` main-branch messages of a conversation after ``after_seq``, in order."""
        ...

    def messages_before(self, conversation_id: int, before_seq: int, limit: int) -> list[EvidenceMessage]:
        """Up to ``limit`` main-branch messages of a conversation just before ``before_seq``, in order."""
        ...

    def messages_after(self, conversation_id: int, after_seq: int, limit: int) -> list[EvidenceMessage]:
        """Up to ``limit`` main-branch messages of a conversation just after ``after_seq``, in order."""
        ...

    def earlier_messages(self, anchor: EvidenceMessage, limit: int) -> list[EvidenceMessage]:
        """Up to ``limit`` main-branch messages written just before ``anchor``,
        in time order: its conversation's before it and, where the same people
        talk in other conversations (:meth:`same_people`), theirs sent before it
        (a ChatGPT export's earlier threads; a thread's first message has
        nothing before it in its own)."""
        ...

    def same_people(self, conversation_id: int) -> frozenset[int]:
        """The conversations between exactly this one's people (its speakers),
        itself included: the threads of a ChatGPT or Claude export, where a
        fact told in one thread changes in a later one."""
        ...

    def mentions(self, word: str) -> bool:
        """Whether any message holds ``word`` (or a word it starts, for inflected forms)."""
        ...


def sent_day(message: EvidenceMessage) -> str:
    """The day ``message`` was sent (``YYYY-MM-DD``; empty where it has no send time)."""
    return (message.timestamp or "")[:10]


def in_time_order(messages: Iterable[EvidenceMessage]) -> list[EvidenceMessage]:
    """``messages`` in the order they were written: by place where all are of
    one conversation (a session dated once has one send time), else by send time."""
    messages = list(messages)
    if len({m.conversation_id for m in messages}) <= 1:
        return sorted(messages, key=lambda m: m.seq)
    return sorted(messages, key=lambda m: (m.timestamp or "", m.conversation_id, m.seq))


def message_text(m: EvidenceMessage) -> str:
    """A message as the timeline compares messages with each other: who said it
    and what, with image captions (the same person's statements on one
    subject; its bars were measured on these, answer/timeline.py)."""
    return f"{m.speaker}: {message_body(m)}".strip()


def message_body(m: EvidenceMessage) -> str:
    """A message as its meaning is compared with a question's: what it says,
    with image captions, not who said it. A name before a short line outweighs
    the line: "Priya: My nemesis." was closer to "What is Priya's job?" (0.71)
    than "Priya: First week as a UX designer at Monzo done!" (0.48). Whose
    message it is the selection matches by the speakers' names
    (answer/selection.py), and the question is compared without them
    (:func:`without_names`)."""
    return f"{' '.join(m.text.split())} {' '.join(m.captions)}".strip()


def without_names(question: str, names: Iterable[str]) -> str:
    """``question`` less the people's ``names`` (speakers), cut by the
    question's own language's tokenizer, each with its apostrophe's suffix
    ("Priya's" in English, "王芳" in "王芳的猫叫什么名字", "Jonas" in German),
    and less the words that only ask whether a state goes on (:func:`as_searched`):
    what its meaning is compared with, as the messages are embedded without
    their speakers (:func:`message_body`). The question as it is where
    nothing else would be left."""
    language = lang.of(question)
    terms = set().union(*(language.name_terms(name) for name in names))
    spans = [(start, _possessive_end(question, end)) for start, end, _, term in language.tokens(question)
             if term in terms]
    return _cut(question, spans + _continuation_spans(question))


def as_searched(question: str) -> str:
    """``question`` as the answer path searches for it and compares its meaning:
    less the words that only ask whether a state goes on, in its own language
    (``Language.continuation``: "now", "still", "jetzt"). They name no subject,
    and the latest state is the timeline's to find (answer/timeline.py), not
    the search's: the English changed-facts questions about now, asked with
    " now" (``bench/changed_facts.py --now-word now``), read other evidence and
    gave 16 right answers of 29 where as written they give 19 (docs/answers.md).
    Not in a yes-or-no question: there the word is what is asked ("Does Hannah
    still live in York?" asks whether her York goes on), and its own step reads
    it (answer/yes_no_reading.py); left out, the bundled reader's "Yes" was no
    longer read again (English, bench/yes_no.py: 2 -> 1 of 12 right)."""
    return _cut(question, _continuation_spans(question))


def _continuation_spans(question: str) -> list[tuple[int, int]]:
    """Where ``question`` writes its language's words that ask whether a state goes
    on, unless it is a yes-or-no question (:func:`as_searched`)."""
    language = lang.of(question)
    return [] if language.asks_yes_no(question) else language.continuation_spans(question)


def _cut(question: str, spans: list[tuple[int, int]]) -> str:
    """``question`` less ``spans`` (may overlap), each with the spaces before it
    ("live now?" -> "live?"); the question as it is where nothing else would be left."""
    if not spans:
        return question
    parts, at = [], 0
    for start, end in sorted(spans):
        while start > at and question[start - 1].isspace():
            start -= 1
        parts.append(question[at:start])
        at = max(at, end)
    parts.append(question[at:])
    rest = " ".join("".join(parts).split())
    return rest if any(ch.isalnum() for ch in rest) else question


def _possessive_end(text: str, end: int) -> int:
    """Where a name ending at ``end`` ends with its apostrophe suffix ("Priya's",
    "Jonas'"): the apostrophe and the letters after it, else ``end``."""
    if end < len(text) and text[end] in "'’":
        end += 1
        while end < len(text) and text[end].isalpha():
            end += 1
    return end


class StoreHistory:
    """:class:`History` over a home's store and embedder (loaded only when asked)."""

    def __init__(self, store: Store, embedder: Callable[[], Embedder]):
        self._store = store
        self._embedder = embedder
        self._vectors: dict[tuple[int, str], np.ndarray] = {}
        self._questions: dict[str, np.ndarray] = {}
        self._kin: dict[int, frozenset[int]] = {}
        self._kin_generation: tuple[int, int] | None = None

    def embed(self, messages: Sequence[EvidenceMessage], speaker: bool = True) -> np.ndarray:
        as_text = message_text if speaker else message_body
        keys = [(m.message_id, as_text(m)) for m in messages]
        missing = list({k: None for k in keys if k not in self._vectors})
        if missing:
            if len(self._vectors) + len(missing) > CACHE_LIMIT:
                self._vectors.clear()
            vectors = self._embedder().embed([text for _, text in missing], kind="document")
            self._vectors.update(zip(missing, vectors))
        if not keys:
            return np.zeros((0, 1), dtype=np.float32)
        return np.stack([self._vectors[k] for k in keys])

    def embed_question(self, question: str) -> np.ndarray:
        if question not in self._questions:
            if len(self._questions) >= QUESTION_CACHE_LIMIT:
                self._questions.clear()
            self._questions[question] = self._embedder().embed([question], kind="query")[0]
        return self._questions[question]

    def last_messages(self, conversation_id: int, after_seq: int, limit: int) -> list[EvidenceMessage]:
        conversation = self._store.conversation(conversation_id)
        if conversation is None:
            return []
        rows = self._store.messages(conversation_id, max(0, int(conversation["messages"]) - limit), limit)
        return [_evidence(r, conversation_id, conversation["title"]) for r in rows
                if r["seq"] > after_seq and r["on_main_branch"]]

    def messages_before(self, conversation_id: int, before_seq: int, limit: int) -> list[EvidenceMessage]:
        if before_seq <= 0 or limit <= 0:
            return []
        # Side branches share the seq range (ChatGPT edits): a wider range, the last `limit` kept.
        rows = self._store.messages_between(conversation_id, max(0, before_seq - 4 * limit), before_seq - 1)
        return [_evidence(r, conversation_id, r["conversation"]) for r in rows[-limit:]]

    def messages_after(self, conversation_id: int, after_seq: int, limit: int) -> list[EvidenceMessage]:
        if limit <= 0:
            return []
        # Side branches share the seq range (ChatGPT edits): a wider range, the first `limit` kept.
        rows = self._store.messages_between(conversation_id, after_seq + 1, after_seq + 4 * limit)
        return [_evidence(r, conversation_id, r["conversation"]) for r in rows[:limit]]

    def earlier_messages(self, anchor: EvidenceMessage, limit: int) -> list[EvidenceMessage]:
        own = self.messages_before(anchor.conversation_id, anchor.seq, limit)
        others = sorted(self.same_people(anchor.conversation_id) - {anchor.conversation_id})
        if not others or not anchor.timestamp:
            return own
        rows = self._store.messages_sent_before(others, anchor.timestamp, limit)
        theirs = [_evidence(r, r["conversation_id"], r["conversation"]) for r in rows]
        return in_time_order([*own, *theirs])[-limit:]

    def same_people(self, conversation_id: int) -> frozenset[int]:
        generation = self._store.generation()
        if generation != self._kin_generation:  # an import may have added a thread
            self._kin, self._kin_generation = {}, generation
        if conversation_id not in self._kin:
            kin = frozenset(self._store.same_people(conversation_id)) | {conversation_id}
            # Every one of them has the same people, so the same answer: a ChatGPT export's
            # threads are looked up once, not once per anchor's thread.
            self._kin.update(dict.fromkeys(kin, kin))
        return self._kin[conversation_id]

    def mentions(self, word: str) -> bool:
        return self._store.mentions(word)


def _evidence(row: dict, conversation_id: int, title: str) -> EvidenceMessage:
    """A stored message row as the answer path reads it."""
    return EvidenceMessage(
        message_id=row["id"], external_id=row["external_id"], conversation_id=conversation_id,
        conversation=title, seq=row["seq"], timestamp=row["ts"], speaker=row["speaker"],
        role=row["role"], text=row["text"], captions=tuple(json.loads(row["captions"])),
        attachments=tuple(json.loads(row["attachments"])),
    )
