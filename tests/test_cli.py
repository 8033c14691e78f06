"""The real `rawrag` command in a subprocess: output contracts and exit codes."""

import json

import pytest

from rawrag_tui.demo import demo_path

from .conftest import run_cli, write_jsonl


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("cli") / "home"
    code, out, err = run_cli("import", str(demo_path()), "--json", home=home)
    assert code == 0, err
    return home, json.loads(out)


def test_import_json_contract_and_progress_on_stderr(demo_home):
    _, report = demo_home
    assert {"source_id", "conversations", "messages_added", "skipped"} <= set(report)
    assert (report["conversations"], report["messages_added"], report["skipped"]) == (4, 44, {})


def test_reimport_reports_nothing_new(demo_home):
    home, _ = demo_home
    code, out, _err = run_cli("import", str(demo_path()), home=home)
    assert code == 0 and "added 0 of 44 messages" in out and "imported before" in out


def test_status_json_contract(demo_home):
    home, _ = demo_home
    code, out, _ = run_cli("status", "--json", home=home)
    info = json.loads(out)
    assert code == 0
    assert {"sources", "conversations", "messages", "windows", "pending_embeddings", "profile", "home"} <= set(info)
    assert (info["messages"], info["pending_embeddings"], info["profile"], info["home"]) == (
        44, 0, "bundled", str(home))


def test_search_json_hit_contract(demo_home):
    home, _ = demo_home
    code, out, _ = run_cli("search", "Jordan's dog name", "--json", "--limit", "2", "--mode", "hybrid", home=home)
    result = json.loads(out)
    assert code == 0 and result["mode"] == "hybrid" and len(result["hits"]) == 2
    hit = result["hits"][0]
    assert {"window_id", "scores", "messages", "conversation"} <= set(hit)
    msg = hit["messages"][0]
    assert {"external_id", "conversation", "timestamp", "speaker", "text"} <= set(msg)


def test_search_batch_reads_json_lines_and_writes_one_line_per_query(demo_home, tmp_path):
    home, _ = demo_home
    queries = '{"id": "q1", "query": "Biscuit"}\n\n{"id": 2, "query": "wedding date"}\n'
    code, out, err = run_cli("search", "--json", "--batch", "-", "--limit", "1", home=home, stdin=queries)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0, err
    assert [line["id"] for line in lines] == ["q1", 2] and all(len(line["hits"]) == 1 for line in lines)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "query": "ok"}\n{"id": 2}\n')
    code, out, err = run_cli("search", "--json", "--batch", str(bad), home=home)
    assert code == 1 and "line 2" in err and "Traceback" not in err


def test_human_search_explain(demo_home):
    home, _ = demo_home
    code, out, _ = run_cli("search", "climbing Fontainebleau", "--explain", "--limit", "1", home=home)
    assert code == 0 and "#1  Climbing crew" in out and "fused" in out and "rank" in out


@pytest.mark.parametrize(
    "content, name, fragment",
    [
        # One bad line is skipped and reported; most lines bad is the wrong format: an error.
        ('{"conversation": "c", "speaker": "a", "text": "x"}\n{oops\n{again\n', "broken.jsonl", "line 2"),
        ('[{"conversation": {"speaker_a": "A", "speaker_b": "B", "session_1": [{"speaker": "A"}]}}]',
         "broken.json", "session_1[0]"),
    ],
)
def test_bad_file_is_one_line_exit_1_and_store_untouched(demo_home, tmp_path, content, name, fragment):
    home, _ = demo_home
    bad = tmp_path / name
    bad.write_text(content)
    fmt = "jsonl" if name.endswith("jsonl") else "locomo"
    code, out, err = run_cli("import", str(bad), "--format", fmt, home=home)
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0] and fragment in lines[0] and "Traceback" not in err
    code, out, _ = run_cli("status", "--json", home=home)
    assert json.loads(out)["messages"] == 44


def test_usage_errors_exit_2_and_user_errors_exit_1(tmp_path):
    assert run_cli("search", "--mode", "psychic", "x", home=tmp_path / "h")[0] == 2
    assert run_cli("frobnicate", home=tmp_path / "h")[0] == 2
    code, _, err = run_cli("search", home=tmp_path / "h")
    assert code == 1 and "give a query" in err
    code, _, err = run_cli("import", str(tmp_path / "missing.json"), home=tmp_path / "h")
    assert code == 1 and "no such file" in err and "Traceback" not in err


