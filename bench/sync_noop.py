"""`rawrag sync` with nothing new, on 500 session files.

Generates a fake HOME with Claude Code sessions (400 files in 20 projects)
and Codex rollouts (100 files), 6 turns each, the shapes of
tests/sync_support.py, syncs it once (timed too: the first import), then
times a sync that finds nothing new:

- in process (``Memory.syncing().run``), the median of several runs, against
  a reference in the same process: the bare ``os.stat`` of the same 500
  files after listing them (the floor any "has it changed" check pays);
- as a command (``rawrag sync --quiet``, a fresh Python each time), the
  median of several runs, against ``rawrag --version`` in the same run (the
  interpreter and the CLI starting, the floor of any command).

    python bench/sync_noop.py [--files N] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def make_tree(base: Path, files: int, turns: int = 6) -> Path:
    from tests.sync_support import ClaudeSession, CodexSession

    home = base / "user"
    claude = files * 4 // 5
    for i in range(claude):
        s = ClaudeSession(home / ".claude" / "projects", f"-home-ann-project-{i % 20}", f"s{i}")
        for t in range(turns):
            s.lines += s.turn(f"session {i} question {t} about the deploy", f"answer {t}: retry with backoff",
                              tool="Bash" if t % 2 else None)
        s.write()
    for i in range(files - claude):
        s = CodexSession(home / ".codex" / "sessions", f"r{i}", day=f"2025/10/{1 + i % 28:02d}")
        for t in range(turns):
            s.lines += s.turn(f"rollout {i} prompt {t}", f"reply {t}: done")
        s.write()
    return home


def _median_s(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(files: int, runs: int) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        home = make_tree(base, files)
        os.environ["HOME"] = str(home)
        for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
            os.environ.pop(key, None)
        store = base / "rr"
        from rawrag_tui.memory import Memory

        with Memory.open(store) as mem:
            started = time.perf_counter()
            first = mem.syncing().run(embed=False)
            first_s = time.perf_counter() - started
            assert first.ok and first.files_read == files, first.failed

            def noop() -> None:
                report = mem.syncing().run(embed=False)
                assert report.added == 0 and report.files_read == 0 and report.files_seen == files

            def bare_stat() -> None:
                paths = list((home / ".claude" / "projects").glob("**/*.jsonl"))
                paths += list((home / ".codex" / "sessions").glob("**/rollout-*.jsonl"))
                for p in paths:
                    p.stat()

            in_process = _median_s(noop, runs)
            stat_floor = _median_s(bare_stat, runs)
        env = dict(os.environ, RAWRAG_HOME=str(store))

        def cli(*args: str) -> None:
            subprocess.run([sys.executable, "-m", "rawrag_tui.cli", *args], env=env, cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)

        command = _median_s(lambda: cli("sync", "--quiet"), runs)
        startup = _median_s(lambda: cli("--version"), runs)
    return [
        {"name": f"first sync, {files} session files ({first.added:,} messages, no embedding)",
         "value": first_s, "unit": "s"},
        {"name": f"sync, nothing new, {files} files, in process", "value": in_process * 1000, "unit": "ms",
         "reference_value": stat_floor * 1000},
        {"name": f"`rawrag sync`, nothing new, {files} files (process)", "value": command, "unit": "s",
         "reference_value": startup},
    ]


def run(quick: bool) -> list[dict]:
    return measure(100 if quick else 500, 3 if quick else 7)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    for row in measure(args.files, args.runs):
        ratio = f"  (x{row['value'] / row['reference_value']:.1f} the reference, {row['reference_value']:.3f})" \
            if row.get("reference_value") else ""
        print(f"{row['name']}: {row['value']:.3f} {row['unit']}{ratio}")


if __name__ == "__main__":
    main()
