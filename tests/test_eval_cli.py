"""`rawrag eval` end to end, in a subprocess, on the hand-made fixtures."""

from __future__ import annotations

import json

import pytest

from .conftest import run_cli
from .eval_fixtures import write_locomo, write_longmemeval


def test_eval_locomo_compare_json(tmp_path):
    data = write_locomo(tmp_path / "locomo.json")
    store = tmp_path / "evalhome"
    code, out, err = run_cli("eval", "locomo", str(data), "--k", "1", "--compare", "mode=lexical,mode=hybrid,k=2",
                             "--mode", "lexical", "--json", "--home", str(store), "--quiet")
    assert code == 0, err
    report = json.loads(out)
    assert report["questions"] == 5 and report["haystacks"] == 2 and report["windows"] == 9
    labels = [s["setting"]["label"] for s in report["settings"]]
    assert labels == ["lexical k=1 n=128", "hybrid k=1 n=128", "lexical k=2 n=128"]
    first = report["settings"][0]
    assert first["vs_first"] is None
    cov = first["summary"]["all"]["coverage"]["evidence"]
    assert (cov["scored"], cov["all"], cov["any"]) == (4, 0.75, 1.0)
    assert first["summary"]["1 multi-hop"]["coverage"]["evidence"]["all"] == 0.0
    k2 = report["settings"][2]
    assert k2["summary"]["all"]["coverage"]["evidence"]["all"] == 1.0
    diff = k2["vs_first"]["coverage_all"]
    assert diff["delta"] == 0.25 and diff["n"] == 4 and diff["low"] <= 0.25 <= diff["high"]
    assert report["timings"]["embed_s"] > 0  # hybrid needs vectors
    assert any("no parseable evidence" in n for n in report["notes"])
    assert (store / "fx-1" / "rawrag.db").exists() and (store / "fx-2" / "rawrag.db").exists()


def test_eval_text_report_and_longmemeval(tmp_path):
    data = write_longmemeval(tmp_path / "lme.json")
    code, out, err = run_cli("eval", "longmemeval", str(data), "--mode", "lexical", "--k", "1",
                             "--compare", "k=1,k=2")
    assert code == 0, err
    assert "longmemeval: 3 questions over 3 histories" in out
    assert "session all" in out and "turn any" in out and "abstention" in out
    assert "delta vs lexical k=1 n=128" in out
    assert "[3/3] q-none_abs" in err  # progress on stderr


def test_eval_user_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"conversation": 3}')
    code, _out, err = run_cli("eval", "locomo", str(bad))
    assert code == 1 and err.count("\n") == 1 and "rawrag: error:" in err and "bad.json" in err
    code, _, err = run_cli("eval", "locomo", str(tmp_path / "missing.json"))
    assert code == 1 and "no such file" in err
    code, _, err = run_cli("eval", "locomo", str(bad), "--compare", "mode=fast")
    assert code == 1 and "unknown mode 'fast'" in err
    code, _, err = run_cli("eval", "longmemeval", str(bad), "--k", "0")
    assert code == 1 and "--k must be at least 1" in err


def _eval_in_process(capsys, *argv: str) -> str:
    """`rawrag eval ...` in this process, so the reader double stands in for Memory.ask."""
    from rawrag_tui.cli import build_parser

    args = build_parser().parse_args(["eval", *argv])
    assert args.func(args) == 0
    return capsys.readouterr().out


def _reader_replies() -> dict:
    from rawrag_tui.errors import ReaderCrashed

    from .eval_fixtures import locomo_samples

    first, second = locomo_samples()
    replies: dict = {qa["question"]: qa["answer"] for qa in first["qa"][:2]}  # right on fx-1#0 (c4), fx-1#1 (c1)
    replies["When did Marguerite move to Lisbon?"] = ReaderCrashed("the reader was killed (SIGKILL)")  # fx-1#2 (c2)
    replies[second["qa"][0]["question"]] = "blue walls"  # wrong on fx-2#0 (c4)
    return replies


def test_eval_reader_json_has_f1_per_category_timings_and_crashes(tmp_path, monkeypatch, capsys):
    from .test_eval_locomo import FIRST_TOKEN_S, READ_S, install_reader_double

    install_reader_double(monkeypatch, _reader_replies(), [])
    data = write_locomo(tmp_path / "locomo.json")
    report = json.loads(_eval_in_process(capsys, "locomo", str(data), "--mode", "lexical", "--k", "1", "--reader",
                                         "--json", "--details", "--home", str(tmp_path / "s"), "--quiet"))
    assert report["reader"] is True
    summary = report["settings"][0]["summary"]
    f1 = {group: s["answer_score"] for group, s in summary.items()}
    # c4: "Pickles [2]." right (1.0, markers not scored), "blue walls" wrong; c1 right; c2 crashed (0);
    # c3 declined (0).
    assert f1 == {"1 multi-hop": 1.0, "2 temporal": 0.0, "3 open-domain": 0.0, "4 single-hop": 0.5,
                  "all": pytest.approx(2 / 5)}
    overall = summary["all"]
    assert overall["reader_crashes"] == 1 and summary["2 temporal"]["reader_crashes"] == 1
    assert overall["first_token_s_mean"] == FIRST_TOKEN_S and overall["read_s_mean"] == READ_S
    assert READ_S < overall["question_s_mean"] < READ_S + 5
    outcomes = {o["question_id"]: o for o in report["settings"][0]["outcomes"]}
    assert outcomes["fx-1#0"]["answer"] == "Pickles." and outcomes["fx-1#0"]["first_token_s"] == FIRST_TOKEN_S
    assert outcomes["fx-1#2"]["error"] == "the reader was killed (SIGKILL)" and outcomes["fx-1#2"]["score"] == 0.0


def test_eval_reader_text_report_counts_crashes(tmp_path, monkeypatch, capsys):
    from .test_eval_locomo import install_reader_double

    install_reader_double(monkeypatch, _reader_replies(), [])
    data = write_locomo(tmp_path / "locomo.json")
    out = _eval_in_process(capsys, "locomo", str(data), "--mode", "lexical", "--k", "1", "--reader", "--quiet")
    assert "answer F1" in out and "first token s" in out and "crashes" in out
    rows = {line.split("  ")[0]: line.split() for line in out.splitlines() if line.startswith(("2 temporal", "all "))}
    assert rows["2 temporal"][-1] == "1" and rows["all"][-1] == "1"  # the crashes column
    assert "reader: " in out and "first token 0.10s" in out and "1 reader crash(es), scored 0" in out
    assert "note: the reader crashed on 1 question(s), scored 0: the reader was killed (SIGKILL)" in out