def test_delete_needs_confirmation_then_deletes(tmp_path):
    home = tmp_path / "h"
    src = write_jsonl(tmp_path / "a.jsonl", [{"conversation": "c", "speaker": "a", "text": "hello there"}])
    assert run_cli("import", str(src), "--no-embed", home=home)[0] == 0
    code, _, err = run_cli("delete", "--conversation", "1", home=home, stdin="")
    assert code == 1 and "--yes" in err
    code, out, _ = run_cli("delete", "--conversation", "1", "--yes", "--json", home=home)
    assert code == 0 and json.loads(out)["messages"] == 1
    code, _, err = run_cli("delete", "--conversation", "1", "--yes", home=home)
    assert code == 1 and "no conversation with id 1" in err


def test_index_after_no_embed(tmp_path):
    home = tmp_path / "h"
    src = write_jsonl(tmp_path / "a.jsonl", [{"conversation": "c", "speaker": "a", "text": "hello there"}])
    run_cli("import", str(src), "--no-embed", home=home)
    code, out, err = run_cli("index", "--json", home=home)
    assert code == 0 and json.loads(out)["embedded"] == 1 and "embed: 1/1 windows" in err


def test_demo_runs_offline_and_finds_the_changed_facts(tmp_path):
    code, out, err = run_cli("demo", "--no-ask", "--json", "--home", str(tmp_path / "demo"))
    assert code == 0, err
    result = json.loads(out)
    assert result["import"]["messages_added"] == 44
    by_q = {q["question"]: " ".join(m["text"] for m in q["top_evidence"]) for q in result["questions"]}
    assert "Biscuit" in by_q["What is the name of Jordan's dog?"]
    assert "11 October" in by_q["When is Maya's wedding?"]
    assert "Lisbon" in by_q["Where does Jordan live now?"]


def test_models_use_embeds_what_the_profile_lacks_with_progress(tmp_path):
    home = tmp_path / "h"
    src = write_jsonl(tmp_path / "a.jsonl", [{"conversation": "c", "speaker": "a", "text": "hello there"}])
    assert run_cli("import", str(src), "--no-embed", home=home)[0] == 0
    code, out, err = run_cli("models", "use", "bundled", home=home)
    assert code == 0, err
    assert "1 windows embedded" in out and "embed: 1/1 windows" in err
    assert json.loads(run_cli("status", "--json", home=home)[1])["pending_embeddings"] == 0


#: One command line per leaf command (the fewest arguments it parses with).
EVERY_COMMAND = [
    ["import", "x.json"], ["index"], ["search", "q"], ["ask", "q"], ["show", "1"], ["export", "--conversation", "1"],
    ["search", "q", "--after", "2016", "--speaker", "a", "--kind", "chat"], ["status"], ["doctor"],
    ["delete", "--source", "1"], ["models", "list"], ["models", "pull", "qwen3-0.6b"],
    ["models", "export", "hf", "--role", "embed", "--out", "o"], ["models", "embed", "--model", "m", "t"],
    ["models", "rerank", "--model", "m", "q", "d"], ["models", "use", "bundled"],
    ["reader", "use", "bundled"], ["reader", "use", "http://127.0.0.1:8080/v1", "m"], ["reader", "list"],
    ["eval", "locomo", "f.json"], ["eval", "longmemeval", "f.json"], ["demo"], ["mcp"],
    ["sync"], ["sync", "--watch"], ["sync", "--install", "--every", "5"], ["sync", "list"], ["sync", "add", "p"],
    ["sync", "add", "p", "--pattern", "*.zip"], ["sync", "remove", "p"],
    ["init"], ["init", "--encrypt", "--no-keyring"], ["encrypt"], ["decrypt"], ["rekey", "--quiet"],
]


def test_every_command_line_carries_home_and_json():
    """Commands read args.home and args.json directly: the top-level parser defines both."""
    from rawrag_tui.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert {argv[0] for argv in EVERY_COMMAND} == set(sub.choices)
    for argv in [[], *EVERY_COMMAND]:
        args = build_parser().parse_args(argv)
        assert (args.home, args.json) == (None, False), argv
        args = build_parser().parse_args(["--home", "h", "--json", *argv])
        assert (args.home, args.json) == ("h", True), argv
