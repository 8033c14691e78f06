"""Exports as people have them: renamed, partial, and with one unreadable
record in the middle. Every format is recognised by its content whatever the
file is called, alone or inside a zip; one bad record is skipped and
reported with its place; a file that is mostly unreadable is refused whole."""

from __future__ import annotations

import json
import shutil
import zipfile
from datetime import datetime
from pathlib import Path

import pytest

from rawrag_tui import importers
from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, ParseStats
from rawrag_tui.importers.chatgpt import PROFILE_ID
from tests.importers_support import FIXTURES, assert_clean, zip_folder


def run(path: Path, fmt: str = "auto"):
    """Detect (or force) and parse through the same entry points the store uses."""
    stats = ParseStats()
    with ExportSource(path) as source:
        fmt = importers.resolve(source, fmt)
        convs = list(importers.parse(fmt, source, stats))
    assert_clean(convs)
    return fmt, convs, stats


def zip_one(member: str, data: bytes, target: Path) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, data)
    return target


def messages(convs) -> list:
    return [m for conv in convs for m in conv.messages]


# -- ChatGPT -------------------------------------------------------------------------


def _chatgpt() -> list:
    data = json.loads((FIXTURES / "chatgpt/single/conversations.json").read_text())
    return [c for c in data if c["id"] != "c-0003"]  # the fixture's deliberately broken one


def test_chatgpt_renamed_list_single_object_and_zip(tmp_path):
    data = _chatgpt()
    renamed = tmp_path / "my chats backup.json"
    renamed.write_text(json.dumps(data))
    fmt, convs, _ = run(renamed)
    assert fmt == "chatgpt" and {c.external_id for c in convs} == {"c-0001", "c-0002", "c-0004", PROFILE_ID}
    one = tmp_path / "thing.json"
    one.write_text(json.dumps(data[0]))
    fmt, convs, _ = run(one)
    assert fmt == "chatgpt" and [c.external_id for c in convs] == ["c-0001", PROFILE_ID]
    assert run(renamed, "chatgpt")[0] == "chatgpt"  # --format on a renamed file works
    fmt, convs, _ = run(zip_one("stuff/export.json", renamed.read_bytes(), tmp_path / "a.zip"))
    assert fmt == "chatgpt" and len(convs) == 4  # with the custom instructions


def test_chatgpt_partial_export_one_shard_renamed(tmp_path):
    shard = (FIXTURES / "chatgpt/sharded/conversations-001.json").read_bytes()
    fmt, convs, _ = run(zip_one("part.json", shard, tmp_path / "partial.zip"))
    assert fmt == "chatgpt" and convs


def test_chatgpt_one_unreadable_message_is_skipped_and_placed(tmp_path):
    data = _chatgpt()
    data[0]["mapping"]["n6"]["message"]["create_time"] = "soon"
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(data))
    _, convs, stats = run(path)
    whole = len(messages(run(_write(tmp_path / "ok.json", _chatgpt()))[1]))
    assert len(messages(convs)) == whole - 1
    assert stats.unreadable == 1
    assert stats.places[0]["where"] == "conversations[0].mapping['n6']"
    assert "create_time" in stats.places[0]["problem"]


def _write(path: Path, data) -> Path:
    path.write_text(json.dumps(data))
    return path


# -- Claude ----------------------------------------------------------------------------


def _claude() -> list:
    data = json.loads((FIXTURES / "claude/export/conversations.json").read_text())
    return [c for c in data if c["uuid"] != "c3-uuid"]


def test_claude_renamed_and_single_object(tmp_path):
    fmt, convs, _ = run(_write(tmp_path / "claude-history.json", _claude()))
    assert fmt == "claude" and "c1-uuid" in {c.external_id for c in convs}
    fmt, [conv], _ = run(_write(tmp_path / "one.json", _claude()[0]))
    assert fmt == "claude" and conv.external_id == "c1-uuid"


def test_claude_partial_export_conversations_alone_in_a_zip(tmp_path):
    data = json.dumps(_claude()).encode()
    fmt, convs, _ = run(zip_one("download/convs.json", data, tmp_path / "claude.zip"))
    assert fmt == "claude" and len(convs) == 2


