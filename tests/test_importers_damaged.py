"""Damaged and unreadable inputs: one line that names the file (and the member), never a traceback or a hang.

A download cut short or flipped on its way leaves a zip whose directory
still opens but whose members do not read back (a bad CRC, a zlib stream
that does not decode, a lying size, an unknown compression method): those
errors surface deep inside a parser, so the zip member itself turns them
into one line. A pipe or a device is refused by its kind before any read:
a FIFO blocks the first read forever, and /dev/zero never ends.
"""

from __future__ import annotations

import os
import random
import sys

import pytest

from rawrag_tui.errors import UserError

from .conftest import run_cli
from .importers_support import FIXTURES, zip_folder

FLIPS_PER_EXPORT = 24


def _flipped(data: bytes, rng: random.Random, flips: int = 3) -> bytes:
    damaged = bytearray(data)
    for _ in range(flips):
        damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
    return bytes(damaged)


@pytest.mark.parametrize("export", ["slack", "chatgpt", "claude", "telegram", "gemini", "open_webui"])
def test_three_flipped_bytes_in_a_zip_give_one_line_or_an_import_and_never_half(tmp_path, export, open_memory):
    mem = open_memory()
    good = zip_folder(FIXTURES / export, tmp_path / f"{export}.zip").read_bytes()
    rng = random.Random(f"{export}-flips")  # the same damage on every run and machine
    refused = 0
    for i in range(FLIPS_PER_EXPORT):
        path = tmp_path / f"{export}-{i}.zip"
        path.write_bytes(_flipped(good, rng))
        before = mem.counts()
        try:
            mem.import_path(path, embed=False)
        except UserError as exc:
            refused += 1
            line = str(exc)
            assert "\n" not in line and str(path) in line, line
            assert mem.counts() == before  # nothing of a refused file stays
        # anything else (BadZipFile, zlib.error, NotImplementedError...) fails the test with its traceback
    assert refused > FLIPS_PER_EXPORT // 2  # most flips land in compressed data: the checker really ran


def test_a_damaged_member_is_named(tmp_path, open_memory):
    import zipfile

    path = zip_folder(FIXTURES / "slack", tmp_path / "slack.zip")
    with zipfile.ZipFile(path) as zf:
        info = max(zf.infolist(), key=lambda i: i.compress_size)
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start + info.compress_size // 2] ^= 0xFF  # inside the member's compressed bytes
    path.write_bytes(bytes(data))
    with pytest.raises(UserError, match=rf"member '{info.filename}' is damaged .*download the export again"):
        open_memory().import_path(path, embed=False)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_named_pipe_is_refused_without_reading_it(tmp_path):
    fifo = tmp_path / "export.json"
    os.mkfifo(fifo)
    # A hang would hit run_cli's timeout (a guard: the refusal needs no read at all).
    code, _out, err = run_cli("import", str(fifo), home=tmp_path / "home", timeout=120)
    assert code == 1 and err.strip().count("\n") == 0, err
    assert "not a regular file or folder" in err and str(fifo) in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/zero as Linux has it")
def test_a_device_is_refused_without_reading_it(tmp_path):
    code, _out, err = run_cli("import", "/dev/zero", home=tmp_path / "home", timeout=120)
    assert code == 1 and "not a regular file or folder" in err and "Traceback" not in err, err


def test_many_members_each_under_the_one_member_floor_are_still_a_bomb(tmp_path):
    import zipfile

    from rawrag_tui.importers.source import RATIO_FLOOR_BYTES, ExportSource

    path = tmp_path / "bomb.zip"
    chunk = b"\0" * RATIO_FLOOR_BYTES  # each member alone passes the one-member check
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(12):
            zf.writestr(f"part{i:03}.json", chunk)
    with pytest.raises(UserError, match=r"12 members declare 125,829,120 bytes from [\d,]+ compressed .*zip bomb"):
        ExportSource(path)
    # an ordinary export of the same size in readable text is not a bomb
    text = tmp_path / "text.zip"
    rng = random.Random(7)
    words = [f"w{rng.randrange(10**9)}" for _ in range(4000)]
    with zipfile.ZipFile(text, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("conversations.json", " ".join(rng.choice(words) for _ in range(2_000_000)))
    with ExportSource(text) as source:
        assert source.names() == ["conversations.json"]


def test_invalid_utf8_in_json_is_text_with_its_place_not_python_bytes(tmp_path, open_memory):
    export = tmp_path / "conversations.json"
    good = (FIXTURES / "chatgpt" / "single" / "conversations.json").read_bytes()
    at = good.index(b'"author"')
    export.write_bytes(good[:at + 6] + b"\xb5" + good[at + 6:])  # "autho\xb5r"
    with pytest.raises(UserError) as caught:
        open_memory().import_path(export, embed=False)
    line = str(caught.value)
    assert "\n" not in line and "b'" not in line and "\\x" not in line, line
    assert "invalid bytes in UTF8" in line and "byte" in line, line
