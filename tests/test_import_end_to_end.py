"""Every export format through the real store: detect, import, re-import, and
mutated exports that end in a clean import or a clean error with the store untouched."""

import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rawrag_tui.errors import UserError
from tests.importers_support import FIXTURES, zip_folder

from .test_store_import import dump

CASES = {
    "chatgpt/single": "chatgpt", "chatgpt/sharded": "chatgpt", "claude/export": "claude",
    "slack/workspace": "slack", "discord/guild": "discord", "discord/dm": "discord",
    "telegram/full": "telegram", "telegram/single": "telegram",
    "whatsapp/android_en": "whatsapp", "whatsapp/ios_de": "whatsapp", "whatsapp/android_es": "whatsapp",
}


@pytest.mark.parametrize("fixture", sorted(CASES))
def test_fixture_imports_whole_and_reimports_as_nothing(fixture, open_memory, tmp_path):
    mem = open_memory()
    target = zip_folder(FIXTURES / fixture, tmp_path / "export.zip")
    first = mem.import_path(target, embed=False)
    assert first.format == CASES[fixture]
    assert first.conversations > 0 and first.messages_added > 0
    counts = mem.store.counts()
    assert counts["messages"] == first.messages_added and counts["windows"] > 0
    again = mem.import_path(target, embed=False)
    assert again.messages_added == 0 and mem.store.counts() == counts
    unzipped = mem.import_path(FIXTURES / fixture, embed=False)  # the unpacked folder is the same export
    assert unzipped.messages_added == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(fixture=st.sampled_from(sorted(CASES)), data=st.data())
def test_mutated_exports_import_cleanly_or_fail_cleanly(fixture, data, open_memory, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mut")
    folder = tmp / "export"
    shutil.copytree(FIXTURES / fixture, folder)
    members = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".json", ".txt"))
    victim = data.draw(st.sampled_from(members))
    raw = bytearray(victim.read_bytes())
    cut = data.draw(st.integers(0, len(raw)))
    how = data.draw(st.sampled_from(["truncate", "flip", "insert"]))
    if how == "truncate":
        raw = raw[:cut]
    elif how == "flip" and raw:
        raw[min(cut, len(raw) - 1)] ^= data.draw(st.integers(1, 255))
    else:
        raw[cut:cut] = data.draw(st.binary(min_size=1, max_size=8))
    victim.write_bytes(bytes(raw))
    mem = open_memory(tmp / "home")
    mem.import_path(FIXTURES / "whatsapp/android_en", embed=False)
    before = dump(mem)
    try:
        mem.import_path(folder, CASES[fixture], embed=False)
    except UserError as exc:
        assert "\n" not in str(exc)
        assert dump(mem) == before
    else:
        assert mem.store.counts()["messages"] >= before[0]["messages"]