def test_claude_one_unreadable_message(tmp_path):
    data = _claude()
    data[0]["chat_messages"][2]["created_at"] = "when?"
    _, convs, stats = run(_write(tmp_path / "c.json", data))
    assert stats.unreadable == 1 and stats.places[0]["where"] == "conversations[0].chat_messages[2]"
    ids = {m.external_id for m in messages(convs)}
    assert "h2" not in ids and {"h1", "a1"} <= ids


# -- Slack -----------------------------------------------------------------------------------


def test_slack_renamed_zip_and_lone_day_file(tmp_path):
    fmt, convs, _ = run(zip_folder(FIXTURES / "slack/workspace", tmp_path / "backup (1).zip"))
    assert fmt == "slack" and "#general" in {c.title for c in convs}
    day = tmp_path / "general" / "notes.json"
    day.parent.mkdir()
    shutil.copy(FIXTURES / "slack/workspace/general/2024-03-01.json", day)
    fmt, [conv], _ = run(day)
    assert fmt == "slack" and conv.title == "#general"


def test_slack_partial_export_without_lists(tmp_path):
    folder = tmp_path / "export"
    shutil.copytree(FIXTURES / "slack/workspace/general", folder / "general")
    fmt, [conv], _ = run(folder)
    assert fmt == "slack" and conv.title == "#general"
    assert any(m.speaker.startswith("unknown user") for m in conv.messages)  # no users.json to name them


def test_slack_one_unreadable_message(tmp_path):
    folder = tmp_path / "ws"
    shutil.copytree(FIXTURES / "slack/workspace", folder)
    day = folder / "general" / "2024-03-01.json"
    items = json.loads(day.read_text())
    items.insert(1, {"type": "message", "user": "U01", "text": "lost", "ts": "yesterday"})
    day.write_text(json.dumps(items))
    _, convs, stats = run(folder)
    assert "lost" not in {m.text for m in messages(convs)}
    assert stats.unreadable == 1 and stats.places[0]["where"] == "[1]"
    assert stats.places[0]["file"].endswith("general/2024-03-01.json")


# -- Discord -----------------------------------------------------------------------------------


def test_discord_renamed_and_partial_split(tmp_path):
    dm = next((FIXTURES / "discord/dm").iterdir())
    renamed = tmp_path / "export.json"
    shutil.copy(dm, renamed)
    assert run(renamed)[0] == "discord"
    part2 = next(p for p in (FIXTURES / "discord/guild").iterdir() if "[part 2]" in p.name)
    fmt, [conv], _ = run(zip_one("only-part-two.json", part2.read_bytes(), tmp_path / "p.zip"))
    assert fmt == "discord" and conv.external_id == "456"


def test_discord_one_unreadable_message(tmp_path):
    dm = next((FIXTURES / "discord/dm").iterdir())
    data = json.loads(dm.read_text())
    data["messages"][1]["author"] = "not an object"
    data["messages"][1]["id"] = ["not", "an", "id"]
    _, convs, stats = run(_write(tmp_path / "x.json", data))
    assert stats.unreadable == 1 and stats.places[0]["where"] == "messages[1]"
    assert len(messages(convs)) >= 1


# -- Telegram ------------------------------------------------------------------------------------

SINGLE = FIXTURES / "telegram/single/ChatExport_2019-03-10/result.json"
FULL = FIXTURES / "telegram/full/result.json"


def test_telegram_renamed_and_in_a_zip(tmp_path):
    renamed = tmp_path / "chat.json"
    shutil.copy(SINGLE, renamed)
    assert run(renamed)[0] == "telegram"
    fmt, convs, _ = run(zip_one("Telegram/backup.json", FULL.read_bytes(), tmp_path / "t.zip"))
    assert fmt == "telegram" and len(convs) >= 2


