"""bench/run_all.py: discovery, the row convention, ratios, failures, machine info."""

from __future__ import annotations

import importlib.util
import json

import pytest

from .conftest import REPO


@pytest.fixture(scope="module")
def run_all():
    spec = importlib.util.spec_from_file_location("bench_run_all", REPO / "bench" / "run_all.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def bench_dir(tmp_path):
    (tmp_path / "good.py").write_text(
        "CALLS = []\n"
        "def run(quick):\n"
        "    CALLS.append(quick)\n"
        "    return [{'name': 'fast thing', 'value': 30.0, 'unit': 'ms', 'reference_value': 10.0},\n"
        "            {'name': 'given ratio', 'value': 5, 'unit': 'x/s', 'reference_value': 2, 'ratio': 0.4},\n"
        "            {'name': 'absolute', 'value': 1234.5, 'unit': 'MB'}]\n")
    (tmp_path / "broken.py").write_text("def run(quick):\n    raise RuntimeError('no data here')\n")
    (tmp_path / "helpers.py").write_text("X = 1\n")  # no run(): not a benchmark
    (tmp_path / "_private.py").write_text("raise SystemExit('must not be imported')\n")
    (tmp_path / "run_all.py").write_text("raise SystemExit('must not be imported')\n")
    return tmp_path


def test_discovery_skips_itself_and_private_files(run_all, bench_dir):
    assert [p.stem for p in run_all.discover(bench_dir)] == ["broken", "good", "helpers"]
    assert [p.stem for p in run_all.discover(bench_dir, ["good.py"])] == ["good"]
    with pytest.raises(SystemExit, match="no benchmark named nope"):
        run_all.discover(bench_dir, ["nope"])


def test_rows_ratios_and_failures(run_all, bench_dir):
    rows, failures = run_all.run_all(run_all.discover(bench_dir), quick=True)
    assert [(r["bench"], r["name"], r["ratio"]) for r in rows] == [
        ("good", "fast thing", 3.0), ("good", "given ratio", 0.4), ("good", "absolute", None)]
    assert [(f["bench"], f["error"]) for f in failures] == [("broken", "RuntimeError: no data here")]
    with pytest.raises(ValueError, match="lacks unit"):
        run_all.check_row({"name": "x", "value": 1}, "b")


def test_main_prints_machine_and_exits_1_on_a_failure(run_all, bench_dir, capsys):
    assert run_all.main(["--dir", str(bench_dir), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["machine"]["cores"] >= 1 and out["machine"]["cpu"]
    assert out["quick"] is False and len(out["rows"]) == 3 and out["failures"][0]["bench"] == "broken"
    assert run_all.main(["--dir", str(bench_dir), "--only", "good", "--quick"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("machine: ") and "3.00x" in text and "1,234" in text
