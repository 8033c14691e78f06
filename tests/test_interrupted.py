"""A process killed mid-import or mid-embedding leaves the previous state intact,
and the next run completes the work."""

import json
import os
import re
import signal
import subprocess
import sys
import time

from .conftest import REPO, run_cli, write_jsonl


def big_history(path, n_conv=150, per_conv=40):
    rows = [
        {"conversation": f"c{c}", "id": f"c{c}-{i}", "timestamp": f"2024-0{1 + c % 9}-1{i % 10}T10:{i % 60:02d}:00Z",
         "speaker": ("Ada", "Bo")[i % 2],
         "text": f"conversation {c} message {i}: notes on sailing, bread and chess {i * c}"}
        for c in range(n_conv) for i in range(per_conv)
    ]
    return write_jsonl(path, rows)


def start_and_kill(args, home, wait_for: str, timeout: float = 240):
    env = dict(os.environ, RAWRAG_HOME=str(home))
    proc = subprocess.Popen([sys.executable, "-m", "rawrag_tui.cli", *args], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        seen += line
        if re.search(wait_for, line):
            break
        if not line and proc.poll() is not None:
            raise AssertionError(f"finished before it could be killed: {seen}")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return seen


def status(home):
    code, out, err = run_cli("status", "--json", home=home)
    assert code == 0, err
    return json.loads(out)


def test_import_killed_mid_way_keeps_the_old_state_and_reruns_cleanly(tmp_path):
    home = tmp_path / "h"
    small = write_jsonl(tmp_path / "small.jsonl", [{"conversation": "keep", "speaker": "a", "text": "kept message"}])
    assert run_cli("import", str(small), "--no-embed", home=home)[0] == 0
    before = status(home)
    big = big_history(tmp_path / "big.jsonl")
    start_and_kill(["import", str(big), "--no-embed"], home, wait_for=r"^import:")
    after = status(home)
    assert {k: after[k] for k in ("sources", "conversations", "messages", "windows")} == \
           {k: before[k] for k in ("sources", "conversations", "messages", "windows")}
    code, out, err = run_cli("import", str(big), "--no-embed", "--json", home=home)
    assert code == 0, err
    assert json.loads(out)["messages_added"] == 150 * 40
    assert status(home)["messages"] == 150 * 40 + 1


def test_embedding_killed_mid_way_resumes_without_redoing_work(tmp_path, monkeypatch):
    home = tmp_path / "h"
    monkeypatch.setenv("RAWRAG_MODELS_COMMIT_BATCH", "8")
    big = big_history(tmp_path / "big.jsonl", n_conv=30, per_conv=40)
    assert run_cli("import", str(big), "--no-embed", home=home)[0] == 0
    total = status(home)["pending_embeddings"]
    assert total > 3 * 8  # several committed batches
    start_and_kill(["index"], home, wait_for=r"^embed: [1-9]")
    left = status(home)["pending_embeddings"]
    assert 0 < left <= total - 8
    code, out, err = run_cli("index", "--json", home=home)
    assert code == 0, err
    assert json.loads(out)["embedded"] == left
    assert status(home)["pending_embeddings"] == 0
