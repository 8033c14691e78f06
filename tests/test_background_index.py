"""Useful at once, complete later: words right after an import, meaning as the vectors land.

Real store, real bundled embedder, a real `rawrag index` killed with SIGKILL at a
point the test chooses (conftest.start_and_kill), never "somewhere mid-way".
"""

import json
import re
import threading

import pytest

from rawrag_tui.demo import demo_path

from .conftest import run_cli, start_and_kill
from .test_interrupted import big_history, status


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


@pytest.mark.parametrize("speed", ["real", "instant"])
def test_killed_index_resumes_with_a_progress_bar_and_eta(tmp_path, monkeypatch, speed):
    """The test sets the pace, not the CPU: the run's embedder takes at least 2.5 s over
    its first batch (off a terminal the CLI prints progress at most every 2 s, and a
    rate needs time to measure), then stops before the next batch and is killed there.
    "instant": the same with vectors made at once, as on a CPU many times faster."""
    home = tmp_path / "h"
    big = big_history(tmp_path / "big.jsonl", n_conv=8, per_conv=40)
    assert run_cli("import", str(big), "--no-embed", home=home)[0] == 0
    total = status(home)["pending_embeddings"]
    batch = -(-total // 10)  # one batch fills 2 of the bar's 20 marks
    assert total > batch
    monkeypatch.setenv("RAWRAG_MODELS_COMMIT_BATCH", str(batch))
    seen = start_and_kill(["index"], home, embed_pause_after=batch, min_embed_s=2.5,
                          instant_embedder=speed == "instant")
    # progress comes per piece of the batch (index/pending.py), so the line shows part of it
    counts = [int(n) for n in re.findall(rf"^embed: (\d+)/{total:,} windows, .*\[[#.]+\], ETA ", seen, re.MULTILINE)]
    assert counts and 0 < max(counts) <= batch, seen
    left = status(home)["pending_embeddings"]
    assert left == total - batch
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


class HeldEmbedder:
    """The session's embedder, held before its second commit batch of windows until the test lets it go.

    A batch is embedded in pieces (index/pending.py), so the hold counts windows, not calls: the
    first call after ``after`` windows were embedded starts the second batch, once the first is committed."""

    def __init__(self, inner, after=4):
        self.inner, self.fingerprint, self.dims = inner, inner.fingerprint, inner.dims
        self.windows, self.after = 0, after
        self.held, self.release = threading.Event(), threading.Event()

    def embed(self, texts, kind="document"):
        if kind == "document":
            if self.windows >= self.after and not self.held.is_set():
                self.held.set()
                assert self.release.wait(300), "never let go"  # a guard against a hang only
            self.windows += len(texts)
        return self.inner.embed(texts, kind)


def test_search_runs_while_the_app_embeds_in_the_background(open_memory, embedder):
    """The app's worker holds the store lock only around each commit (Memory.index(lock=...)).

    The search lands between two batches, whatever the CPU: the worker's model is held there."""
    model = HeldEmbedder(embedder)
    mem = open_memory(model=model, models={"commit_batch": 4})
    mem.import_path(demo_path(), "jsonl", embed=False)
    total = mem.status()["pending_embeddings"]
    assert total > 4
    lock = threading.RLock()
    progress: list[tuple[int, int]] = []
    worker = threading.Thread(target=lambda: mem.index(lambda s, d, t: progress.append((d, t)), lock=lock),
                              daemon=True)
    worker.start()
    try:
        assert model.held.wait(300), "the worker never reached its second batch"
        # the worker is in the model now, between two commits: the store lock is free
        assert lock.acquire(timeout=60), "the worker held the store lock while embedding"
        try:
            result = mem.search("Biscuit")
        finally:
            lock.release()
        assert worker.is_alive() and result.hits and result.pending_embeddings == total - 4
    finally:
        model.release.set()
        worker.join(300)
    assert not worker.is_alive()
    assert progress[-1] == (total, total)
    assert mem.search("Biscuit").pending_embeddings == 0


class CountingEmbedder:
    """The session's embedder, recording every document text it embeds; ``hold_first``
    keeps its first batch until the test lets it go (another indexer arrives meanwhile)."""

    def __init__(self, inner, seen: list[str], hold_first: bool = False):
        self.inner, self.fingerprint, self.dims = inner, inner.fingerprint, inner.dims
        self.seen, self.hold_first = seen, hold_first
        self.held, self.release = threading.Event(), threading.Event()

    def embed(self, texts, kind="document"):
        if kind == "document":
            self.seen.extend(texts)
            if self.hold_first:
                self.hold_first = False
                self.held.set()
                assert self.release.wait(300), "never let go"  # a guard against a hang only
        return self.inner.embed(texts, kind)


def test_two_indexers_on_one_home_embed_each_window_once(open_memory, embedder, tmp_path):
    """Two imports at once (the app and `rawrag import`, say) each embed what is pending:
    the second waits for the first's lock, then finds only what is left."""
    seen: list[str] = []
    first_model = CountingEmbedder(embedder, seen, hold_first=True)
    first = open_memory(model=first_model, models={"commit_batch": 8})
    second = open_memory(model=CountingEmbedder(embedder, seen), models={"commit_batch": 8})
    first.import_path(demo_path(), "jsonl", embed=False)
    more = big_history(tmp_path / "more.jsonl", n_conv=2, per_conv=30)
    second.import_path(more, "jsonl", embed=False)
    windows = first.status()["pending_embeddings"]
    waited = threading.Event()
    runs = [threading.Thread(target=first.index, daemon=True),
            threading.Thread(target=lambda: second.index(lambda stage, d, t: stage == "wait" and waited.set()),
                             daemon=True)]
    runs[0].start()
    assert first_model.held.wait(300)  # the first is embedding its first batch...
    runs[1].start()
    assert waited.wait(300)  # ...and the second says it waits for it
    first_model.release.set()
    for run in runs:
        run.join(300)
        assert not run.is_alive()
    assert len(seen) == len(set(seen)) == windows  # every window text embedded once, none twice
    assert first.status()["pending_embeddings"] == 0 == second.status()["pending_embeddings"]
