"""Does reusing the per-query prefix KV cache pay for Qwen3 reranking? Measure.

Every (query, document) row starts with the same ~70 tokens (system turn,
instruction, query). A graph exported "with past" can run that head once,
then each batch of documents against its cached keys/values (a mask with
a hole for the left padding between head and document; position ids start
after the head). This script checks the scores equal the full rows' and
times both. Not wired into Qwen3Reranker: see the report for why.

    python bench/rerank_prefix_cache.py HF_DIR OUT_DIR VOCAB

HF_DIR: a Qwen3ForCausalLM checkpoint with the Qwen3 tokenizer saved beside
it (bench/rerank_cost.py leaves one: /tmp/rawrag-bench-models/qwen3-0.6b-slice-hf,
VOCAB 16384; token ids are folded into that vocabulary).
"""
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from optimum.exporters.onnx import main_export

from rawrag_tui.models.onnx_decoder import DecoderSession, left_pad, load_tokenizer, positions_from_mask
from rawrag_tui.models.qwen3_reranker import DEFAULT_INSTRUCTION, PromptTokens, yes_probability

hf = Path(sys.argv[1])
out = Path(sys.argv[2])
if not (out / "model.onnx").exists():
    main_export(str(hf), output=str(out), task="text-generation-with-past", do_validation=False,
                local_files_only=True, library_name="transformers")
tok = load_tokenizer(hf / "tokenizer.json")
vocab = int(sys.argv[3])
pt = PromptTokens(tok, DEFAULT_INSTRUCTION, 278)
no, yes = tok.token_to_id("no"), tok.token_to_id("yes")
dec = DecoderSession(out / "model.onnx")
sess = dec.session
inputs = {i.name: i for i in sess.get_inputs()}
outs = [o.name for o in sess.get_outputs()]
present = [o for o in outs if o.startswith("present")]
rng = np.random.default_rng(0)
head = [t % vocab for t in pt.head_ids("When did Caroline go to the LGBTQ support group?")]
docs = [list(rng.integers(1000, vocab - 1, size=int(n))) for n in rng.integers(200, 279, size=16)]
tail = [t % vocab for t in pt.tail_ids]
rows = [head + d + tail for d in docs]
B = 8

def full():
    scores = []
    for i in range(0, len(rows), B):
        ids, mask = left_pad(rows[i:i+B], 0)
        (logits,) = dec.run(ids, mask, ["logits"])
        scores += list(yes_probability(logits[:, -1, [no, yes]]))
    return np.array(scores)

def cached():
    P = len(head)
    ids = np.array([head], dtype=np.int64)
    mask = np.ones_like(ids)
    feed = {"input_ids": ids, "attention_mask": mask, "position_ids": positions_from_mask(mask)}
    for name in dec.past_inputs:
        shp = [1 if k == 0 else (d if isinstance(d, int) else 0) for k, d in enumerate(inputs[name].shape)]
        feed[name] = np.zeros(shp, dtype=np.float32)
    res = sess.run(present, feed)
    past = dict(zip([p.replace("present", "past_key_values") for p in present], res))
    scores = []
    for i in range(0, len(rows), B):
        parts = [d + tail for d in docs[i:i+B]]
        ids, m = left_pad(parts, 0)
        n = len(parts)
        mask = np.concatenate([np.ones((n, P), dtype=np.int64), m], axis=1)
        pos = P + np.cumsum(m, axis=1) - 1
        pos[m == 0] = 1
        feed = {"input_ids": ids, "attention_mask": mask, "position_ids": pos.astype(np.int64)}
        for k, v in past.items():
            feed[k] = np.repeat(v, n, axis=0)
        (logits,) = sess.run(["logits"], feed)
        scores += list(yes_probability(logits[:, -1, [no, yes]]))
    return np.array(scores)

a = full()
b = cached()
print("max |full - cached| =", np.abs(a - b).max(), "head tokens", len(head),
      "mean row", np.mean([len(r) for r in rows]))
for name, fn in (("full", full), ("cached", cached), ("full", full), ("cached", cached)):
    t = time.perf_counter()
    fn()
    print(name, f"{(time.perf_counter() - t) / len(rows) * 1000:.1f} ms/candidate")
