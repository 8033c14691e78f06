"""Citations: the ``[n]`` a reader writes, checked against the evidence as the answer streams.

A small reader sometimes invents numbers; those are cut from the answer as
it streams (so what the user sees and what is returned agree) and counted.
"""

from __future__ import annotations

import re

#: ``[3]`` or ``[3, 9]``; four digits are a year ("[2022]"), never a message number.
CITATION = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")


class CitationFilter:
    """Streams text through, holding back a ``[...`` until it is closed, so a
    citation to a number that is not in the evidence can be removed before
    anyone sees it. ``[3, 9]`` with only 3 valid becomes ``[3]``; a citation
    removed whole takes the space before it along (``x [9].`` -> ``x.``), so
    trailing whitespace is held until the next text shows whether it stays."""

    _MAX_HELD = 24  # longer than any citation group a reader writes

    def __init__(self, valid: int):
        self.valid = valid
        self.cited: list[int] = []
        self.dropped = 0
        self._held = ""
        self._space = ""

    def feed(self, piece: str) -> str:
        self._held += piece
        out: list[str] = []
        while self._held:
            start = self._held.find("[")
            if start < 0:
                out.append(self._emit(self._held))
                self._held = ""
                break
            out.append(self._emit(self._held[:start]))
            self._held = self._held[start:]
            end = self._held.find("]")
            if end < 0:
                if len(self._held) > self._MAX_HELD or not re.fullmatch(r"\[[\d,\s]*", self._held):
                    out.append(self._emit(self._held[0]))  # not a citation: let the bracket through
                    self._held = self._held[1:]
                    continue
                break  # maybe a citation still arriving
            match = CITATION.fullmatch(self._held[: end + 1])
            if match:
                kept = self._rewrite(match)
                if kept:
                    out.append(self._emit(kept))
                else:
                    self._space = ""  # the citation goes, and the space before it
                self._held = self._held[end + 1 :]
            else:
                out.append(self._emit(self._held[0]))
                self._held = self._held[1:]
        return "".join(out)

    def flush(self) -> str:
        rest, self._held = self._held, ""
        return self._emit(rest)

    def _emit(self, text: str) -> str:
        if not text:
            return ""
        text = self._space + text
        body = text.rstrip(" \t")
        self._space = text[len(body) :]
        return body

    def _rewrite(self, match: re.Match) -> str:
        numbers = [int(x) for x in match.group(1).split(",")]
        good = [n for n in numbers if 1 <= n <= self.valid]
        self.dropped += len(numbers) - len(good)
        for n in good:
            if n not in self.cited:
                self.cited.append(n)
        return "[" + ", ".join(str(n) for n in good) + "]" if good else ""


def only_citations(answer: str) -> bool:
    """Whether ``answer`` is nothing but citations (and the punctuation around them): "[2]", "[3, 5]."."""
    return bool(CITATION.search(answer)) and not CITATION.sub("", answer).strip(" \t\n.,;:!?()")


def tidy(text: str) -> str:
    """Whitespace left where an invented citation was cut: ``x  .`` -> ``x.``."""
    text = re.sub(r"[ \t]+([.,;:!?])", r"\1", text)
    return re.sub(r"[ \t]{2,}", " ", text).strip()
