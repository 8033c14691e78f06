"""Draw docs/app.svg, the README's picture of the terminal app.

The app is built the way the snapshot tests build it (``build_app`` over an open
``Memory``, a pinned data location, no cursor blink, no model warm-up) on the
shipped demo history, imported into a temporary home through the ``Memory``
facade. A search for a demo question is typed, and once its hits are on the
screen the screen is saved as SVG at a fixed size.

    python docs/screenshot.py [OUT.svg]        # make screenshot

Offline: the bundled embedder ships with rawrag. The embedder variant is pinned
to fp32 (the one that matches the reference model), so the ranking, and with it
the picture, does not depend on which variant is faster on this CPU.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from importlib import resources
from pathlib import Path

OUT = Path(__file__).resolve().with_name("app.svg")
SIZE = (120, 36)
QUERY = "What is the name of Jordan's dog"
DISPLAY_HOME = "~/.local/share/rawrag"  # what the app shows as the data location, as in the snapshots
TIMEOUT_S = 120.0


def demo_history() -> Path:
    return Path(str(resources.files("rawrag_tui") / "data" / "demo.jsonl"))


async def _pump(pilot) -> None:
    """Let timers fire and thread workers finish, then let their results render."""
    for _ in range(3):
        await pilot.pause(0.05)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def _draw(memory) -> str:
    from rawrag_tui.tui.app import build_app

    app = build_app(memory, display_home=DISPLAY_HOME, cursor_blink=False, warm_up=False)
    async with app.run_test(size=SIZE) as pilot:
        await _pump(pilot)
        await pilot.press("slash", *QUERY)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT_S
        while getattr(app.screen, "result", None) is None:
            if loop.time() > deadline:
                raise SystemExit(f"screenshot: no search result within {TIMEOUT_S:.0f} s")
            await pilot.pause(0.05)
            await app.workers.wait_for_complete()
        await _pump(pilot)
        return app.export_screenshot(title="rawrag")


def draw(out: Path = OUT) -> Path:
    """Import the demo into a temporary home, draw the app searching it, write ``out``."""
    os.environ.setdefault("RAWRAG_MODELS_EMBED_VARIANT", "fp32")
    from rawrag_tui.memory import Memory

    with tempfile.TemporaryDirectory(prefix="rawrag-screenshot-") as tmp, Memory.open(Path(tmp) / "home") as memory:
        memory.import_path(demo_history(), "jsonl")
        svg = asyncio.run(_draw(memory))
    out.write_text(svg, encoding="utf-8")
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else OUT
    print(f"wrote {draw(out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
