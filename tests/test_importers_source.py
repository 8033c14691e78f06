"""Zip safety of ExportSource, and that each format claims its own exports only."""

from __future__ import annotations

import importlib
import stat
import zipfile
from pathlib import Path

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import FORMATS, ExportSource
from tests.importers_support import FIXTURES, detect_format, zip_folder

OURS = ["chatgpt", "claude", "slack", "discord", "telegram", "whatsapp"]
EXAMPLES = {
    "chatgpt/single": "chatgpt",
    "chatgpt/sharded": "chatgpt",
    "claude/export": "claude",
    "slack/workspace": "slack",
    "discord/guild": "discord",
    "discord/dm": "discord",
    "telegram/full": "telegram",
    "telegram/single": "telegram",
    "whatsapp/android_en": "whatsapp",
    "whatsapp/ios_de": "whatsapp",
    "whatsapp/android_es": "whatsapp",
}
from tests.conftest import LOCOMO  # noqa: E402  (found relative to the repository)


def _zip_with(tmp_path: Path, info: zipfile.ZipInfo, data: bytes = b"x") -> Path:
    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("conversations.json", b"[]")
        zf.writestr(info, data)
    return path


@pytest.mark.parametrize("name", ["/etc/passwd", "../outside.json", "a/../../outside.json", "C:/windows.json"])
def test_unsafe_member_paths_refused(tmp_path, name):
    with pytest.raises(ImportFormatError, match="unsafe member path"):
        ExportSource(_zip_with(tmp_path, zipfile.ZipInfo(name)))


def test_symlink_member_refused(tmp_path):
    info = zipfile.ZipInfo("link.json")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    with pytest.raises(ImportFormatError, match="is a link"):
        ExportSource(_zip_with(tmp_path, info, b"/etc/passwd"))


def test_zip_bomb_refused_before_reading(tmp_path):
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("conversations.json", b"\x00" * (11 * 1024**2))
    with pytest.raises(ImportFormatError, match="zip bomb"):
        ExportSource(path)


def test_folder_symlinks_are_not_members(tmp_path):
    (tmp_path / "conversations.json").write_text("[]")
    (tmp_path / "escape.json").symlink_to("/etc/hostname")
    with ExportSource(tmp_path) as source:
        assert source.names() == ["conversations.json"]


@pytest.mark.parametrize("fixture, expected", sorted(EXAMPLES.items()))
def test_each_fixture_detected_as_its_format_folder_and_zip(tmp_path, fixture, expected):
    with ExportSource(FIXTURES / fixture) as source:
        assert detect_format(source) == expected
        assert [n for n in OURS if importlib.import_module(FORMATS[n]).detect(source)] == [expected]
    with ExportSource(zip_folder(FIXTURES / fixture, tmp_path / "x.zip")) as source:
        assert detect_format(source) == expected


def test_lead_formats_not_claimed(tmp_path):
    """LoCoMo JSON and JSON-lines belong to the lead's modules."""
    jsonl = tmp_path / "chat.jsonl"
    jsonl.write_text(
        '{"conversation": "trip", "timestamp": "2024-01-01T10:00:00Z", "speaker": "Ann", "text": "hi", "id": "1"}\n'
        '{"conversation": "trip", "timestamp": "2024-01-01T10:01:00Z", "speaker": "Bo", "text": "yo"}\n'
    )
    jsonl_as_json = tmp_path / "chat.json"
    jsonl_as_json.write_text(jsonl.read_text())
    candidates = [jsonl, jsonl_as_json] + ([LOCOMO] if LOCOMO.exists() else [])
    for path in candidates:
        with ExportSource(path) as source:
            assert [n for n in OURS if importlib.import_module(FORMATS[n]).detect(source)] == [], path


def test_lead_entries_kept_in_formats():
    assert {"locomo", "jsonl"} <= set(FORMATS) and set(OURS) <= set(FORMATS)


def test_windows_backslash_members_are_readable(tmp_path):
    path = tmp_path / "win.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("export\\conversations.json", b"[]")
    with ExportSource(path) as source:
        assert source.names() == ["export/conversations.json"]
        assert source.read_bytes("export/conversations.json") == b"[]"


@pytest.mark.parametrize("name", ["..\\outside.json", "a\\..\\..\\x.json"])
def test_windows_backslash_traversal_refused(tmp_path, name):
    with pytest.raises(ImportFormatError, match="unsafe member path"):
        ExportSource(_zip_with(tmp_path, zipfile.ZipInfo(name)))
