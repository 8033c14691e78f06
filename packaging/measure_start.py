"""How long each build of rawrag takes to start: `rawrag --help`, and the app's first screen.

Run by hand (the figures in packaging/README.md come from it)::

    python packaging/measure_start.py NAME=/path/to/rawrag [NAME=/path/to/rawrag ...] [--rounds 5]

e.g. ``uv=~/.local/bin/rawrag standalone=dist/rawrag/rawrag``. The builds are
run in turn, round after round (interleaved, so a busy machine slows them
alike), each with HOME pointed at a fresh empty directory, as a new user's
first start. The first screen is timed in a real terminal (tmux, 120x40):
from starting the command to the welcome screen's title on the screen.
Prints the median of each, and each build's ratio to the first one named.
Needs tmux.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

FIRST_SCREEN = "Welcome to rawrag"


def time_help(exe: str, home: Path) -> float:
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    started = time.perf_counter()
    subprocess.run([exe, "--help"], env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def time_first_screen(exe: str, home: Path, timeout: float = 120) -> float:
    session = f"rawrag-measure-{os.getpid()}"
    command = f"env -i HOME={home} PATH=/usr/bin:/bin LANG=C.UTF-8 TERM=xterm-256color {exe}"
    started = time.perf_counter()
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command], check=True)
    try:
        while time.perf_counter() - started < timeout:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True,
                                    text=True).stdout
            if FIRST_SCREEN in screen:
                return time.perf_counter() - started
            time.sleep(0.05)
        raise SystemExit(f"{exe}: no first screen after {timeout:.0f} s")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", metavar="NAME=PATH")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is needed to time the first screen")
    builds = dict(b.split("=", 1) for b in args.builds)
    results: dict[str, dict[str, list[float]]] = {n: {"help": [], "screen": []} for n in builds}
    for _ in range(args.rounds):
        for name, exe in builds.items():
            with tempfile.TemporaryDirectory() as tmp:
                results[name]["help"].append(time_help(os.path.expanduser(exe), Path(tmp)))
            with tempfile.TemporaryDirectory() as tmp:
                results[name]["screen"].append(time_first_screen(os.path.expanduser(exe), Path(tmp)))
    first = next(iter(builds))
    for name in builds:
        line = []
        for what in ("help", "screen"):
            median = statistics.median(results[name][what])
            ratio = median / statistics.median(results[first][what])
            line.append(f"{what} {median:.2f} s (x{ratio:.2f} {first})")
        print(f"{name:<12} " + "   ".join(line) + f"   [{args.rounds} rounds]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
