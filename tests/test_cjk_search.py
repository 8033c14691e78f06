"""Chinese and Japanese in the full-text channel: real SQLite file, real importer, real search path."""

from __future__ import annotations

import apsw
import pytest

from rawrag_tui.memory import Memory
from rawrag_tui.storage import cjk, migrations
from rawrag_tui.storage.store import Store

from .conftest import LOCOMO, write_jsonl

ZH = "我们上周末去爬了长城，人特别多，但是风景很美。下次带你去北京吃烤鸭。"
JA = "来週の土曜日に友達の結婚式に出席します。ドレスを買わなきゃ。"
DE = "Ich habe gestern ein neues Fahrrad gekauft, es ist blau."
KO = "주말에 서울에서 친구들과 삼겹살을 먹었어요."
MIXED = "开会的时候我用iPhone拍了whiteboard，明日の会議で共有します。Merci beaucoup!"
EMOJI = "😀🎉🙏🏽👍"


def rows(*texts: str) -> list[dict]:
    return [{"conversation": f"c{i}", "speaker": "Ana", "text": t, "timestamp": f"2024-03-0{i + 1}T10:00:00Z"}
            for i, t in enumerate(texts)]


@pytest.fixture
def lexical_memory(tmp_path, home):
    def make(*texts: str) -> Memory:
        mem = Memory.open(home)
        mem.import_path(write_jsonl(tmp_path / "chat.jsonl", rows(*texts)), "jsonl", embed=False)
        return mem

    opened: list[Memory] = []
    yield lambda *texts: opened.append(make(*texts)) or opened[-1]
    for mem in opened:
        mem.close()


def lexical_texts(mem: Memory, query: str) -> list[str]:
    return [m.text for hit in mem.search(query, mode="lexical").hits for m in hit.messages]


@pytest.mark.parametrize("query, expected", [
    ("长城", ZH), ("北京", ZH), ("烤鸭", ZH), ("去北京吃什么？", ZH),
    ("結婚式", JA), ("土曜日", JA), ("ドレス", JA), ("結婚式はいつ", JA),
    ("Fahrrad", DE), ("서울", KO), ("삼겹살", KO),
])
def test_lexical_search_finds_a_word_inside_chinese_and_japanese_text(lexical_memory, query, expected):
    mem = lexical_memory(ZH, JA, DE, KO)
    found = lexical_texts(mem, query)
    assert found and found[0] == expected


def test_a_single_cjk_character_finds_it_anywhere_in_a_run(lexical_memory):
    mem = lexical_memory(ZH, JA, DE)
    assert lexical_texts(mem, "鸭")[0] == ZH  # last character of its run
    assert lexical_texts(mem, "式")[0] == JA  # inside a run


def test_a_word_that_is_absent_finds_nothing(lexical_memory):
    mem = lexical_memory(ZH, JA, DE)
    assert lexical_texts(mem, "上海") == []
    assert lexical_texts(mem, "披萨") == []


def test_mixed_language_emoji_only_and_a_1mb_message_are_indexed_and_searchable(lexical_memory, home):
    big = ("我们讨论了季度预算和招聘计划。" * 40 + "The quarterly budget meeting ran long. ") * 600
    big = big[: 1 << 20]
    assert len(big.encode("utf-8")) > 1_000_000
    mem = lexical_memory(MIXED, EMOJI, big)
    assert mem.store.counts()["messages"] == 3
    for query in ("iPhone", "whiteboard", "会議", "开会", "Merci"):
        assert MIXED in lexical_texts(mem, query), query
    assert big in lexical_texts(mem, "季度预算")
    assert big in lexical_texts(mem, "quarterly budget")
    # Emoji are not words to FTS5: no lexical hit, and no error either.
    assert lexical_texts(mem, EMOJI) == []
    assert mem.search(EMOJI, mode="lexical").hits == []


def test_deleting_a_cjk_conversation_leaves_no_bigram_in_the_file(lexical_memory, home):
    secret = "暗号は紫色のアルマジロです。金庫の番号は秘密。"
    mem = lexical_memory(secret, ZH)
    mem.store.conn.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)")

    def raw() -> bytes:
        return b"".join(p.read_bytes() for p in sorted(home.iterdir()) if p.name.startswith("rawrag.db"))

    needles = ["アルマジロ", "ジロ", "金庫", "紫色"]
    assert all(n.encode() in raw() for n in needles)  # the check below can fail
    mem.delete_conversation(mem.store.conversation_id("jsonl", "c0"))
    after = raw()
    for needle in needles:
        assert needle.encode() not in after, needle
    assert lexical_texts(mem, "金庫") == [] and lexical_texts(mem, "长城") == [ZH]


