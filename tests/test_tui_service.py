"""The app's rules that need no terminal: the ask adapter, citations, progress and cancel."""

from __future__ import annotations

import threading

import pytest

from rawrag_tui.answer.types import Answer, Citation
from rawrag_tui.search.types import EvidenceMessage
from rawrag_tui.tui import keys, service
from rawrag_tui.tui.widgets.paths import suggest_path


def test_ask_passes_the_streams_to_memory_ask():
    seen, evidence, progress = [], [], []

    class Mem:
        def ask(self, question, date=None, on_token=None, on_evidence=None, on_progress=None):
            on_evidence("packed")
            on_progress("read", 512, 1024)
            on_token("b")
            return "done"

    assert service.ask(Mem(), "q", seen.append, evidence.append, lambda *a: progress.append(a)) == "done"
    assert seen == ["b"] and evidence == ["packed"] and progress == [("read", 512, 1024)]


def test_the_gate_holds_the_store_lock_around_each_call_and_lends_it_to_index():
    """Each typed call runs under the app's one lock; index only gets the lock, to take
    around each commit (searches run while the model embeds); import stores without embedding."""
    held = {}

    def busy_for_another_thread() -> bool:  # the lock is reentrant: its own thread could take it
        seen = []
        thread = threading.Thread(target=lambda: seen.append(gate.busy))
        thread.start()
        thread.join()
        return seen[0]

    class Mem:
        def __getattr__(self, name):
            def call(*args, **kwargs):
                held[name] = (busy_for_another_thread(), args, kwargs)
                return {"windows": 0}
            return call

    gate = service.MemoryGate(Mem())
    gate.status()
    gate.sources()
    gate.conversations(3, "trip")
    gate.conversation(4)
    gate.messages(4)
    gate.search("q", mode="lexical")
    gate.delete_conversation(5)
    gate.delete_source(6)
    gate.import_path("x.zip", "jsonl", progress=print)
    gate.close()
    gate.ask("q", print)
    assert all(busy for busy, _, _ in held.values()), held
    assert held["conversations"][1:] == ((3, "trip"), {})
    assert held["search"][1:] == (("q",), {"mode": "lexical", "filters": None})
    assert held["import_path"][1:] == (("x.zip", "jsonl"), {"embed": False, "progress": print})
    gate.index(print)
    busy, args, kwargs = held["index"]
    assert not busy and args == (print,) and kwargs == {"lock": gate.hold()}
    assert not gate.busy


def test_citation_target_is_the_cited_evidence_message():
    m = EvidenceMessage(41, "x-1", 7, "Chat", 0, None, "Ana", "user", "hi")
    answer = Answer("q", "hi [1]", citations=[Citation.of(1, m)], evidence=[m])
    assert service.citation_target(answer, answer.citations[0]) == (7, 41)
    assert service.citation_target(answer, Citation.of(5, m)) is None


def test_progress_meter_reports_rate_eta_and_cancels():
    now = [0.0]
    reports = []
    meter = service.ProgressMeter(lambda *a: reports.append(a), interval=0.1, clock=lambda: now[0])
    meter("embed", 0, 100)
    now[0] = 2.0
    meter("embed", 50, 100)
    stage, done, total, rate, eta = reports[-1]
    assert (stage, done, total, rate, eta) == ("embed", 50, 100, 25.0, 2.0)
    now[0] = 2.05
    meter("embed", 51, 100)  # within the interval: not reported
    assert len(reports) == 2
    meter.cancel.set()
    with pytest.raises(service.Cancelled):
        meter("embed", 52, 100)
    assert meter.stage == "embed"


def test_a_stage_done_in_one_step_reports_no_rate():
    reports = []
    meter = service.ProgressMeter(lambda *a: reports.append(a), clock=lambda: 5.0)
    meter("import", 44, 44)  # 44 messages "in no time": no 15,000,000,000/s
    assert reports == [("import", 44, 44, 0.0, None)]


def test_cancel_in_a_new_stage_records_that_stage():
    meter = service.ProgressMeter(lambda *a: None)
    meter("import", 10, None)
    meter.cancel.set()
    with pytest.raises(service.Cancelled):
        meter("embed", 0, 10)
    assert meter.stage == "embed"


def test_path_suggestions(tmp_path):
    (tmp_path / "exports").mkdir()
    (tmp_path / "export.zip").write_bytes(b"")
    (tmp_path / ".hidden").write_bytes(b"")
    assert suggest_path(str(tmp_path / "exp")) == str(tmp_path / "export.zip")
    assert suggest_path(str(tmp_path / "exports")) == str(tmp_path / "exports") + "/"
    assert suggest_path(str(tmp_path / "exports") + "/") is None  # an empty folder
    assert suggest_path(str(tmp_path) + "/.") == str(tmp_path / ".hidden")  # dot files only when asked
    assert suggest_path(str(tmp_path / "nothing")) is None
    assert suggest_path(str(tmp_path / "missing-dir" / "x")) is None


def test_every_binding_has_a_unique_id_and_the_readme_table_lists_them():
    ids = [k.id for k in keys.KEYS]
    assert len(ids) == len(set(ids))
    table = keys.markdown_table()
    assert all(f"`{i}`" in table for i in ids)
    assert keys.unknown_ids({"app.search": "f2", "nope": "x"}) == ["nope"]


def test_only_the_tui_package_imports_textual():
    from pathlib import Path

    root = Path(service.__file__).resolve().parents[1]
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if "tui" not in p.relative_to(root).parts[:1]
                 and ("import textual" in p.read_text() or "from textual" in p.read_text())]
    assert offenders == []
