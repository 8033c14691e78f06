"""`rawrag show` and `rawrag export` on the demo history: what they write is what the store holds."""

from __future__ import annotations

import json
import re
import stat

import pytest

from rawrag_tui.demo import demo_path

from .conftest import run_cli


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory, embedder):
    from rawrag_tui.memory import Memory

    home = tmp_path_factory.mktemp("show") / "home"
    with Memory.open(home, embedder=embedder) as mem:
        mem.import_path(demo_path(), "jsonl")
    return home


@pytest.fixture
def stored(demo_home, open_memory):
    """{conversation title: its messages as the store holds them}."""
    mem = open_memory(demo_home)
    return {c["title"]: mem.messages(c["id"]) for c in mem.conversations()}


def test_show_a_conversation_and_around_a_message(demo_home, stored):
    code, out, err = run_cli("show", "Family", "--json", home=demo_home)
    assert code == 0, err
    body = json.loads(out)
    assert [m["text"] for m in body["messages"]] == [m["text"] for m in stored["Family"]]
    code, out, err = run_cli("show", "family", "--around", "family-041", "--context", "1", home=demo_home)
    assert code == 0, err
    assert "> Maya  2026-06-07 Sun 09:12  family-041" in out
    assert "family-040" in out and "family-042" in out and "family-039" not in out and "family-043" not in out
    code, out, err = run_cli("show", "famly", home=demo_home)
    assert code == 1 and err.strip() == "rawrag: error: no conversation named 'famly'; near: Family"
    code, out, err = run_cli("show", "Family", "--around", "nope", home=demo_home)
    assert code == 1 and "no message with external id 'nope'" in err


@pytest.mark.parametrize("fmt", ["md", "html", "jsonl"])
def test_export_a_conversation_holds_every_message(demo_home, stored, tmp_path, fmt):
    target = tmp_path / f"family.{fmt}"
    code, _out, err = run_cli("export", "--conversation", "Family", "-o", str(target), home=demo_home)
    assert code == 0, err
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    text = target.read_text(encoding="utf-8")
    messages = stored["Family"]
    assert f"wrote {len(messages)} messages" in err
    if fmt == "jsonl":
        lines = [json.loads(line) for line in text.splitlines()]
        assert [(m["external_id"], m["speaker"], m["text"]) for m in lines] == [
            (m["external_id"], m["speaker"], m["text"]) for m in messages]
    elif fmt == "md":
        assert text.count("\n**") == len(messages)
        for m in messages:
            assert all(f"> {line}" in text for line in m["text"].split("\n") if line)
    else:
        import html

        assert text.count('<div class="m') == len(messages)
        for m in messages:
            assert html.escape(m["text"]) in text
        assert "<h3>2026-06-07 Sun</h3>" in text  # day headings
        assert not re.search(r"https?:|\b(href|src)\s*=|url\(|@import|<script|<link", text, re.I)


def test_html_escapes_everything(tmp_path, open_memory):
    from .conftest import write_jsonl

    mem = open_memory(tmp_path / "esc")
    mem.import_path(write_jsonl(tmp_path / "x.jsonl", [
        {"conversation": "c", "title": "<b>Title</b>", "speaker": "<img src=x onerror=alert(1)>",
         "text": "<script>alert('x')</script> & https://example.com", "timestamp": "2024-01-01T00:00:00Z"}]),
        "jsonl")
    text, count = mem.export("html", conversation="1")
    assert count == 1
    assert "<script>" not in text and "<img" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp;" in text


def test_export_a_source_and_a_search(demo_home, stored, tmp_path):
    code, out, err = run_cli("export", "--source", "demo.jsonl", "--format", "jsonl", home=demo_home)
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == sum(len(v) for v in stored.values())
    assert {m["text"] for m in lines} == {m["text"] for v in stored.values() for m in v}

    target = tmp_path / "hits.jsonl"
    code, out, err = run_cli("export", "--search", "wedding", "--speaker", "maya", "--after", "2026-06",
                             "-o", str(target), home=demo_home)
    assert code == 0, err
    hits = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert hits and all(m["timestamp"] >= "2026-06" for m in hits)
    assert len({m["message_id"] for m in hits}) == len(hits)
    by_id = {m["external_id"]: m["text"] for v in stored.values() for m in v}
    assert all(by_id[m["external_id"]] == m["text"] for m in hits)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600

    code, out, err = run_cli("export", "--speaker", "maya", home=demo_home)
    assert code == 1 and err.strip() == "rawrag: error: export: give one of --conversation, --source or --search"


def test_export_a_source_or_a_conversation_with_filters(demo_home, stored):
    """--speaker (a first name, any case) keeps that person's messages; --after their dates; the
    text is the store's, message for message."""
    code, out, err = run_cli("export", "--source", "demo.jsonl", "--speaker", "maya", "--format", "jsonl",
                             home=demo_home)
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    mayas = [m for v in stored.values() for m in v if m["speaker"] == "Maya"]
    assert mayas and len(lines) == len(mayas)
    assert sorted(m["text"] for m in lines) == sorted(m["text"] for m in mayas)

    code, out, err = run_cli("export", "--conversation", "Family", "--speaker", "MAYA", "--after", "2026-06",
                             "--format", "jsonl", home=demo_home)
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    expected = [m for m in stored["Family"] if m["speaker"] == "Maya" and (m["ts"] or "") >= "2026-06"]
    assert expected and [m["text"] for m in lines] == [m["text"] for m in expected]

    code, out, err = run_cli("export", "--conversation", "Family", "--after", "2031", home=demo_home)
    assert code == 1 and err.strip() == ("rawrag: error: nothing to export: no message passes the filters "
                                         "(after 2031-01-01, conversation Family)")
