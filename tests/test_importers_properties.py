"""Random and mutated exports: every importer ends in clean records or one
ImportFormatError, and no detector ever raises."""

from __future__ import annotations

import importlib
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import FORMATS, ExportSource, ParseStats
from tests.importers_support import FIXTURES, assert_clean, zip_folder

OURS = ["chatgpt", "claude", "slack", "discord", "telegram", "whatsapp"]
FIXTURE_SETS = {
    "chatgpt": ["chatgpt/single", "chatgpt/sharded"],
    "claude": ["claude/export"],
    "slack": ["slack/workspace"],
    "discord": ["discord/guild", "discord/dm"],
    "telegram": ["telegram/full", "telegram/single"],
    "whatsapp": ["whatsapp/android_en", "whatsapp/ios_de", "whatsapp/android_es"],
}
SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.sampled_from(["", "0", "1709280000.000200", "2024-01-01T00:00:00Z", "\ud800", "<@U01>", "message"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=8,
)


def _text_members(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".json", ".txt"))


def _run(fmt: str, folder: Path, as_zip: bool, tmp: Path) -> None:
    """Parse with the forced format; clean output or ImportFormatError only."""
    target = zip_folder(folder, tmp / "export.zip") if as_zip else folder
    try:
        source = ExportSource(target)
    except ImportFormatError:
        return
    with source:
        for name in OURS:  # detectors only look: they never raise; a confidence in [0, 1]
            confidence = importlib.import_module(FORMATS[name]).detect(source)
            assert confidence in (True, False) or 0.0 <= confidence <= 1.0
        module = importlib.import_module(FORMATS[fmt])
        stats = ParseStats()
        try:
            convs = list(module.parse(source, stats))
        except ImportFormatError as exc:
            assert "\n" not in str(exc)
            return
        assert_clean(convs)
        assert all(isinstance(e, str) and "\n" not in e for e in stats.errors)
        assert all(isinstance(k, str) and n > 0 for k, n in stats.skipped.items())


def _copy(fixture: str, tmp: Path) -> Path:
    folder = tmp / "export"
    shutil.copytree(FIXTURES / fixture, folder)
    return folder


def _json_paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _json_paths(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _json_paths(child, path + (i,))


def _replace(value, path, new, delete):
    if not path:
        return new
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return value


@pytest.mark.parametrize("fmt", OURS)
@SETTINGS
@given(data=st.data())
def test_byte_mutations(fmt, data):
    fixture = data.draw(st.sampled_from(FIXTURE_SETS[fmt]))
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        folder = _copy(fixture, tmp)
        member = data.draw(st.sampled_from(_text_members(folder)))
        raw = bytearray(member.read_bytes())
        for _ in range(data.draw(st.integers(1, 3))):
            op = data.draw(st.sampled_from(["truncate", "delete", "insert", "flip"]))
            pos = data.draw(st.integers(0, max(len(raw) - 1, 0)))
            if op == "truncate":
                del raw[pos:]
            elif op == "delete":
                del raw[pos : pos + data.draw(st.integers(1, 40))]
            elif op == "insert":
                raw[pos:pos] = data.draw(
                    st.binary(min_size=1, max_size=12) | st.sampled_from([b'"', b"{", b"]", b",", b"\n", b"\xff"])
                )
            elif raw:
                raw[pos] = data.draw(st.integers(0, 255))
        member.write_bytes(bytes(raw))
        _run(fmt, folder, data.draw(st.booleans()), tmp)


@pytest.mark.parametrize("fmt", [f for f in OURS if f != "whatsapp"])
@SETTINGS
@given(data=st.data())
def test_json_structure_mutations(fmt, data):
    fixture = data.draw(st.sampled_from(FIXTURE_SETS[fmt]))
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        folder = _copy(fixture, tmp)
        members = [p for p in _text_members(folder) if p.suffix == ".json"]
        for _ in range(data.draw(st.integers(1, 3))):
            member = data.draw(st.sampled_from(members))
            value = json.loads(member.read_bytes().decode("utf-8", "surrogatepass"))
            path = data.draw(st.sampled_from(list(_json_paths(value))))
            delete = bool(path) and data.draw(st.booleans())
            value = _replace(value, path, data.draw(json_values), delete)
            member.write_text(json.dumps(value, ensure_ascii=data.draw(st.booleans())),
                              encoding="utf-8", errors="surrogatepass")
        _run(fmt, folder, data.draw(st.booleans()), tmp)


@pytest.mark.parametrize("fmt", OURS)
@SETTINGS
@given(data=st.data())
def test_random_member_content(fmt, data):
    fixture = data.draw(st.sampled_from(FIXTURE_SETS[fmt]))
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        folder = _copy(fixture, tmp)
        member = data.draw(st.sampled_from(_text_members(folder)))
        content = data.draw(
            st.binary(max_size=200)
            | json_values.map(lambda v: json.dumps(v).encode("utf-8", "surrogatepass"))
            | st.lists(st.text(max_size=40), max_size=6).map(lambda ls: "\n".join(ls).encode("utf-8", "surrogatepass"))
        )
        member.write_bytes(content)
        _run(fmt, folder, data.draw(st.booleans()), tmp)


@pytest.mark.parametrize("fmt", ["whatsapp"])
@SETTINGS
@given(lines=st.lists(
    st.one_of(
        st.builds(
            lambda d, m, y, h, mi, sep, who, text: f"{d}{sep}{m}{sep}{y}, {h}:{mi:02d} - {who}: {text}",
            st.integers(0, 40), st.integers(0, 40), st.integers(0, 9999), st.integers(0, 30), st.integers(0, 70),
            st.sampled_from(["/", ".", "-"]), st.text(max_size=8), st.text(max_size=30),
        ),
        st.text(max_size=40),
    ),
    min_size=1, max_size=8,
))
def test_whatsapp_random_lines(fmt, lines):
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        folder = tmp / "export"
        folder.mkdir()
        (folder / "WhatsApp Chat with X.txt").write_bytes("\n".join(lines).encode("utf-8", "surrogatepass"))
        _run(fmt, folder, False, tmp)
