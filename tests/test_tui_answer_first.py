"""The app's Ask screen: while a check may still replace the reader's words
they show as a draft, and the answer shown at the end is the final one, with
the reader's words in a note under it."""

from __future__ import annotations

from rawrag_tui.answer.types import Answer, Citation
from tests.tui_fixtures import app_for, filled, open_ask, run_async, tui_template, until  # noqa: F401

SIZE = (100, 30)
NOTE = ('the reader said "4 May 2026", which no message says; [1], '
        "the latest message on this that states a date, says 3 May 2026")


def corrected_ask(mem, shown: list[str], holder: dict):
    """Streams the reader's "4 May 2026", notes what the answer box says then, and
    returns the answer a check corrected."""

    def ask(question, date=None, on_token=None, **_):
        evidence = mem.search(question).evidence()[:1]
        for word in ("4 ", "May ", "2026"):
            on_token(word)
        app, screen = holder["app"], holder["screen"]
        shown.append(app.call_from_thread(lambda: str(screen.query_one("#answer").render())))
        return Answer(question, "3 May 2026", citations=[Citation.of(1, evidence[0], "stated")],
                      evidence=evidence, reader_said="4 May 2026", correction=NOTE)

    return ask


@run_async
async def test_the_draft_is_marked_and_the_final_answer_comes_first_with_the_note_under_it(filled):
    mem, shown, holder = filled, [], {}
    mem.ask = corrected_ask(mem, shown, holder)
    app = holder["app"] = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        screen, ask = await open_ask(app, pilot)
        holder["screen"] = screen
        await ask("When is Ben's passport appointment?")
        await until(pilot, lambda: screen.answer is not None)
        await until(pilot, lambda: "3 May" in str(screen.query_one("#answer").render()))
        final = str(screen.query_one("#answer").render())
    assert shown and shown[0].startswith("the reader is writing: 4 May 2026")  # a draft, said to be one
    assert final.splitlines()[0] == "3 May 2026"  # the final answer first
    assert NOTE.replace("\n", "") in final.replace("\n", "")  # the reader's words under it