def test_telegram_partial_shapes_any_subset_of_top_level_keys(tmp_path):
    single = json.loads(SINGLE.read_text())
    # One chat's messages without name/type/id, with an entity-list text and a service message.
    msgs = single["messages"] + [
        {"id": 90, "type": "service", "date": "2019-03-10T10:00:00", "actor": "Ann", "action": "pin_message"},
        {"id": 91, "type": "message", "date": "2019-03-10T10:01:00", "from": "Ann", "from_id": "user1",
         "text": ["see ", {"type": "link", "text": "https://x.org"}, " ", {"type": "bold", "text": "now"}]},
    ]
    fmt, [conv], stats = run(_write(tmp_path / "messages-only.json", {"messages": msgs}))
    assert fmt == "telegram" and conv.title.startswith("Telegram chat: ")
    assert conv.messages[-1].text == "see https://x.org now" and stats.skipped["system"] == 1
    again = run(_write(tmp_path / "again.json", {"messages": msgs}))[1][0]
    assert again.external_id == conv.external_id  # the same chat gets the same id each time
    full = json.loads(FULL.read_text())
    fmt, convs, _ = run(_write(tmp_path / "account.json", {"chats": {"list": full["chats"]["list"]}}))
    assert fmt == "telegram" and convs
    fmt, convs, _ = run(_write(tmp_path / "left.json", {"left_chats": full["left_chats"]}))
    assert fmt == "telegram"


def test_telegram_one_unreadable_message(tmp_path):
    data = json.loads(SINGLE.read_text())
    data["messages"][1]["date_unixtime"] = "abc"
    _, [conv], stats = run(_write(tmp_path / "result.json", data))
    assert [m.external_id for m in conv.messages] == ["1", "3"]
    assert stats.places == [{"file": str(tmp_path / "result.json"), "where": "messages[1]",
                             "problem": stats.places[0]["problem"]}]
    assert "date_unixtime" in stats.places[0]["problem"]


# -- WhatsApp ----------------------------------------------------------------------------------------

ANDROID = FIXTURES / "whatsapp/android_en/WhatsApp Chat with Alice.txt"


def test_whatsapp_renamed_without_extension_and_in_a_zip(tmp_path):
    bare = tmp_path / "chat"
    shutil.copy(ANDROID, bare)
    assert run(bare)[0] == "whatsapp"
    fmt, convs, _ = run(zip_one("stuff/notes.txt", ANDROID.read_bytes(), tmp_path / "w.zip"))
    assert fmt == "whatsapp" and convs


def test_whatsapp_partial_export_cut_at_both_ends(tmp_path):
    lines = ANDROID.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = "".join(lines[3:])[:-7]  # starts on a continuation line, ends mid-message
    path = tmp_path / "WhatsApp Chat with Alice.txt"
    path.write_text(cut, encoding="utf-8")
    fmt, [conv], stats = run(path)
    assert fmt == "whatsapp" and conv.messages
    assert stats.places[0]["where"] == "line 1" and "before the first message" in stats.places[0]["problem"]


def test_whatsapp_one_unreadable_line(tmp_path):
    lines = ANDROID.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(5, "2/30/24, 9:20 PM - Bob: the thirtieth of February\n")
    path = tmp_path / "WhatsApp Chat with Alice.txt"
    path.write_text("".join(lines), encoding="utf-8")
    _, [conv], stats = run(path)
    whole = run(ANDROID)[1][0]
    assert len(conv.messages) == len(whole.messages)
    assert stats.places[0]["where"] == "line 6" and "2/30/24" in stats.places[0]["problem"]