def test_query_building_quotes_terms_and_matches_the_index(tmp_path):
    assert Store.fts_query('北京 "wedding"') == '"wedding" OR cjk : "北京"'
    assert Store.fts_query("猫") == 'cjk : "猫" *'
    assert Store.fts_query("？！…") is None
    assert cjk.index_column("plain English only") == ""
    assert cjk.index_column("在iPhone上拍的") == "iPhone 在 上拍 拍的 的"
    assert cjk.run_tokens("北京烤鸭") == ["北京", "京烤", "烤鸭", "鸭"]


def _version_1_store(path, texts):
    """A store as rawrag left it before migration 2: one FTS column, CJK runs as single tokens."""
    conn = apsw.Connection(str(path))
    with conn:
        conn.cursor().execute(migrations.MIGRATIONS[0])
        conn.cursor().execute("PRAGMA user_version = 1")
        cur = conn.cursor()
        cur.execute("INSERT INTO sources (format, path, sha256, imported_at) VALUES ('jsonl', 'x', 'h', 'now')")
        cur.execute("INSERT INTO conversations (source_id, format, external_id, title, kind)"
                    " VALUES (1, 'jsonl', 'c', 'c', 'chat')")
        for seq, text in enumerate(texts):
            cur.execute("INSERT INTO windows (conversation_id, seq, token_start, token_end, first_seq, last_seq,"
                        " text, content_hash) VALUES (1, ?, 0, 1, ?, ?, ?, ?)", (seq, seq, seq, text, f"h{seq}"))
            cur.execute("INSERT INTO windows_fts (rowid, text) VALUES (?, ?)", (conn.last_insert_rowid(), text))
    conn.close()


def test_an_existing_store_migrates_with_progress_and_then_finds_cjk(tmp_path, monkeypatch):
    path = tmp_path / "rawrag.db"
    texts = [ZH, JA, DE] * 400  # more than one rebuild batch
    _version_1_store(path, texts)
    before = apsw.Connection(str(path))
    match = "SELECT COUNT(*) FROM windows_fts WHERE windows_fts MATCH ?"
    assert before.cursor().execute(match, ('"长城"',)).fetchone()[0] == 0  # the complaint, reproduced
    assert before.cursor().execute(match, ('"fahrrad"',)).fetchone()[0] == 400
    before.close()

    calls: list[tuple] = []
    store = Store.open(path, progress=lambda stage, done, total: calls.append((stage, done, total)))
    assert migrations.schema_version(store.conn) == len(migrations.MIGRATIONS)
    assert calls[0] == ("rebuild full-text index", 0, 1200) and calls[-1] == ("rebuild full-text index", 1200, 1200)
    assert len(calls) >= 3
    ids = {wid for wid, _ in store.lexical_search("长城", 1000)}
    assert ids == {r[0] for r in store._rows("SELECT id FROM windows WHERE text = ?", (ZH,))}
    assert len(store.lexical_search("結婚式", 1000)) == 400
    assert len(store.lexical_search("Fahrrad", 1000)) == 400
    # Deleting still works on the rebuilt index (secure-delete kept).
    assert store._one("SELECT 1 FROM windows_fts WHERE windows_fts MATCH 'cjk : \"长城\"'") is not None
    with store.transaction():
        store.delete_conversations([1])
    assert store.lexical_search("长城", 5) == []
    store.close()


def test_an_interrupted_migration_leaves_version_1_intact(tmp_path, monkeypatch):
    path = tmp_path / "rawrag.db"
    _version_1_store(path, [ZH, DE])

    def boom(stage, done, total):
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Store.open(path, progress=boom)
    conn = apsw.Connection(str(path))
    assert migrations.schema_version(conn) == 1
    cols = [r[1] for r in conn.cursor().execute("PRAGMA table_info(windows_fts)")]
    assert cols == ["text"]
    conn.close()
    store = Store.open(path)
    assert store.lexical_search("长城", 5)
    store.close()


