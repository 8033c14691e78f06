"""The demo's sample history and questions, shipped with the package.

The sample was written for the demo: four conversations over 2026 in which
facts change (a move, a rescheduled trip, a moved wedding, a revised goal),
so the evidence shows both the old and the new state.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DEMO_FILE = "demo.jsonl"

QUESTIONS = (
    "Where does Jordan live now?",
    "What is the name of Jordan's dog?",
    "When is Maya's wedding?",
    "When did the Fontainebleau climbing trip happen?",
    "What finish time is Sam aiming for in the half marathon?",
)


def demo_path() -> Path:
    return Path(str(resources.files("rawrag_tui") / "data" / DEMO_FILE))
