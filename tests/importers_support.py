"""Shared checks for the importer tests: run a parser, prove its output clean."""

from __future__ import annotations

import json
import shutil
import zipfile
from datetime import datetime, timedelta
from pathlib import Path

from rawrag_tui.importers.records import KINDS, Conversation, Message, ParseStats
from rawrag_tui.importers.source import ExportSource

FIXTURES = Path(__file__).parent / "fixtures"
ROLES = {"user", "assistant", "system", "tool", "other"}


def parse_all(module, path) -> tuple[list[Conversation], ParseStats]:
    stats = ParseStats()
    with ExportSource(path) as source:
        convs = list(module.parse(source, stats))
    assert_clean(convs)
    return convs, stats


def by_id(convs: list[Conversation]) -> dict[str, Conversation]:
    return {conv.external_id: conv for conv in convs}


def texts(conv: Conversation) -> list[str]:
    return [m.text for m in conv.messages]


def assert_clean(convs: list[Conversation]) -> None:
    """What the store may rely on, whatever the export held."""
    conv_ids: set[str] = set()
    for conv in convs:
        assert isinstance(conv, Conversation)
        assert isinstance(conv.external_id, str) and conv.external_id
        assert conv.external_id not in conv_ids, conv.external_id
        conv_ids.add(conv.external_id)
        assert isinstance(conv.title, str)
        conv.title.encode("utf-8")
        assert conv.kind in KINDS
        assert conv.messages, "a conversation without messages is not yielded"
        ids: set[str] = set()
        for msg in conv.messages:
            assert isinstance(msg, Message)
            assert isinstance(msg.external_id, str) and msg.external_id
            assert msg.external_id not in ids, (conv.external_id, msg.external_id)
            ids.add(msg.external_id)
            assert isinstance(msg.speaker, str) and isinstance(msg.text, str)
            (msg.speaker + msg.text).encode("utf-8")
            assert msg.role in ROLES
            if msg.timestamp is not None:
                assert isinstance(msg.timestamp, datetime)
                if msg.timestamp.tzinfo is not None:
                    assert msg.timestamp.utcoffset() == timedelta(0)
            for seq in (msg.attachments, msg.captions):
                assert isinstance(seq, tuple) and all(isinstance(x, str) for x in seq)
                "".join(seq).encode("utf-8")
            assert msg.parent_external_id is None or isinstance(msg.parent_external_id, str)
            assert isinstance(msg.on_main_branch, bool)
            if msg.extra is not None:
                assert isinstance(msg.extra, dict)
                json.dumps(msg.extra)


def zip_folder(folder: Path, target: Path, prefix: str = "") -> Path:
    """A zip of a fixture folder, as the service would hand it out."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                zf.write(path, prefix + path.relative_to(folder).as_posix())
    return target


def copy_fixture(name: str, target: Path) -> Path:
    shutil.copytree(FIXTURES / name, target)
    return target


def detect_format(source: ExportSource) -> str | None:
    """``importers.detect`` over every format present: the lead's locomo and
    jsonl modules land in main separately, so this branch may lack them."""
    import importlib

    from rawrag_tui.importers import FORMATS

    for name, module_name in FORMATS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            if name in ("locomo", "jsonl"):
                continue
            raise
        if module.detect(source):
            return name
    return None