@pytest.mark.parametrize(
    "lines, first",
    [
        # Spanish Android: midnight as 00 with a. m. (the reported failure), and 12 a. m.
        (["01/03/21, 00:08 a. m. - Ana: hola", "13/03/21, 12:08 a. m. - Ana: otra"], datetime(2021, 3, 1, 0, 8)),
        (["13/03/21, 12:08 a. m. - Ana: hola"], datetime(2021, 3, 13, 0, 8)),
        (["13/03/21, 12:08 p. m. - Ana: hola"], datetime(2021, 3, 13, 12, 8)),
        (["20/6/2017 8:28 p.\u00a0m. - Michelle: test"], datetime(2017, 6, 20, 20, 28)),
        (["3/15/20, 4:30\u202fPM - Ann: x"], datetime(2020, 3, 15, 16, 30)),
        (["2023-12-20, 5:46 p.m. - Farid: hi"], datetime(2023, 12, 20, 17, 46)),
        (["2023/12/20, 5:46 pm - Farid: hi"], datetime(2023, 12, 20, 17, 46)),
        (["30/08/25 18.00 - Budi: halo"], datetime(2025, 8, 30, 18, 0)),
        (["[13/06/18, 21:26:01] Ann: hi"], datetime(2018, 6, 13, 21, 26, 1)),
        (["\u200e[13.06.18, 21:26:01] Ann: hi"], datetime(2018, 6, 13, 21, 26, 1)),
        (["[2026/7/9 02:28:09] Alice: Hey"], datetime(2026, 7, 9, 2, 28, 9)),
        (["[14/10/2021, 3:34:09\u202fPM] Ann: x"], datetime(2021, 10, 14, 15, 34, 9)),
        (["2018/06/13 午後9:26 - 太郎: こんにちは"], datetime(2018, 6, 13, 21, 26)),
        (["2018/06/13 午前0:05 - 太郎: 深夜"], datetime(2018, 6, 13, 0, 5)),
        (["2020. 3. 15. 오후 4:30 - 홍길동: 안녕"], datetime(2020, 3, 15, 16, 30)),
        (["2020. 3. 15. 오전 12:10 - 홍길동: 안녕"], datetime(2020, 3, 15, 0, 10)),
        (["2021/3/5 下午3:07 - 小明: 你好"], datetime(2021, 3, 5, 15, 7)),
    ],
)
def test_whatsapp_clock_and_date_quirks(tmp_path, lines, first):
    path = tmp_path / "WhatsApp Chat with X.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    fmt, [conv], stats = run(path)
    assert fmt == "whatsapp" and stats.unreadable == 0
    assert conv.messages[0].timestamp == first


def test_whatsapp_multiline_system_and_media_in_many_languages(tmp_path):
    lines = [
        "13/03/21, 10:00 - Los mensajes y las llamadas están cifrados de extremo a extremo.",
        "13/03/21, 10:01 - Ana: primera línea",
        "segunda línea",
        "13/03/21, 10:02 - Ana: <Multimedia omitido>",
        "13/03/21, 10:03 - Bo: <Medien ausgelassen>",
        "13/03/21, 10:04 - Bo: <Media tidak disertakan>",
        "13/03/21, 10:05 - Bo: <Без медиафайлов>",
        "13/03/21, 10:06 - Bo: Se eliminó este mensaje",
    ]
    path = tmp_path / "Chat de WhatsApp con Ana.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _, [conv], stats = run(path)
    assert conv.messages[0].text == "primera línea\nsegunda línea"
    assert len(conv.messages) == 1  # placeholders carry no words: skipped, counted
    assert stats.skipped["media"] == 4
    assert stats.skipped["system"] == 1 and stats.skipped["deleted"] == 1 and stats.unreadable == 0


# -- JSON lines and LoCoMo -------------------------------------------------------------------------------

ROW = {"conversation": "c", "speaker": "a", "text": "hello"}


def _jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def test_jsonl_renamed_partial_and_one_bad_line(tmp_path):
    rows = [dict(ROW, text=f"m{i}") for i in range(4)]
    assert run(_jsonl(tmp_path / "export.txt", rows))[0] == "jsonl"
    cut = tmp_path / "cut.jsonl"
    cut.write_text(_jsonl(tmp_path / "x", rows).read_text()[:-10])  # the last line cut mid-way
    _, convs, stats = run(cut)
    assert len(messages(convs)) == 3 and stats.places[0]["where"] == "line 4"
    _, convs, stats = run(_jsonl(tmp_path / "bad.jsonl", rows[:2] + ["{oops"] + rows[2:]))
    assert len(messages(convs)) == 4 and stats.places[0]["where"] == "line 3"


def _locomo(turns: list) -> dict:
    return {"sample_id": "s1", "qa": [{"question": "q?", "answer": "a", "evidence": ["D1:1"], "category": 1}],
            "conversation": {"speaker_a": "A", "speaker_b": "B", "session_1_date_time": "1:56 pm on 8 May, 2023",
                             "session_1": turns}}


def test_locomo_renamed_partial_and_one_bad_turn(tmp_path):
    turns = [{"speaker": "A", "dia_id": f"D1:{i}", "text": f"t{i}"} for i in range(1, 4)]
    fmt, [conv], _ = run(_write(tmp_path / "bench.json", [_locomo(turns)]))
    assert fmt == "locomo" and len(conv.messages) == 3
    turns.insert(1, {"speaker": "B", "dia_id": "D1:9"})
    _, [conv], stats = run(_write(tmp_path / "sample.json", _locomo(turns)))
    assert len(conv.messages) == 3 and stats.places[0]["where"] == "[0].conversation.session_1[1]"


