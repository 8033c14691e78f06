"""A process killed mid-import or mid-embedding leaves the previous state intact,
and the next run completes the work.

The test sets the pace, not the CPU: each run stops for good at a chosen point
(``start_and_kill``) and is SIGKILLed there, so the kill always lands with work left.
"""

import json

from .conftest import run_cli, start_and_kill, write_jsonl


def big_history(path, n_conv=150, per_conv=40):
    rows = [
        {"conversation": f"c{c}", "id": f"c{c}-{i}", "timestamp": f"2024-0{1 + c % 9}-1{i % 10}T10:{i % 60:02d}:00Z",
         "speaker": ("Ada", "Bo")[i % 2],
         "text": f"conversation {c} message {i}: notes on sailing, bread and chess {i * c}"}
        for c in range(n_conv) for i in range(per_conv)
    ]
    return write_jsonl(path, rows)


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
    # stopped inside the import's transaction, half the export taken
    seen = start_and_kill(["import", str(big), "--no-embed"], home, import_pause_after=75)
    assert "import: " in seen  # it was under way
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
    start_and_kill(["index"], home, embed_pause_after=3 * 8)  # three batches committed, then stopped
    left = status(home)["pending_embeddings"]
    assert left == total - 3 * 8
    code, out, err = run_cli("index", "--json", home=home)
    assert code == 0, err
    assert json.loads(out)["embedded"] == left
    assert status(home)["pending_embeddings"] == 0
