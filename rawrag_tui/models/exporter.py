"""Hugging Face checkpoint -> ONNX model directory with a manifest.

``export`` runs optimum's ONNX exporter in-process (the ``export`` extra:
torch + optimum-onnx), then, optionally, ONNX Runtime's dynamic int8
quantization, and writes ``manifest.json`` (role, kind, dims, pooling,
tokenizer, sha256 of every file) that the loaders read. The directory appears
whole or not at all: it is built beside the target and renamed into place.

Kinds:
- ``qwen3-embed``: Qwen3 decoder, task feature-extraction (last_hidden_state);
  last-token pooling happens in the embedder.
- ``qwen3-rerank``: the causal LM exported as feature-extraction (the decoder
  body), plus two graph nodes: take the last position, multiply by the LM
  head's "no" and "yes" rows. The graph's output is ``yes_no_logits`` (batch,
  2), the only logits the reranker reads, so the vocabulary-sized LM head
  (151,669 x hidden multiply-adds per token) is never run.
- ``cross-encoder``: BERT-family sequence classification (task
  text-classification), output ``logits``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelError
from .quiet import root_warnings_silenced
from .runtime import sha256_file

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
BERT_FAMILY = {"bert", "roberta", "xlm-roberta", "electra", "distilbert", "deberta-v2", "modernbert", "camembert"}
#: Protobuf cannot hold more than 2 GiB: bigger graphs keep weights beside them.
EXTERNAL_DATA_AT = 1_800_000_000
HEAD_NODE = "rawrag_yes_no_head"
QUANTIZATION = "int8-dynamic (uint8 weights per channel; MatMul, Gather)"


def _config(hf_dir: Path) -> dict[str, Any]:
    path = hf_dir / "config.json"
    if not path.is_file():
        raise ModelError(f"{hf_dir}: not a Hugging Face model directory (no config.json)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ModelError(f"{path}: not valid JSON: {exc}") from None


def choose_kind(config: dict[str, Any], role: str, where: Path) -> tuple[str, str]:
    """(kind, optimum task) for a checkpoint's model_type and the wanted role."""
    model_type = str(config.get("model_type", "")).lower()
    if model_type == "qwen3" and role == "embed":
        return "qwen3-embed", "feature-extraction"
    if model_type == "qwen3" and role == "rerank":
        return "qwen3-rerank", "feature-extraction"
    if model_type in BERT_FAMILY and role == "rerank":
        return "cross-encoder", "text-classification"
    raise ModelError(
        f"{where}: cannot export model_type {model_type or '?'!r} as {role}: "
        "supported are qwen3 (embed, rerank) and BERT-family cross-encoders (rerank)"
    )


def _lm_head_rows(hf_dir: Path, token_ids: list[int]) -> np.ndarray:
    """Rows of the LM head (or the tied input embeddings) for these tokens.

    Read straight from the safetensors files, so even a 4B checkpoint costs
    two rows of memory, not the model.
    """
    from safetensors import safe_open

    files = sorted(hf_dir.glob("*.safetensors"))
    for key in ("lm_head.weight", "model.embed_tokens.weight"):
        for path in files:
            with safe_open(str(path), framework="np") as handle:
                if key in handle.keys():  # noqa: SIM118 (safe_open has keys() but no __contains__)
                    table = handle.get_slice(key)
                    return np.stack([np.asarray(table[i : i + 1, :], dtype=np.float32)[0] for i in token_ids])
    raise ModelError(f"{hf_dir}: no lm_head.weight or model.embed_tokens.weight in *.safetensors")


