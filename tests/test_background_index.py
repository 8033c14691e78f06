"""Useful at once, complete later: words right after an import, meaning as the vectors land.

Real store, real bundled embedder, a real `rawrag index` killed with SIGKILL.
"""

import json
import threading
import time

from rawrag_tui.demo import demo_path

from .conftest import run_cli
from .test_interrupted import big_history, start_and_kill, status


def test_search_says_when_only_words_were_searched(tmp_path):
    home = tmp_path / "h"
    assert run_cli("import", str(demo_path()), "--no-embed", home=home)[0] == 0
    code, out, err = run_cli("search", "Biscuit", "--json", home=home)
    assert code == 0, err
    result = json.loads(out)
    assert result["hits"] and result["lexical_only"] is True and result["channels"] == ["lexical"]
    assert result["pending_embeddings"] == status(home)["pending_embeddings"] > 0
    assert result["summary"].startswith("matched by words only")
    code, out, err = run_cli("search", "Biscuit", home=home)
    assert code == 0 and out.startswith("matched by words only") and "lexical channel alone" in err


def test_killed_index_resumes_with_a_progress_bar_and_eta(tmp_path, monkeypatch):
    home = tmp_path / "h"
    monkeypatch.setenv("RAWRAG_MODELS_COMMIT_BATCH", "4")
    big = big_history(tmp_path / "big.jsonl", n_conv=8, per_conv=40)
    assert run_cli("import", str(big), "--no-embed", home=home)[0] == 0
    total = status(home)["pending_embeddings"]
    seen = start_and_kill(["index"], home, wait_for=r"^embed: [1-9]")
    assert "[#" in seen and "ETA" in seen
    left = status(home)["pending_embeddings"]
    assert 0 < left <= total - 4
    # between the runs the store answers: hybrid, partly by meaning, and says what is missing
    code, out, err = run_cli("search", "sailing bread", "--json", home=home)
    result = json.loads(out)
    assert code == 0 and result["channels"] == ["dense", "lexical"] and not result["lexical_only"]
    assert result["pending_embeddings"] == left and any("not embedded yet" in n for n in result["notes"])
    code, out, err = run_cli("index", "--json", home=home)
    assert code == 0, err
    assert json.loads(out)["embedded"] == left  # nothing embedded twice
    code, out, err = run_cli("search", "sailing bread", "--json", home=home)
    assert json.loads(out)["pending_embeddings"] == 0 and json.loads(out)["notes"] == []


def test_search_runs_while_the_app_embeds_in_the_background(open_memory):
    """The app's worker holds the store lock only around each commit (Memory.index(lock=...))."""
    mem = open_memory()
    mem.import_path(demo_path(), "jsonl", embed=False)
    total = mem.status()["pending_embeddings"]
    lock = threading.RLock()
    progress: list[tuple[int, int]] = []
    worker = threading.Thread(target=lambda: mem.index(lambda s, d, t: progress.append((d, t)), lock=lock))
    worker.start()
    searched_while_embedding = []
    deadline = time.monotonic() + 300
    while worker.is_alive() and time.monotonic() < deadline:
        t = time.perf_counter()
        with lock:
            result = mem.search("Biscuit")
        searched_while_embedding.append((time.perf_counter() - t, worker.is_alive(), bool(result.hits)))
        time.sleep(0.05)
    worker.join()
    assert any(alive and found for _, alive, found in searched_while_embedding)
    assert progress[-1] == (total, total)
    assert mem.search("Biscuit").pending_embeddings == 0