@pytest.mark.slow
@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo dev conversation not present")
def test_english_coverage_on_locomo_stays_within_a_point(tmp_path, embedder):
    """Before the cjk column (docs/models.md, bundled MiniLM, K=15): lexical 82.0%, dense 74.0%, hybrid 86.0%
    all-evidence coverage. One run embeds the 95 windows once (the runner's vector cache) for all three."""
    from rawrag_tui.eval import locomo, runner
    from rawrag_tui.eval.compare import Setting

    result = runner.run("locomo", str(LOCOMO), locomo.load(LOCOMO),
                        [Setting(mode, 15, 128) for mode in ("lexical", "dense", "hybrid")],
                        primary=locomo.LEVEL, root=tmp_path / "stores", embedder=embedder)
    lexical, dense, hybrid = (100 * s["all"].coverage[locomo.LEVEL]["all"] for s in result.summaries())
    assert result.windows == 95 and result.windows_embedded == 95
    assert lexical >= 81.0, lexical
    assert dense >= 73.0, dense
    assert hybrid >= 85.0, hybrid


def test_highlighting_marks_the_cjk_words_of_the_query():
    from rawrag_tui.search.highlight import match_spans

    text = "来週の土曜日に友達の結婚式に出席します。Wedding dress!"
    assert [text[a:b] for a, b in match_spans("結婚式", text)] == ["結婚式"]
    assert [text[a:b] for a, b in match_spans("wedding 土曜日", text)] == ["土曜日", "Wedding"]
    assert match_spans("北京", text) == []
    assert match_spans("dress code", "a dress, the code") == [(2, 7), (13, 17)]  # English as before


def test_a_second_process_waits_for_the_upgrade_and_does_not_redo_it(tmp_path):
    path = tmp_path / "rawrag.db"
    _version_1_store(path, [ZH, DE])
    holder = apsw.Connection(str(path))
    holder.execute("BEGIN IMMEDIATE")  # another rawrag in the middle of its upgrade
    waiting = apsw.Connection(str(path))
    waiting.set_busy_timeout(50)
    from rawrag_tui.errors import UserError

    with pytest.raises(UserError, match="another rawrag is upgrading this store"):
        migrations.migrate(waiting)
    holder.execute("ROLLBACK")
    holder.close()

    # Now B reads version 1, then blocks on the lock while A upgrades: B must not rebuild again.
    import threading
    import time

    holder = apsw.Connection(str(path))
    holder.execute("BEGIN IMMEDIATE")
    blocked = threading.Event()
    started = time.monotonic()

    def busy(tries: int) -> bool:
        """B asks for the lock, having read version 1: A upgrades only once B is known to wait."""
        blocked.set()
        time.sleep(0.01)  # SQLite's busy retry interval; the order is set by the events, not by time
        return time.monotonic() - started < 120  # a guard against a hang only

    waiting.set_busy_handler(busy)
    calls: list[tuple] = []
    outcome: list = []

    def migrate_b() -> None:
        try:
            outcome.append(migrations.migrate(waiting, lambda *a: calls.append(a)))
        except BaseException as exc:  # noqa: BLE001  (shown by the assert below)
            outcome.append(exc)

    thread = threading.Thread(target=migrate_b)
    thread.start()
    assert blocked.wait(60), "B never waited for the upgrade's lock"
    migrations.MIGRATIONS[1](holder, None)  # type: ignore[operator]
    holder.execute(f"PRAGMA user_version = {len(migrations.MIGRATIONS)}")
    holder.execute("COMMIT")
    thread.join(60)
    assert not thread.is_alive() and outcome == [len(migrations.MIGRATIONS)] and calls == []
    assert migrations.schema_version(waiting) == len(migrations.MIGRATIONS)
    holder.close()
    waiting.close()


def test_import_suggests_the_multilingual_profile_for_a_cjk_history(tmp_path, home):
    from .conftest import run_cli

    cjk_file = write_jsonl(tmp_path / "zh.jsonl", rows(ZH, JA, DE))
    code, out, err = run_cli("import", str(cjk_file), "--no-embed", home=home)
    assert code == 0, err
    assert "2 of 3 messages are Chinese, Japanese or Korean" in out
    assert "rawrag models use multilingual" in out
    english = write_jsonl(tmp_path / "en.jsonl", [{"conversation": "e", "speaker": "Bo", "text": "see you at nine"}])
    code, out, err = run_cli("import", str(english), "--no-embed", home=home)
    assert code == 0 and "multilingual" not in out, err
    (home / "config.toml").write_text('[models]\nprofile = "multilingual"\n', encoding="utf-8")
    again = write_jsonl(tmp_path / "ja.jsonl", [{"conversation": "j", "speaker": "Bo", "text": JA}])
    code, out, err = run_cli("import", str(again), "--no-embed", home=home)
    assert code == 0 and "multilingual" not in out, err
