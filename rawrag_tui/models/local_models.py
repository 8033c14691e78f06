"""Open an exported model directory (manifest.json) as an Embedder or Reranker."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ModelError
from .exporter import read_manifest

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import Settings


def open_model_dir(model_dir: str | Path, settings: Settings | None = None, **options: Any):
    """The embedder or reranker a manifest describes; the weights are verified first.

    ``options`` go to the model's constructor (task/instruction, dims, ...).
    """
    model_dir = Path(model_dir).expanduser()
    manifest = read_manifest(model_dir)
    onnx_name = manifest["onnx"]
    entry = manifest.get("files", {}).get(onnx_name, {})
    common = dict(
        model_id=manifest.get("model_id", model_dir.name),
        settings=settings,
        sha256=entry.get("sha256"),
        size=entry.get("size"),
    )
    onnx_path, tokenizer_path = model_dir / onnx_name, model_dir / manifest["tokenizer"]
    if str(manifest.get("quantization") or "").startswith("int8-dynamic"):
        # Dynamic quantization picks one activation scale per tensor, i.e.
        # per batch: a row's result would depend on its batch-mates (scores
        # moved by up to 0.02 on the tiny reranker). One row per call keeps
        # vectors and scores reproducible (cacheable); on a CPU rows of
        # ~300 tokens already fill the matrix units. Callers may override.
        options.setdefault("batch_size", 1)
    kind = manifest["kind"]
    if kind == "qwen3-embed":
        from .qwen3_embedder import Qwen3Embedder

        return Qwen3Embedder(onnx_path, tokenizer_path, **common, **options)
    if kind == "qwen3-rerank":
        from .qwen3_reranker import Qwen3Reranker

        return Qwen3Reranker(onnx_path, tokenizer_path, **common, **options)
    if kind == "cross-encoder":
        from .cross_encoder import CrossEncoderReranker

        return CrossEncoderReranker(onnx_path, tokenizer_path, **common, **options)
    raise ModelError(f"{model_dir / 'manifest.json'}: unknown kind {kind!r}")
