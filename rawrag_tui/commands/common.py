"""What every command shares: opening the facade, JSON output, progress lines."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..memory import Memory


def add_common(parser: argparse.ArgumentParser, json_flag: bool = True) -> None:
    """--home/--json on a subcommand; SUPPRESS keeps a top-level value intact."""
    parser.add_argument("--home", default=argparse.SUPPRESS, help="data directory (default: RAWRAG_HOME or the platform's)")
    if json_flag:
        parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")


def open_memory(args: argparse.Namespace, **overrides: dict) -> Memory:
    return Memory.open(getattr(args, "home", None), **overrides)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def human_duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class ProgressPrinter:
    """Progress on stderr: count, rate and ETA, one line per stage, redrawn in place on a terminal.

    Off a terminal it prints at most one line every ``interval`` seconds, so
    logs stay readable.
    """

    UNITS = {"import": "messages", "parse": "messages", "embed": "windows"}

    def __init__(self, stream=None, interval: float = 2.0, enabled: bool = True):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval = interval
        self.enabled = enabled
        self.stage: str | None = None
        self.started = 0.0
        self.last = 0.0

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if stage != self.stage:
            self.finish()
            self.stage, self.started, self.last = stage, now, 0.0
        final = total is not None and done >= total
        if not final and now - self.last < (0.1 if self.tty else self.interval):
            return
        self.last = now
        elapsed = max(now - self.started, 1e-9)
        rate = done / elapsed
        unit = self.UNITS.get(stage, "items")
        text = f"{stage}: {done:,}" + (f"/{total:,}" if total is not None else "") + f" {unit}, {rate:,.1f}/s"
        if total is not None and rate > 0 and done < total:
            text += f", ETA {human_duration((total - done) / rate)}"
        if self.tty:
            self.stream.write("\r\x1b[2K" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.stage is not None and self.tty and self.enabled:
            self.stream.write("\n")
            self.stream.flush()
        self.stage = None
