"""What a search returns: hits (windows with scores) and the raw messages behind them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class EvidenceMessage:
    """One original message, exactly as exported, with where it came from."""

    message_id: int  # row id in the store
    external_id: str  # the id in the original export (LoCoMo: dia_id)
    conversation_id: int
    conversation: str  # conversation title
    seq: int  # position in its conversation
    timestamp: str | None  # ISO-8601; "Z"-suffixed when UTC, naive when local time
    speaker: str
    role: str
    text: str
    captions: tuple[str, ...] = ()
    attachments: tuple[str, ...] = ()

    def to_json(self) -> dict:
        d = asdict(self)
        d["captions"] = list(self.captions)
        d["attachments"] = list(self.attachments)
        return d


@dataclass
class Hit:
    """One kept window: its scores through every stage and its expanded messages."""

    window_id: int
    conversation_id: int
    conversation: str
    rank: int  # 1-based, after rerank
    text: str  # the window's serialised text (what was embedded)
    scores: dict[str, float] = field(default_factory=dict)  # dense, lexical, fused, rerank
    ranks: dict[str, int] = field(default_factory=dict)  # rank in each channel (1-based)
    messages: list[EvidenceMessage] = field(default_factory=list)

    @property
    def match(self) -> str:
        """"words" when the lexical channel found the query's words in it, else "meaning"."""
        return "words" if "lexical" in self.scores else "meaning"

    def to_json(self) -> dict:
        return {
            "window_id": self.window_id,
            "match": self.match,
            "rank": self.rank,
            "conversation_id": self.conversation_id,
            "conversation": self.conversation,
            "scores": self.scores,
            "ranks": self.ranks,
            "text": self.text,
            "messages": [m.to_json() for m in self.messages],
        }


@dataclass
class SearchResult:
    query: str
    mode: str
    hits: list[Hit]
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage
    notes: list[str] = field(default_factory=list)  # e.g. windows not yet embedded
    #: The channels that really ran: ["lexical"] while no window is embedded yet.
    channels: list[str] = field(default_factory=list)
    #: Windows still waiting for a vector (the meaning channel cannot see them yet).
    pending_embeddings: int = 0
    #: False when the lexical channel ran and no window holds any of the query's
    #: words: the hits (if any) are nearest by meaning, above the similarity floor.
    words_found: bool | None = None
    #: Set when filters were given and no message passes them (the one line faces show).
    nothing_passes: str | None = None

    @property
    def lexical_only(self) -> bool:
        """Meaning was asked for but only words were searched: nothing is embedded yet."""
        return self.mode in ("dense", "hybrid") and self.channels == ["lexical"] and self.pending_embeddings > 0

    def summary(self) -> str | None:
        """The one line every face shows above the hits when they are not plain
        matches: no message holds the words, or meaning is not searched yet."""
        if self.nothing_passes:
            return self.nothing_passes
        if self.words_found is False:
            if self.hits:
                return f"no message holds the words of “{self.query}”; nearest by meaning:"
            return f"no message holds the words of “{self.query}”, and none is close in meaning"
        if self.lexical_only:
            return (f"matched by words only: {self.pending_embeddings:,} windows are still being embedded, "
                    "search by meaning follows when they are")
        return None

    def evidence(self) -> list[EvidenceMessage]:
        """The hits' messages, deduplicated, ordered by conversation then time."""
        seen: dict[int, EvidenceMessage] = {}
        for hit in self.hits:
            for m in hit.messages:
                seen.setdefault(m.message_id, m)
        return sorted(seen.values(), key=lambda m: (m.conversation_id, m.seq))

    def to_json(self) -> dict:
        return {
            "query": self.query,
            "mode": self.mode,
            "hits": [h.to_json() for h in self.hits],
            "timings": self.timings,
            "notes": self.notes,
            "channels": self.channels,
            "pending_embeddings": self.pending_embeddings,
            "lexical_only": self.lexical_only,
            "words_found": self.words_found,
            "summary": self.summary(),
        }


@dataclass(frozen=True)
class Filters:
    """What a search keeps, as the user typed it (every face passes this to ``Memory.search``).

    ``after``/``before``: ``2016``, ``2016-03``, ``2016-03-14`` or ``30d``/``6m``/``2y`` ago; both
    bounds include the period they name (``before 2016`` keeps all of 2016). ``speakers``: names as
    people type them (case, accents and a first name alone match). ``source``: a source id or its
    format or file name. ``conversation``: an id or a title. ``kind``: chat, channel, group, agent, ...
    A message passes when it passes all of them; a hit shows only the messages that pass (with
    ``speakers``: the window holds that person's message, and its neighbours are the context).
    """

    after: str | None = None
    before: str | None = None
    speakers: tuple[str, ...] = ()
    source: str | None = None
    conversation: str | None = None
    kind: str | None = None

    def __bool__(self) -> bool:
        return any((self.after, self.before, self.speakers, self.source, self.conversation, self.kind))

    def to_json(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v not in (None, ())}


@dataclass(frozen=True)
class QueryTerm:
    """One filter typed into a search box (``from:Neeraj``), with where it sits in the line."""

    key: str  # after, before, from, in, source, kind
    value: str
    start: int
    end: int
    typed: str  # as it reads in the line: ``in:#general``


@dataclass(frozen=True)
class ParsedQuery:
    """A search box's line split by ``toolkit.parse_query``: the words to search and the filters."""

    text: str
    words: str
    filters: Filters
    terms: tuple[QueryTerm, ...] = ()

    def without(self, term: QueryTerm) -> str:
        """The line with ``term`` taken out (removing a filter's chip)."""
        return " ".join((self.text[:term.start] + " " + self.text[term.end:]).split())
