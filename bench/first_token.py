"""Time to the first answer token with the bundled reader, as a person meets it.

Two cases, each at the default settings (evidence sized to a first token
within ``reader.first_token_seconds``, from the reader's measured prompt
speed) and, as the reference measured in the same run, with the full
evidence budget whatever the wait (``first_token_seconds = 0``), interleaved
question by question:

1. ``rawrag ask`` from a shell, cold: Python, the store, the search, the
   reader's process and model, the prompt. Seconds from launch to the first
   byte of the answer on stdout.
2. Warm, as the terminal app and the MCP server keep the reader between
   questions: seconds from the start of reading (the prompt's fixed prefix
   is then already cached) to the first answer token.

Over the demo's five questions on the demo history (``rawrag_tui/demo.py``).
Prints the machine, absolute figures and the ratio against the reference.

    python bench/first_token.py [--reps 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rawrag_tui.demo import QUESTIONS, demo_path  # noqa: E402
from rawrag_tui.memory import Memory  # noqa: E402

ASKED = "2026-12-01"
#: reader.first_token_seconds for each variant: the default and the reference.
VARIANTS = {"sized (default)": None, "full budget (reference)": 0.0}


def cli_first_byte(home: Path, question: str, first_token: float | None) -> float:
    """Seconds from launching ``rawrag ask`` to the first byte it writes on stdout."""
    env = dict(os.environ)
    if first_token is not None:
        env["RAWRAG_READER_FIRST_TOKEN_SECONDS"] = str(first_token)
    started = time.perf_counter()
    rawrag = Path(sys.executable).with_name("rawrag")  # the console script of this environment
    proc = subprocess.Popen([str(rawrag), "--home", str(home), "ask", question,
                             "--date", ASKED], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    first = proc.stdout.read(1)
    elapsed = time.perf_counter() - started
    proc.stdout.read()
    if proc.wait() != 0 or not first:
        raise SystemExit(f"rawrag ask failed on {question!r}")
    return elapsed


def summary(values: list[float]) -> str:
    return f"median {statistics.median(values):5.1f} s, max {max(values):5.1f} s"


def measure(reps: int, questions: tuple[str, ...] = QUESTIONS) -> dict[str, dict[str, list]]:
    """Per variant: cold (CLI) and warm first-token seconds, budgets, measured speeds."""
    out: dict[str, dict[str, list]] = {name: {"cold": [], "warm": [], "budget": [], "rate": []} for name in VARIANTS}
    with tempfile.TemporaryDirectory(prefix="rawrag-first-token-") as tmp:
        home = Path(tmp)
        mem = Memory.open(home)
        mem.import_path(demo_path(), "jsonl")
        mem.close()
        for rep in range(reps):
            for question in questions:
                for name, value in VARIANTS.items():
                    out[name]["cold"].append(cli_first_byte(home, question, value))
            print(f"# cold round {rep + 1} of {reps} done", file=sys.stderr)
        memories = {name: Memory.open(home, reader={"first_token_seconds": value})
                    for name, value in VARIANTS.items()}
        try:
            for m in memories.values():
                m.ask("What is this history about?", date=ASKED)  # loads the reader: not timed
            for question in questions:
                for name, m in memories.items():
                    answer = m.ask(question, date=ASKED)
                    out[name]["warm"].append(answer.timings["first_token"])
                    out[name]["budget"].append(answer.evidence_budget)
                    out[name]["rate"].append(answer.prompt_rate)
        finally:
            for m in memories.values():
                m.close()
    return out


REFERENCE = "full budget (reference)"


def run(quick: bool) -> list[dict]:
    """``bench/run_all.py``: first-token medians, sized against the full budget."""
    got = measure(1, QUESTIONS[:2] if quick else QUESTIONS)
    sized = next(iter(VARIANTS))
    return [{"name": f"first answer token, {case} (demo questions)", "unit": "s",
             "value": statistics.median(got[sized][key]), "reference_value": statistics.median(got[REFERENCE][key])}
            for key, case in (("cold", "cold `rawrag ask`"), ("warm", "warm reader"))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=2, help="cold runs of each question per variant")
    args = ap.parse_args(argv)

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "") if Path("/proc/cpuinfo").exists() else ""
    print(f"# {cpu or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    got = measure(args.reps)
    print(f"\nFirst answer token, bundled reader, the demo's {len(QUESTIONS)} questions")
    for name, v in got.items():
        ref = got[REFERENCE]
        print(f"  {name:24s} cold `rawrag ask` (launch to first byte): {summary(v['cold'])}"
              f"  x{statistics.median(v['cold']) / statistics.median(ref['cold']):.2f}")
        print(f"  {'':24s} warm (reading to first token):         {summary(v['warm'])}"
              f"  x{statistics.median(v['warm']) / statistics.median(ref['warm']):.2f};"
              f" evidence budget {min(v['budget'])}-{max(v['budget'])} tokens")
    rates = [r for v in got.values() for r in v["rate"] if r]
    if rates:
        print(f"  prompt speed the reader measured: {statistics.median(rates):.0f} tokens/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
