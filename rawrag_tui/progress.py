"""Progress of long work (import, embedding): rate, ETA and a cancellation point.

Shared by the command line (lines on stderr) and the app (a progress bar), so
both show the same figures computed the same way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

#: How long work reports how far it is: ``(stage, done, total or None)``.
#: The one shape the facade, the index builder, store upgrades and the
#: reader's prompt reading all report through.
Progress = Callable[[str, int, "int | None"], None]

#: Below this much elapsed time a stage reports no rate.
MIN_RATE_SECONDS = 0.05


class Cancelled(Exception):
    """Raised from an import's progress callback: the import transaction rolls back."""


class ProgressMeter:
    """Turns the facade's progress calls into (stage, done, total, rate, eta) at most every ``interval`` s.

    Also the cancellation point: when ``cancel`` is set the next call raises
    :class:`Cancelled` from inside the import, which rolls its transaction back.
    """

    def __init__(self, report: Callable[[str, int, int | None, float, float | None], None],
                 interval: float = 0.1, clock: Callable[[], float] = time.perf_counter):
        self.report = report
        self.interval = interval
        self.clock = clock
        self.cancel = threading.Event()
        self.stage: str | None = None
        self.started = 0.0
        self.last = 0.0

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        if self.cancel.is_set():
            self.stage = stage  # so the caller knows what was cut short
            raise Cancelled(stage)
        now = self.clock()
        if stage != self.stage:
            self.stage, self.started, self.last = stage, now, float("-inf")
        final = total is not None and done >= total
        if not final and now - self.last < self.interval:
            return
        self.last = now
        elapsed = now - self.started
        # A stage done in one step has no rate worth showing (44 messages in
        # 3 microseconds is not "15,000,000,000/s"): 0.0 means "not measured".
        rate = done / elapsed if elapsed >= MIN_RATE_SECONDS else 0.0
        eta = (total - done) / rate if total is not None and rate > 0 else None
        self.report(stage, done, total, rate, eta)


def human_duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"