# -- the threshold and --format ------------------------------------------------------------------------


def test_mostly_unreadable_is_one_error_naming_the_first_place(tmp_path):
    path = _jsonl(tmp_path / "x.jsonl", [ROW, "{", "{", ROW, "{"])
    with pytest.raises(ImportFormatError, match=r"3 of 5 records unreadable.*first: line 2"):
        run(path)


def test_early_verdict_stops_a_long_file_of_the_wrong_kind(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"conversation": "c", "speaker": "a", "text": "ok"}\n' + "{\n" * 1000)
    with pytest.raises(ImportFormatError, match="1000 of 1001"):
        run(path)
    path.write_text("{\n" * 1000 + '{"conversation": "c", "speaker": "a", "text": "ok"}\n')
    with pytest.raises(ImportFormatError, match="20 of 20 records unreadable"):
        run(path, "jsonl")


@pytest.mark.parametrize(
    "fixture, fmt",
    [("chatgpt/single", "chatgpt"), ("claude/export", "claude"), ("slack/workspace", "slack"),
     ("discord/dm", "discord"), ("telegram/full", "telegram"), ("whatsapp/android_en", "whatsapp")],
)
def test_forcing_a_format_works_on_its_own_files_and_names_the_real_one_otherwise(fixture, fmt, tmp_path):
    assert run(FIXTURES / fixture, fmt)[0] == fmt
    wrong = "telegram" if fmt != "telegram" else "chatgpt"
    with ExportSource(FIXTURES / fixture) as source, pytest.raises(ImportFormatError) as info:
        importers.resolve(source, wrong)
    assert f"looks like a {fmt} export" in str(info.value) and f"--format {fmt}" in str(info.value)


def test_every_fixture_detected_by_content_when_renamed(tmp_path):
    cases = [("chatgpt/single/conversations.json", "chatgpt"), ("claude/export/conversations.json", "claude"),
             ("telegram/full/result.json", "telegram"), (str(SINGLE.relative_to(FIXTURES)), "telegram"),
             (str(ANDROID.relative_to(FIXTURES)), "whatsapp")]
    for fixture, fmt in cases:
        renamed = tmp_path / f"renamed-{fmt}.data"
        shutil.copy(FIXTURES / fixture, renamed)
        with ExportSource(renamed) as source:
            assert importers.detect(source) == fmt, fixture


def test_jsonl_renamed_inside_a_zip(tmp_path):
    data = "".join(json.dumps(dict(ROW, text=f"m{i}")) + "\n" for i in range(3)).encode()
    fmt, convs, _ = run(zip_one("backup/messages.txt", data, tmp_path / "j.zip"))
    assert fmt == "jsonl" and len(messages(convs)) == 3


def test_a_name_hint_alone_does_not_win_against_content(tmp_path):
    """A .jsonl name gives jsonl a weak vote; a session log of another tool
    named .jsonl is still named for what it is when jsonl is forced."""
    sessions = sorted((FIXTURES / "claude_code").rglob("*.jsonl")) if (FIXTURES / "claude_code").is_dir() else []
    if not sessions:
        pytest.skip("no Claude Code fixture in this checkout")
    with ExportSource(sessions[0]) as source:
        assert importers.detect(source) == "claude_code"
        with pytest.raises(ImportFormatError, match="looks like a claude_code export"):
            importers.resolve(source, "jsonl")


def test_each_member_is_read_once_by_the_json_detectors(tmp_path, monkeypatch):
    from rawrag_tui.importers import chatgpt, claude, discord, slack, telegram

    folder = tmp_path / "export"
    folder.mkdir()
    for i in range(5):
        (folder / f"notes-{i}.json").write_text(json.dumps({"k": i}))
    opened: list[str] = []
    with ExportSource(folder) as source:
        real_open = source.open
        monkeypatch.setattr(source, "open", lambda name: opened.append(name) or real_open(name))
        for module in (chatgpt, claude, discord, slack, telegram):
            assert not module.detect(source)
    assert sorted(opened) == [f"notes-{i}.json" for i in range(5)]
