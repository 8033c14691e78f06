"""LoCoMo benchmark samples as conversations (for evaluation and the demo).

A sample is one long two-person conversation in numbered sessions, each with
a date like ``1:56 pm on 8 May, 2023``. The turn's ``dia_id`` ("D1:3") is its
external id, so evidence ids in the QA map straight onto stored messages;
``blip_caption`` (the caption of a shared image) becomes an image caption.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Iterator

from ..errors import ImportFormatError
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


def detect(source: ExportSource) -> bool:
    if source.kind != "file" or source.path.suffix.lower() != ".json":
        return False
    if source.path.stat().st_size > MAX_DETECT_BYTES:
        return False
    with source.open(source.names()[0]) as fh:
        head = fh.read(1 << 16)
    if b'"speaker_a"' not in head and b'"conversation"' not in head and b'"qa"' not in head:
        return False
    try:
        data = loads(source.read_bytes(source.names()[0]), source.path, NAME)
    except ImportFormatError:
        return False
    samples = _samples(data)
    return bool(samples) and isinstance(samples[0]["conversation"], dict) and "speaker_a" in samples[0]["conversation"]


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
        for number, key in sessions:
            date_text = conv.get(f"{key}_date_time")
            try:
                when = parse_session_date(date_text) if date_text else None
            except (ValueError, TypeError):
                raise ImportFormatError(path, NAME, f"unreadable date {date_text!r}", f"{where}.{key}_date_time") from None
            for t, turn in enumerate(conv[key]):
                twhere = f"{where}.{key}[{t}]"
                if not isinstance(turn, dict) or not all(isinstance(turn.get(k), str) for k in ("speaker", "dia_id", "text")):
                    raise ImportFormatError(path, NAME, "a turn needs string speaker, dia_id and text", twhere)
                caption = turn.get("blip_caption")
                messages.append(
                    Message(
                        external_id=turn["dia_id"], speaker=turn["speaker"], text=turn["text"], timestamp=when,
                        captions=(caption,) if isinstance(caption, str) and caption else (),
                    )
                )
        if not messages:
            raise ImportFormatError(path, NAME, "sample has no sessions", where)
        title = f"{conv['speaker_a']} & {conv['speaker_b']} ({sample_id})"
        yield Conversation(external_id=sample_id, title=title, kind="chat", messages=messages)
