"""`rawrag eval` end to end, in a subprocess, on the hand-made fixtures."""

from __future__ import annotations

import json

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
    code, out, err = run_cli("eval", "locomo", str(bad))
    assert code == 1 and err.count("\n") == 1 and "rawrag: error:" in err and "bad.json" in err
    code, _, err = run_cli("eval", "locomo", str(tmp_path / "missing.json"))
    assert code == 1 and "no such file" in err
    code, _, err = run_cli("eval", "locomo", str(bad), "--compare", "mode=fast")
    assert code == 1 and "unknown mode 'fast'" in err
    code, _, err = run_cli("eval", "longmemeval", str(bad), "--k", "0")
    assert code == 1 and "--k must be at least 1" in err
