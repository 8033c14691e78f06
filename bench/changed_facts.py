"""Changed facts in four languages: does the answer hold the state that is true now (or, asked, the past one)?

Asks every question of the changed-facts sets (``bench/data/changed-facts.json``,
English; ``changed-facts-{zh,ja,de}.json``, Chinese, Japanese, German; see
``bench/_make_changed_facts.py``) through rawrag's public facade
(``Memory.import_path`` then ``Memory.ask``, as a user's question goes), dated
the day of its chat's last session, and scores each answer with
``changed_facts_score.py``: right, the wrong state (the stale value for a
question about now, the latest for one about the past), abstained, other.
The unanswerable questions (a person or thing the chat never mentions) count
apart: saying "not in your history" is right for them; for the answerable
ones it is a false abstention.

Two stores:

- ``plain``: one fresh home per language holding only that language's chats;
- ``haystack`` (``--haystack``): one home holding every chosen language's
  chats among long unrelated conversations (LoCoMo's conv-26, 419 messages
  from ``shared/data``, and the Chinese and Japanese chats of
  ``bench/data/cjk-chats.json``).

Readers: the profile's (``bundled`` unless ``--profile``), a GGUF file
(``--reader-gguf PATH``, as ``[models] reader_model``), or an
OpenAI-compatible server you run (``--endpoint URL --endpoint-model NAME``,
as ``[reader] endpoint`` and ``model``).

    python bench/changed_facts.py --out /tmp/cf.jsonl
    python bench/changed_facts.py --lang zh,ja --profile multilingual
    python bench/changed_facts.py --lang en --only now --now-word now   # asked as "Where does Amir live now?"
    python bench/changed_facts.py --haystack --reader-gguf qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
    python bench/changed_facts.py --lang en --endpoint http://127.0.0.1:8088/v1 --endpoint-model coder-1.5b
    python bench/changed_facts_score.py /tmp/cf.jsonl        # re-score saved answers

Prints one markdown row per language. Seconds per question are wall-clock
for the whole ask (search, evidence, reading), the reader's loading left
out; the load average is printed beside them because on a shared machine
they move with the neighbours.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Appended, not prepended: PYTHONPATH can point the run at another checkout of
# rawrag (a "before" worktree) while the data and the scorer stay these.
sys.path.append(str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from changed_facts_score import (  # noqa: E402
    LANGUAGES,
    TABLE_HEAD,
    data_path,
    questions,
    summarise,
    table_row,
    verdict,
)
from chatgpt_export import import_set  # noqa: E402

HAYSTACK = [ROOT / "shared/data/locomo-conv-26.json", ROOT.parent / "shared/data/locomo-conv-26.json"]
CJK_CHATS = ROOT / "bench/data/cjk-chats.json"


def session_day(text: str) -> dt.date:
    return dt.datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").date()


def asked_on(sample: dict) -> dt.date:
    conv = sample["conversation"]
    return max(session_day(v) for k, v in conv.items() if re.fullmatch(r"session_\d+_date_time", k))


def spread(items: list, n: int) -> list:
    """``n`` of ``items`` spread evenly over the list (all when ``n`` is 0 or
    more): a short run still asks about now and the past, each chat, and
    the unanswerable questions at the end."""
    if not n or n >= len(items):
        return items
    return [items[round(i * (len(items) - 1) / max(n - 1, 1))] for i in range(n)]


def haystack_files() -> list[Path]:
    locomo = next((p for p in HAYSTACK if p.exists()), None)
    if locomo is None:
        raise SystemExit("no haystack: shared/data/locomo-conv-26.json not found")
    return [locomo, CJK_CHATS]


def open_home(home: Path, args):
    from rawrag_tui.memory import Memory

    models = {"profile": args.profile, "reader_model": str(args.reader_gguf) if args.reader_gguf else None}
    reader = {"timeout": args.reader_timeout}
    if args.prompt:
        reader["prompt"] = args.prompt
    if args.endpoint:  # an OpenAI-compatible server reads instead of the bundled reader
        reader |= {"endpoint": args.endpoint, "model": args.endpoint_model, "endpoint_context": args.endpoint_context}
    return Memory.open(home, models=models, reader=reader)


def with_now_word(question: str, note: dict | None, word: str) -> str:
    """``question`` as someone who says "now" asks it: ``word`` ("now", "jetzt")
    before its closing question mark, where it asks about now (the set's note
    says so and its language's module does not read it as about the past: "When
    did Priya take her driving test?" stays) and says no such word yet
    (``Language.continuation``). The sets' questions about now do not say it;
    the issue's held-out ones do ("Which city does Ines live in now?")."""
    from rawrag_tui import lang

    if (not word or not note or note["asks_past"] or lang.asks_about_past(question)
            or lang.says_now(question) or not re.search(r"[?？]\s*$", question)):
        return question
    return re.sub(r"\s*([?？])\s*$", lambda m: f" {word}{m.group(1)}", question)


def ask_one(mem, lang: str, store: str, reader: str, sample: dict, qa: dict, note: dict | None,
            now_word: str = "") -> dict:
    """One question through ``Memory.ask``, as a JSON-ready row with its verdict;
    with ``now_word``, asked as :func:`with_now_word` words it (``asked``)."""
    from rawrag_tui.answer.prompts import is_abstention

    t0 = time.perf_counter()
    asked = with_now_word(qa["question"], note, now_word)
    row = {"lang": lang, "store": store, "reader": reader, "sample_id": sample["sample_id"],
           "question": qa["question"], "kind": note["kind"] if note else "unanswerable",
           "asks_past": bool(note and note["asks_past"]),
           "expected": (note["stale"] if note["asks_past"] else note["latest"]) if note else "not in history"}
    if asked != qa["question"]:
        row["asked"] = asked
    try:
        ans = mem.ask(asked, date=asked_on(sample))
    except Exception as exc:  # noqa: BLE001 (a crashed question is a row, the run goes on)
        row.update(answer="", verdict="error", error=f"{type(exc).__name__}: {exc}", seconds=time.perf_counter() - t0)
        return row
    timings = getattr(ans, "timings", {}) or {}
    flagged = is_abstention(ans.answer)
    row.update(
        answer=ans.answer, reader_abstained=flagged, verdict=verdict(ans.answer, note, lambda _a, f=flagged: f),
        reader_said=getattr(ans, "reader_said", ""), correction=getattr(ans, "correction", ""),
        unsupported=bool(getattr(ans, "unsupported", False)),
        citations=[c.external_id for c in getattr(ans, "citations", [])],
        seconds=time.perf_counter() - t0 - timings.get("load", 0.0),
        read_s=timings.get("read", 0.0), load1=os.getloadavg()[0])
    return row


def interleaved(langs: list[str], limit: int) -> list[tuple[str, dict, dict, dict | None]]:
    """Each language's questions taken in turn (a zh, a ja, a de, ...), so a
    run stopped early has asked every language about as often."""
    per = {lang: spread(list(questions(lang)), limit) for lang in langs}
    order = []
    for i in range(max(len(v) for v in per.values())):
        order += [(lang, *per[lang][i]) for lang in langs if i < len(per[lang])]
    return order


def already_asked(path: Path | None, store: str, reader: str) -> dict[tuple[str, str], dict]:
    """Rows a previous run with the same store and reader wrote to ``path`` (``--resume``)."""
    if path is None or not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {(r["lang"], r["question"]): r for r in rows
            if r["store"] == store and r["reader"] == reader and r.get("verdict") != "error"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="en,zh,ja,de",
                    help="comma-separated: en, zh, ja, de, assistant (English, a ChatGPT export), "
                    "fresh (English, written after the code and never tuned on)")
    ap.add_argument("--haystack", action="store_true", help="one store with long unrelated conversations added")
    ap.add_argument("--profile", default=None, help="model profile (default: the home's, bundled)")
    ap.add_argument("--reader-gguf", type=Path, help="a GGUF reader file ([models] reader_model)")
    ap.add_argument("--endpoint", default="",
                    help="an OpenAI-compatible server's base URL to read with ([reader] endpoint), "
                         "e.g. http://127.0.0.1:8088/v1 for llama-cpp-python's server")
    ap.add_argument("--endpoint-model", default="", help="the model name that server knows ([reader] model)")
    ap.add_argument("--endpoint-context", type=int, default=4096,
                    help="the server's context when it does not report one ([reader] endpoint_context)")
    ap.add_argument("--prompt", choices=["auto", "cited", "plain"],
                    help="the prompt style ([reader] prompt; default: the home's, auto)")
    ap.add_argument("--reader-timeout", type=float, default=900.0,
                    help="reader.timeout, seconds without a sign of life (default 900: a machine shared with "
                         "other work reads slowly; the setting's own default would stop the reader)")
    ap.add_argument("--label", help="the reader's name in the table (default: from the options)")
    ap.add_argument("--limit", type=int, default=0,
                    help="ask only N questions of each language, spread evenly over its set (a run on a busy machine)")
    ap.add_argument("--only", choices=["now", "past"],
                    help="ask only the questions about now (and the unanswerable ones) or only those about the "
                         "past (a change to a step that runs for one of them)")
    ap.add_argument("--samples", default="",
                    help="comma-separated sample ids (cf-zh-3): ask only their questions; the store still "
                         "holds every chat of the set")
    ap.add_argument("--now-word", default="",
                    help='ask each question about now with this word before its question mark ("now", '
                         '"jetzt"), as the issue\'s held-out questions are asked; the rows keep the set\'s '
                         "question and add what was asked (asked)")
    ap.add_argument("--resume", action="store_true",
                    help="skip questions --out already holds for this store and reader")
    ap.add_argument("--out", type=Path,
                    help="append every answer as JSON lines here (re-score with changed_facts_score.py)")
    args = ap.parse_args(argv)
    langs = [x.strip() for x in args.lang.split(",") if x.strip()]
    samples = {x.strip() for x in args.samples.split(",") if x.strip()}
    unknown = [x for x in langs if x not in LANGUAGES]
    if unknown:
        ap.error(f"unknown language(s) {', '.join(unknown)}: choose from {', '.join(LANGUAGES)}")
    if args.reader_gguf and not args.reader_gguf.is_file():
        ap.error(f"{args.reader_gguf}: no such GGUF file")
    import rawrag_tui

    # A stopped run closes its reader process (the finally blocks below) rather than leaving it behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    store = "haystack" if args.haystack else "plain"
    reader = args.label or (args.reader_gguf.name if args.reader_gguf else
                            f"endpoint:{args.endpoint_model}" if args.endpoint else (args.profile or "bundled"))
    if args.prompt and not args.label:
        reader += f" ({args.prompt})"
    print(f"# rawrag from {Path(rawrag_tui.__file__).parent}; store {store}; reader {reader}; "
          f"load average {os.getloadavg()[0]:.2f} at {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
          file=sys.stderr)
    done = already_asked(args.out, store, reader) if args.resume else {}
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115 (closed below)
    rows: list[dict] = list(done.values())
    homes: dict[str, object] = {}
    warm: set[str] = set()
    try:
        with tempfile.TemporaryDirectory(prefix="rawrag-changed-facts-") as tmp:
            for name, chosen in [("all", langs)] if args.haystack else [(lang, [lang]) for lang in langs]:
                mem = homes[name] = open_home(Path(tmp) / name, args)
                started = time.perf_counter()
                files = [data_path(lang) for lang in chosen] + (haystack_files() if args.haystack else [])
                for path in files:
                    import_set(mem, path)
                print(f"# {name}: imported {len(files)} file(s), {mem.counts().get('messages', '?')} messages "
                      f"in {time.perf_counter() - started:.1f} s", file=sys.stderr)
            for i, (lang, sample, qa, note) in enumerate(interleaved(langs, args.limit), 1):
                if (lang, qa["question"]) in done or (samples and sample["sample_id"] not in samples) or (
                        args.only and (args.only == "past") != bool(note and note["asks_past"])):
                    continue
                name = "all" if args.haystack else lang
                mem = homes[name]
                if name not in warm:
                    started = time.perf_counter()
                    mem.reader()  # loaded before the clock runs for its first question
                    warm.add(name)
                    print(f"# reader loaded in {time.perf_counter() - started:.1f} s", file=sys.stderr)
                row = ask_one(mem, lang, store, reader, sample, qa, note, args.now_word)
                rows.append(row)
                if out:
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
                    out.flush()  # a run stopped early keeps what it measured
                asked = row.get("asked", qa["question"])
                print(f"{i:3d} {lang} {row['verdict']:<11} {row['seconds']:5.1f}s {asked[:50]!r} -> "
                      f"{row['answer'][:60]!r}", file=sys.stderr)
    finally:
        for mem in homes.values():
            mem.close()
        if out:
            out.close()
    print(f"\nChanged facts, {store} store, reader {reader}; load average after: {os.getloadavg()[0]:.2f}\n")
    print(TABLE_HEAD)
    for lang in langs:
        print(table_row(lang, store, reader, summarise([r for r in rows if r["lang"] == lang])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
