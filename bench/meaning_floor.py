"""Where to put the "nearest by meaning" similarity floor, measured on LoCoMo.

    python bench/meaning_floor.py

When no window holds any of a query's words, search can only offer the dense
channel's nearest neighbours; the floor (``retrieval.meaning_floor``) drops
the ones too far to mean anything. Two distributions decide it, with the
bundled embedder on the LoCoMo dev conversation (shared/data/locomo-conv-26.json):

- answerable: for each category 1-4 question, the cosine similarity between
  the question and its best evidence window (a window whose messages include
  an evidence turn). A floor above it would hide that evidence whenever the
  words do not match: the coverage cost.
- no answer: the best similarity over all windows of (a) LoCoMo's category 5
  questions (adversarial: asked about things the conversation does not say)
  and (b) off-topic queries written here about subjects the conversation
  never touches. A floor below it shows noise as "nearest by meaning".

Prints percentiles of both and, for candidate floors, the share of answerable
questions whose evidence survives and the share of no-answer queries that
come back empty.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LOCOMO = Path("/work/shared/data/locomo-conv-26.json")
OFF_TOPIC = [
    "pizza", "kubernetes cluster upgrade", "quarterly tax filing deadline", "mortgage interest rate",
    "python traceback in the build log", "formula one race results", "cryptocurrency wallet seed phrase",
    "printer toner cartridge", "dentist root canal", "stock options vesting schedule", "volcano eruption",
    "chess opening theory", "car engine oil change", "wifi router firmware", "jury duty summons",
    "sourdough starter", "ice hockey playoffs", "quantum computing qubits", "parking ticket appeal",
    "database migration rollback",
]
FLOORS = (0.15, 0.20, 0.25, 0.30, 0.35, 0.40)


def run(quick: bool = False) -> list[dict]:
    from rawrag_tui.eval.coverage import normalise_locomo_id, parse_locomo_evidence
    from rawrag_tui.memory import Memory

    sample = json.loads(LOCOMO.read_text())
    sample = sample[0] if isinstance(sample, list) else sample
    with tempfile.TemporaryDirectory() as tmp, Memory.open(Path(tmp) / "home") as mem:
        mem.import_path(LOCOMO, "auto")
        emb = mem.embedder
        rows = mem.store._rows("SELECT id, conversation_id, first_seq, last_seq, text FROM windows ORDER BY id")
        window_ids = []
        for _wid, cid, first, last, _text in rows:
            messages = mem.store.messages_between(cid, first, last)
            window_ids.append({normalise_locomo_id(m["external_id"]) for m in messages})
        wvec = emb.embed([r[4] for r in rows])
        answerable, adversarial = [], []
        for qa in sample["qa"]:
            q = qa.get("question")
            if not q:
                continue
            sims = wvec @ emb.embed([q], kind="query")[0]
            if qa.get("category") == 5:
                adversarial.append(float(sims.max()))
                continue
            gold = {normalise_locomo_id(e) for e in parse_locomo_evidence(qa.get("evidence"))}
            hits = [i for i, ids in enumerate(window_ids) if gold & ids]
            if hits:
                answerable.append(float(sims[hits].max()))
        off = [float((wvec @ emb.embed([q], kind="query")[0]).max()) for q in OFF_TOPIC]
        fingerprint = emb.fingerprint
    out = []
    groups = (("answerable (best evidence window)", answerable), ("LoCoMo category 5 (best window)", adversarial),
              ("off-topic queries (best window)", off))
    for name, values in groups:
        p = np.percentile(values, [5, 25, 50, 75, 95])
        print(f"{name:<36} n={len(values):>3}  p5 {p[0]:.3f}  p25 {p[1]:.3f}  p50 {p[2]:.3f}"
              f"  p75 {p[3]:.3f}  p95 {p[4]:.3f}")
    print(f"embedder: {fingerprint}")
    for floor in FLOORS:
        kept = np.mean([v >= floor for v in answerable])
        empty_off = np.mean([v < floor for v in off])
        empty_adv = np.mean([v < floor for v in adversarial])
        print(f"floor {floor:.2f}: evidence kept {kept:6.1%}   off-topic empty {empty_off:6.1%}"
              f"   category-5 empty {empty_adv:6.1%}")
        out.append({"name": f"meaning floor {floor:.2f}: answerable evidence kept"
                            " (ref: off-topic queries shown nothing)",
                    "value": 100 * kept, "unit": "%", "reference_value": 100 * empty_off})
    return out


if __name__ == "__main__":
    run()
