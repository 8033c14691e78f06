"""Shared data and helpers for the TUI tests: a small history with fixed timestamps."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from rawrag_tui.answer.types import Answer, Citation
from tests.conftest import write_jsonl

DISPLAY_HOME = "~/.local/share/rawrag"

ROWS = [
    {"conversation": "trip", "title": "Lisbon trip", "kind": "dm", "id": "t1", "timestamp": "2026-03-01T09:00:00Z",
     "speaker": "Ana", "text": "I booked the flights to Lisbon for 14 May. The hotel is in Alfama."},
    {"conversation": "trip", "title": "Lisbon trip", "kind": "dm", "id": "t2", "timestamp": "2026-03-01T09:05:00Z",
     "speaker": "Ben", "text": "Great! Do I need to renew my passport before then? It expires in June."},
    {"conversation": "trip", "title": "Lisbon trip", "kind": "dm", "id": "t3", "timestamp": "2026-03-01T09:07:00Z",
     "speaker": "Ana", "text": "Yes, renew the passport now, it takes three weeks.", "reply_to": "t2"},
    {"conversation": "trip", "title": "Lisbon trip", "kind": "dm", "id": "t4", "timestamp": "2026-03-02T18:30:00Z",
     "speaker": "Ben", "text": "Passport photo done.", "captions": ["image: passport-photo.jpg"]},
    {"conversation": "trip", "title": "Lisbon trip", "kind": "dm", "id": "t5", "timestamp": "2026-03-02T18:31:00Z",
     "speaker": "Ana", "text": "Ticket attached.", "attachments": ["ticket-LIS.pdf"]},
    {"conversation": "trip", "title": "Lisbon trip", "kind": "dm", "id": "t6", "timestamp": "2026-03-02T19:00:00Z",
     "speaker": "Ben", "text": "Which hotel in Alfama? The one with the roof terrace?", "reply_to": "t1"},
    {"conversation": "books", "title": "Book club", "kind": "group", "id": "b1", "timestamp": "2026-02-10T20:00:00Z",
     "speaker": "Chloe", "text": "Next month we read The Remains of the Day by Kazuo Ishiguro."},
    {"conversation": "books", "title": "Book club", "kind": "group", "id": "b2", "timestamp": "2026-02-10T20:04:00Z",
     "speaker": "Dev", "text": "I loved Klara and the Sun, so I'm in. Meeting at the library café?"},
    {"conversation": "books", "title": "Book club", "kind": "group", "id": "b3", "timestamp": "2026-02-11T08:15:00Z",
     "speaker": "Chloe", "text": "Library café on the 12th at 7pm. Bring snacks."},
]


def write_fixture(folder: Path, name: str = "history.jsonl", rows: list[dict] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_jsonl(folder / name, rows or ROWS)


@pytest.fixture(scope="session")
def tui_template(tmp_path_factory, embedder) -> Path:
    """The fixture imported and embedded once per session; tests get a copy of its database."""
    from rawrag_tui.memory import Memory
    from rawrag_tui.settings import DB_NAME

    folder = tmp_path_factory.mktemp("tui-template")
    with Memory.open(folder / "home", embedder=embedder) as mem:
        mem.import_path(write_fixture(folder / "exports"), "jsonl")
    return folder / "home" / DB_NAME


@pytest.fixture
def filled(open_memory, home, tui_template):
    """A Memory on a private copy of the session's imported fixture."""
    home.mkdir(parents=True, exist_ok=True)
    shutil.copy(tui_template, home / tui_template.name)
    return open_memory()


def app_for(mem, **kwargs):
    from rawrag_tui.tui.app import build_app

    options = {"display_home": DISPLAY_HOME, "cursor_blink": False, "warm_up": False, **kwargs}
    return build_app(mem, **options)


async def settle(pilot, rounds: int = 3) -> None:
    """Let timers fire and thread workers finish, then let their results render."""
    for _ in range(rounds):
        await pilot.pause(0.05)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def until(pilot, condition, timeout: float = 10.0) -> None:
    """Wait (pumping the app) until ``condition()`` holds; fail after ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.05)
        await pilot.app.workers.wait_for_complete()


def fake_ask(mem, answer_text: str = "Ben needs to renew his passport [1], which takes three weeks [2]."):
    """A stand-in for Memory.ask (the reader is tested in its own branch): searches for real,
    streams a canned answer word by word, and cites the top evidence."""

    def ask(question, date=None, on_token=None, **_):
        evidence = mem.search(question).evidence()
        passport = [m for m in evidence if "passport" in m.text.lower()][:2]
        if on_token:
            for word in answer_text.split(" "):
                on_token(word + " ")
        return Answer(question, answer_text, citations=[Citation.of(n, m) for n, m in enumerate(passport, 1)],
                      evidence=passport,
                      evidence_text="\n".join(f"[{n}] {m.speaker}: {m.text}" for n, m in enumerate(passport, 1)))

    return ask


def run_async(test):
    """Run an ``async def`` test on a fresh event loop (no pytest-asyncio needed)."""
    import functools

    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        return asyncio.run(test(*args, **kwargs))

    return wrapper


async def open_ask(app, pilot):
    """The Ask screen, opened by its key, and a function that asks it a question afresh
    (the box emptied, the last answer cleared, the question typed and sent)."""
    from rawrag_tui.tui.screens.ask import AskScreen

    await pilot.press("a")
    screen = app.screen
    assert isinstance(screen, AskScreen)
    box = screen.query_one("#question")

    async def ask(question: str) -> None:
        box.focus()
        box.value = ""
        screen.answer = None
        await pilot.press(*question, "enter")

    return screen, ask

