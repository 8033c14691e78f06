"""An unexpected exception: one line for the person, the traceback for the bug report.

A crash is a bug, not the user's fault, so it exits 3 (a user error is 1)
and keeps its traceback in a private log under the home (``logs/``, 0700,
files 0600: a traceback can quote a message's words), where ``rawrag
doctor`` and a bug report can find it.
"""

from __future__ import annotations

import os
import tempfile
import time
import traceback
from pathlib import Path

LOG_DIR = "logs"


def record(exc: BaseException, home: Path | None) -> Path | None:
    """Write ``exc``'s traceback to a new private log file under ``home`` (else
    the system's temporary folder) and return its path; None if none can be written."""
    text = "".join(traceback.format_exception(exc))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    temporary = Path(tempfile.gettempdir())
    for folder in ([home / LOG_DIR] if home is not None else []) + [temporary]:
        try:
            if folder != temporary:
                folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                os.chmod(folder, 0o700)
            fd, name = tempfile.mkstemp(prefix=f"rawrag-crash-{stamp}-", suffix=".log", dir=folder)  # 0600
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            return Path(name)
        except OSError:
            continue
    return None


def one_line(exc: BaseException, log: Path | None) -> str:
    """What the person reads: the error in one line, and where its traceback is."""
    what = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
    kept = f"the traceback is in {log}" if log else "no log could be written"
    return f"rawrag: internal error (a bug, not your input): {what}; {kept}"
