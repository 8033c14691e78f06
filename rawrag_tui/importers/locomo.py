"""LoCoMo benchmark samples as conversations (for evaluation and the demo).

A sample is one long two-person conversation in numbered sessions, each with
a date like ``1:56 pm on 8 May, 2023``. The turn's ``dia_id`` ("D1:3") is its
external id, so evidence ids in the QA map straight onto stored messages;
``blip_caption`` (the caption of a shared image) becomes an image caption.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from ..errors import ImportFormatError
from . import _sniff
from ._json import loads
from .records import Conversation, Message, ParseStats
from .source import ExportSource

NAME = "locomo"
_SESSION = re.compile(r"^session_(\d+)$")
MAX_DETECT_BYTES = 256 * 1024**2


def _samples(data: Any) -> list | None:
    if isinstance(data, dict) and "conversation" in data:
        return [data]
    if isinstance(data, list) and data and all(isinstance(s, dict) and "conversation" in s for s in data):
        return data
    return None


def detect(source: ExportSource) -> float:
    """A LoCoMo sample by the shape of its head: ``conversation`` with
    ``speaker_a``, or ``qa`` items with ``evidence`` (``qa`` comes first and
    can be longer than the head)."""
    if source.kind != "file":
        return 0.0
    head = _sniff.head_of(source, source.names()[0])
    for at in ("item", ""):
        if head.has(f"{at}.conversation" if at else "conversation", "speaker_a"):
            return 1.0
        qa = f"{at}.qa.item" if at else "qa.item"
        if head.has(qa, "question", "evidence"):
            return 1.0
    return 0.0


def parse_session_date(text: str) -> datetime:
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")


def load_samples(source: ExportSource) -> list[dict]:
    data = loads(source.read_bytes(source.names()[0]), source.path, NAME)
    samples = _samples(data)
    if samples is None:
        raise ImportFormatError(source.path, NAME, "expected a list of samples with a 'conversation'", "top level")
    return samples


def parse(source: ExportSource, stats: ParseStats) -> Iterator[Conversation]:
    path = source.path
    for index, sample in enumerate(load_samples(source)):
        conv = sample["conversation"]
        where = f"[{index}].conversation"
        if not isinstance(conv, dict) or "speaker_a" not in conv or "speaker_b" not in conv:
            raise ImportFormatError(path, NAME, "conversation needs speaker_a and speaker_b", where)
        sample_id = str(sample.get("sample_id", index))
        sessions = sorted(
            (int(m.group(1)), key) for key in conv if (m := _SESSION.match(key)) and isinstance(conv[key], list)
        )
        messages: list[Message] = []
        for _number, key in sessions:
            date_text = conv.get(f"{key}_date_time")
            try:
                when = parse_session_date(date_text) if date_text else None
            except (ValueError, TypeError):
                raise ImportFormatError(
                    path, NAME, f"unreadable date {date_text!r}", f"{where}.{key}_date_time"
                ) from None
            for t, turn in enumerate(conv[key]):
                twhere = f"{where}.{key}[{t}]"
                if not isinstance(turn, dict) or not all(
                    isinstance(turn.get(k), str) for k in ("speaker", "dia_id", "text")
                ):
                    stats.bad(path, NAME, twhere, "a turn needs string speaker, dia_id and text")
                    continue
                stats.ok()
                caption = turn.get("blip_caption")
                messages.append(
                    Message(
                        external_id=turn["dia_id"], speaker=turn["speaker"], text=turn["text"], timestamp=when,
                        captions=(caption,) if isinstance(caption, str) and caption else (),
                    )
                )
        if not messages:
            stats.verdict(path, NAME)
            raise ImportFormatError(path, NAME, "sample has no sessions", where)
        title = f"{conv['speaker_a']} & {conv['speaker_b']} ({sample_id})"
        yield Conversation(external_id=sample_id, title=title, kind="chat", messages=messages)
