"""Yes-or-no questions about changed facts: "Does Hannah still live in York?"

The changed-facts sets ask *which* value is true now ("Which city does Hannah
live in?"); a person as often asks whether the one they remember still
holds, and a small reader agrees with the state a question names. This asks
the yes-or-no questions of ``bench/data/yes-no.json`` over the same chats
(``bench/data/changed-facts*.json``, one fresh home per language, as
``changed_facts.py --lang``), dated the day of each chat's last session,
through ``Memory.ask``:

- ``truth: no``: the state the question names changed ("still in York?"
  after the move to Manchester);
- ``truth: yes``: the question names the state true now ("Does Hannah live
  in Manchester?"), so a step that doubts every "Yes" shows here.

An answer is right where it holds one of the question's ``right`` forms
("no", "not", the new value) and none of its ``wrong`` ones ("yes", the old
value), wrong the other way round, ``both`` with both, else abstained or
other. A form found only inside a longer form found too does not count
("是" inside "不是").

    python bench/yes_no.py --lang en --out /tmp/yn.jsonl
    python bench/yes_no.py --lang zh,ja --profile multilingual
    python bench/yes_no.py --lang en --without yes_no_reading   # the arm without a step
    python bench/yes_no.py --score /tmp/yn.jsonl                # re-score saved answers

Prints one markdown row per language.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from changed_facts import asked_on
from changed_facts_score import LANGUAGES, data_path, load, says
from chatgpt_export import import_set

DATA = Path(__file__).resolve().parent / "data" / "yes-no.json"
VERDICTS = ("right", "wrong", "both", "abstained", "other")


def found(answer: str, forms: list[str], others: list[str]) -> bool:
    """Whether ``answer`` holds one of ``forms`` outside every longer form of
    ``forms`` + ``others`` it also holds."""
    held = [f for f in forms + others if says(answer, f)]
    return any(not any(len(g) > len(f) and f.casefold() in g.casefold() for g in held)
               for f in forms if f in held)


def verdict(answer: str, qa: dict, abstained: bool) -> str:
    if abstained:
        return "abstained"
    right, wrong = found(answer, qa["right"], qa["wrong"]), found(answer, qa["wrong"], qa["right"])
    return "both" if right and wrong else "right" if right else "wrong" if wrong else "other"


def counts(rows: list[dict], truth: str) -> str:
    """"right of all / wrong / both / other" for the rows whose question's truth is ``truth``."""
    sel = [r for r in rows if r["truth"] == truth]
    return (f"{sum(r['verdict'] == 'right' for r in sel)} of {len(sel)} / "
            + " / ".join(str(sum(r["verdict"] == v for r in sel)) for v in ("wrong", "both", "other")))


def table(rows: list[dict], langs: list[str], reader: str) -> str:
    lines = ["| language | reader | changed (\"still ...?\", no): right / wrong / both / other "
             "| unchanged (yes): right / wrong / both / other | abstained | s/question |",
             "|---|---|---:|---:|---:|---:|"]
    for lang in langs:
        mine = [r for r in rows if r["lang"] == lang]
        if not mine:
            continue

        seconds = sum(r["seconds"] for r in mine) / len(mine)
        lines.append(f"| {LANGUAGES[lang]} | {reader} | {counts(mine, 'no')} | {counts(mine, 'yes')} "
                     f"| {sum(r['verdict'] == 'abstained' for r in mine)} of {len(mine)} | {seconds:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from rawrag_tui.answer.prompts import is_abstention
    from rawrag_tui.memory import Memory
    from rawrag_tui.settings import ANSWER_CHECKS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="en,de,zh,ja", help="comma-separated: en, de, zh, ja")
    ap.add_argument("--profile", default=None, help="model profile (default: bundled)")
    ap.add_argument("--reader-gguf", type=Path, help="a GGUF reader file ([models] reader_model)")
    ap.add_argument("--without", default="", help="comma-separated answer checks to leave out ([answer] checks)")
    ap.add_argument("--out", type=Path, help="append every answer as JSON lines here")
    ap.add_argument("--score", type=Path, nargs="*", help="re-score saved answers (JSON lines of --out) and stop")
    args = ap.parse_args(argv)
    if args.score:
        questions = {(lang, qa["question"]): qa for lang, qas in json.loads(DATA.read_text(encoding="utf-8")).items()
                     for qa in qas}
        for path in args.score:
            saved = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            for r in saved:
                r["verdict"] = verdict(r["answer"], questions[(r["lang"], r["question"])], is_abstention(r["answer"]))
            print(f"\n{path}\n")
            print(table(saved, [lang for lang in LANGUAGES if any(r["lang"] == lang for r in saved)],
                        saved[0]["reader"] if saved else ""))
        return 0
    langs = [x.strip() for x in args.lang.split(",") if x.strip()]
    data = json.loads(DATA.read_text(encoding="utf-8"))
    unknown = [x for x in langs if x not in data]
    if unknown:
        ap.error(f"no yes-or-no questions for {', '.join(unknown)}: choose from {', '.join(data)}")
    left_out = {x.strip() for x in args.without.split(",") if x.strip()}
    checks = [c for c in ANSWER_CHECKS if c not in left_out]
    reader = (args.reader_gguf.name if args.reader_gguf else args.profile or "bundled") + (
        f" without {', '.join(sorted(left_out))}" if left_out else "")
    rows: list[dict] = []
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115 (closed below)
    try:
        with tempfile.TemporaryDirectory(prefix="rawrag-yes-no-") as tmp:
            for lang in langs:
                samples = {s["sample_id"]: s for s in load(lang)}
                mem = Memory.open(Path(tmp) / lang, answer={"checks": checks}, reader={"timeout": 900.0},
                                  models={"profile": args.profile,
                                          "reader_model": str(args.reader_gguf) if args.reader_gguf else None})
                try:
                    import_set(mem, data_path(lang))
                    mem.reader()  # loaded before the clock runs
                    for qa in data[lang]:
                        sample = samples[qa["sample_id"]]
                        started = time.perf_counter()
                        ans = mem.ask(qa["question"], date=asked_on(sample))
                        flagged = is_abstention(ans.answer)
                        row = {"lang": lang, "reader": reader, "question": qa["question"], "truth": qa["truth"],
                               "answer": ans.answer, "reader_said": ans.reader_said, "correction": ans.correction,
                               "verdict": verdict(ans.answer, qa, flagged),
                               "seconds": time.perf_counter() - started, "load1": os.getloadavg()[0]}
                        rows.append(row)
                        if out:
                            out.write(json.dumps(row, ensure_ascii=False) + "\n")
                            out.flush()
                        print(f"{lang} {qa['truth']:<3} {row['verdict']:<9} {row['seconds']:5.1f}s "
                              f"{qa['question'][:50]!r} -> {ans.answer[:60]!r}", file=sys.stderr)
                finally:
                    mem.close()
    finally:
        if out:
            out.close()
    print(f"\nYes-or-no questions about changed facts, reader {reader}\n")
    print(table(rows, langs, reader))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