def add_yes_no_head(onnx_path: Path, head: np.ndarray) -> None:
    """Rewrite a feature-extraction decoder graph to output (batch, 2) logits."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(onnx_path))
    graph = model.graph
    hidden = "last_hidden_state"
    if hidden not in [o.name for o in graph.output]:
        raise ModelError(f"{onnx_path}: exported graph has no {hidden} output")
    graph.initializer.extend(
        [
            numpy_helper.from_array(np.array(-1, dtype=np.int64), "rawrag_last_position"),
            numpy_helper.from_array(np.ascontiguousarray(head.T.astype(np.float32)), "rawrag_no_yes_rows"),
        ]
    )
    graph.node.extend(
        [
            # Left padding puts every row's last real token in the last column.
            helper.make_node("Gather", [hidden, "rawrag_last_position"], ["rawrag_last_hidden"], axis=1),
            helper.make_node("MatMul", ["rawrag_last_hidden", "rawrag_no_yes_rows"], ["yes_no_logits"], name=HEAD_NODE),
        ]
    )
    while graph.output:
        graph.output.pop()
    graph.output.append(helper.make_tensor_value_info("yes_no_logits", TensorProto.FLOAT, ["batch_size", 2]))
    _save_onnx(model, onnx_path)


def _save_onnx(model, path: Path) -> None:
    """Save, with the weights beside the graph when protobuf could not hold them."""
    import onnx

    weights = sum(len(t.raw_data) for t in model.graph.initializer)
    for stale in (path, path.with_name(path.name + "_data")):
        stale.unlink(missing_ok=True)
    if weights > EXTERNAL_DATA_AT:
        onnx.save(model, str(path), save_as_external_data=True, location=path.name + "_data")
    else:
        onnx.save(model, str(path))


def quantize_int8(src: Path, dst: Path) -> None:
    """Dynamic int8: weights uint8 per output channel, activations quantized per call.

    Why uint8 weights: on x86 CPUs without VNNI (AVX2 only, as here) ONNX
    Runtime's int8 x uint8 kernel can saturate its 16-bit sums; with signed
    weights a tiny random Qwen3 fell to cosine 0.959 against torch, with
    unsigned 0.997 (measured on this 2-core VM). The embedding table (Gather)
    is quantized too: it is a quarter of Qwen3-0.6B's weights. The added
    yes/no head stays fp32: it is two columns, and it is the score.
    """
    from onnxruntime.quantization import QuantType, quantize_dynamic

    external = src.with_name(src.name + "_data")
    big = src.stat().st_size + (external.stat().st_size if external.exists() else 0)
    with root_warnings_silenced():
        quantize_dynamic(
            str(src),
            str(dst),
            weight_type=QuantType.QUInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul", "Gather"],
            nodes_to_exclude=[HEAD_NODE],
            use_external_data_format=big > EXTERNAL_DATA_AT,
        )


def _files_entry(root: Path) -> dict[str, dict[str, Any]]:
    entries = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != MANIFEST):
        entries[path.relative_to(root).as_posix()] = {"size": path.stat().st_size, "sha256": sha256_file(path)}
    return entries


def _tokenizer_into(out: Path, *sources: Path) -> str:
    for source in sources:
        candidate = source / "tokenizer.json"
        if candidate.is_file():
            shutil.copyfile(candidate, out / "tokenizer.json")
            return "tokenizer.json"
    raise ModelError(f"{sources[0]}: no tokenizer.json (save the tokenizer with the model)")


def read_manifest(model_dir: str | Path) -> dict[str, Any]:
    model_dir = Path(model_dir)
    path = model_dir / MANIFEST
    if not path.is_file():
        raise ModelError(f"{model_dir}: no {MANIFEST}: not a model directory made by `rawrag models export`")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ModelError(f"{path}: not valid JSON: {exc}") from None
    for key in ("role", "kind", "onnx", "tokenizer"):
        if key not in manifest:
            raise ModelError(f"{path}: missing {key!r}")
    return manifest


def _write_manifest(out: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    manifest["files"] = _files_entry(out)
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return manifest


def _staging(out: Path) -> Path:
    if out.exists() and any(out.iterdir()):
        raise ModelError(f"{out}: already exists and is not empty; choose another --out")
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.parent / f".{out.name}.partial-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    return staging


def _publish(staging: Path, out: Path) -> None:
    if out.exists():
        out.rmdir()  # empty (checked in _staging)
    os.replace(staging, out)


def export(
    hf_dir: str | Path,
    role: str,
    out: str | Path,
    *,
    quantize: str | None = None,
    model_id: str | None = None,
    opset: int | None = None,
) -> dict[str, Any]:
    """Export ``hf_dir`` for ``role`` (embed | rerank) into ``out``; returns the manifest."""
    hf_dir, out = Path(hf_dir).expanduser(), Path(out).expanduser()
    if role not in ("embed", "rerank"):
        raise ModelError(f"role must be embed or rerank, not {role!r}")
    if quantize not in (None, "int8"):
        raise ModelError(f"--quantize {quantize!r}: only int8 is supported")
    config = _config(hf_dir)
    kind, task = choose_kind(config, role, hf_dir)
    try:
        from optimum.exporters.onnx import main_export
    except ImportError:
        raise ModelError("exporting needs the export extra: pip install 'rawrag-tui[export]'") from None
    staging = _staging(out)
    try:
        raw = staging / ".optimum"
        started = time.perf_counter()
        main_export(
            str(hf_dir),
            output=str(raw),
            task=task,
            opset=opset,
            device="cpu",
            do_validation=False,  # the tests compare with torch; users need no 2x load
            local_files_only=True,
            library_name="transformers",
        )
        manifest: dict[str, Any] = {
            "format": MANIFEST_FORMAT,
            "role": role,
            "kind": kind,
            "model_id": model_id or str(config.get("_name_or_path") or hf_dir.name),
            "source": str(hf_dir),
            "model_type": config.get("model_type"),
            "hidden_size": config.get("hidden_size"),
            "max_position_embeddings": config.get("max_position_embeddings"),
            "exported_with": _versions(),
        }
        if kind == "qwen3-embed":
            manifest.update(dims=config.get("hidden_size"), pooling="last-token", normalise="l2",
                            query_template="Instruct: {task}\nQuery:{query}")
        elif kind == "qwen3-rerank":
            from .onnx_decoder import load_tokenizer, token_id

            tok = load_tokenizer(hf_dir / "tokenizer.json")
            ids = [token_id(tok, "no", hf_dir), token_id(tok, "yes", hf_dir)]
            add_yes_no_head(raw / "model.onnx", _lm_head_rows(hf_dir, ids))
            manifest.update(score="softmax(no, yes)[yes] at the last position", no_yes_token_ids=ids)
        else:
            manifest.update(num_labels=len(config.get("id2label") or {}) or config.get("num_labels", 1))
        manifest["tokenizer"] = _tokenizer_into(staging, raw, hf_dir)
        if quantize == "int8":
            quantize_int8(raw / "model.onnx", staging / "model_int8.onnx")
            manifest.update(onnx="model_int8.onnx", quantization=QUANTIZATION)
        else:
            for name in ("model.onnx", "model.onnx_data"):
                if (raw / name).exists():
                    os.replace(raw / name, staging / name)
            manifest.update(onnx="model.onnx", quantization=None)
        shutil.rmtree(raw)
        manifest["export_seconds"] = round(time.perf_counter() - started, 1)
        _write_manifest(staging, manifest)
        _publish(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return manifest


def quantize_dir(src: str | Path, out: str | Path) -> dict[str, Any]:
    """int8 copy of an exported fp32 model directory (manifest updated)."""
    src, out = Path(src), Path(out)
    manifest = read_manifest(src)
    if manifest.get("quantization"):
        raise ModelError(f"{src}: already quantized ({manifest['quantization']})")
    staging = _staging(out)
    try:
        quantize_int8(src / manifest["onnx"], staging / "model_int8.onnx")
        shutil.copyfile(src / manifest["tokenizer"], staging / manifest["tokenizer"])
        manifest = {k: v for k, v in manifest.items() if k != "files"}
        manifest.update(onnx="model_int8.onnx", quantization=QUANTIZATION, quantized_from=str(src))
        _write_manifest(staging, manifest)
        _publish(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return manifest


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("torch", "transformers", "optimum-onnx", "onnx", "onnxruntime"):
        with contextlib.suppress(PackageNotFoundError):
            found[name] = version(name)
    return found
