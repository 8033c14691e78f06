"""What an answer returns: the answer, its citations and how it was reached (public to the faces)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..search.types import EvidenceMessage
from .citations import CITATION, tidy


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
    #: "stated": the message states the date that replaced the reader's answer;
    #: "read": a yes-or-no question was read again over this message, its latest statement.
    how: str = "cited"

    @classmethod
    def of(cls, n: int, m: EvidenceMessage, how: str = "cited") -> Citation:
        return cls(n, m.external_id, m.conversation, m.timestamp, m.speaker, m.text, how)


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
    #: The reader's own answer when a check replaced it (``answer`` is then the
    #: corrected value, the one every face shows first): a "when" answer no
    #: message states, replaced by the date the latest message on the subject
    #: states (answer/checks/stated_dates.py), or a value a later message on
    #: the subject changed (answer/checks/later_values.py). Empty when kept.
    reader_said: str = ""
    #: The note every face shows under the corrected answer: what the reader
    #: said and which message says otherwise ('the reader said "4 May 2026",
    #: which no message says; [2], the latest message on this that states a
    #: date, says 3 May 2026').
    correction: str = ""
    #: Seconds: search, pack, load (the reader factory), warm (the fixed
    #: prefix read or loaded ahead), read and first_token (from the start of
    #: reading, the prefix included, to the end / the first streamed piece).
    timings: dict[str, float] = field(default_factory=dict)
    #: The numbered evidence the reader saw (``evidence[n - 1]`` is ``[n]``); after it,
    #: the messages a second reading read beyond it that the answer cites
    #: (answer/earlier_reading.py).
    evidence: list[EvidenceMessage] = field(default_factory=list)
    evidence_text: str = ""
    #: Where the evidence was read: backend ("bundled" or
    #: "openai-compatible"), model and endpoint ("local" for the bundled
    #: reader's own process); empty when no reader was needed.
    reader: dict[str, str] = field(default_factory=dict)

    def read_by(self) -> str:
        """"read by MODEL at ENDPOINT", the line every face shows; "" without a reader."""
        if not self.reader:
            return ""
        endpoint = self.reader.get("endpoint", "local")
        where = "this machine (bundled llama.cpp)" if endpoint == "local" else endpoint
        return f"read by {self.reader.get('model', '?')} at {where}"

    def budget_note(self) -> str:
        """What the reader did not read, in the words every face shows:
        "read 4 of 117 messages; the rest did not fit the reader's budget"; "" when it read all."""
        if self.cut_messages:
            read = len(self.evidence)
            return f"read {read:,} of {read + self.cut_messages:,} messages; the rest did not fit the reader's budget"
        if self.dropped_windows:
            return f"{self.dropped_windows:,} lower-ranked window(s) left out to fit the reader's context"
        return ""

    def plain_text(self) -> str:
        """The answer without its ``[n]`` markers (what answer metrics score)."""
        return tidy(CITATION.sub("", self.answer))

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
            "reader": dict(self.reader) or None,
        }
