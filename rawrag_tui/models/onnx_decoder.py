"""Feeding a decoder-only (Qwen3) ONNX graph: left padding, positions, empty past.

Shared by the Qwen3 embedder and reranker. A decoder reads left to right, so
the last real token must sit at the same (last) column for every row of a
batch: we pad on the left. Padded rows then need position ids that start at 0
on their first real token, which is the attention mask's cumulative sum minus
one, exactly what transformers computes. Graphs exported "with past" (as the
hub's Transformers.js conversions are) also take past key/values; a first pass
gives them empty tensors.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ModelError
from .runtime import create_session

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import Settings

_NUMPY_TYPES = {
    "tensor(int64)": np.int64,
    "tensor(int32)": np.int32,
    "tensor(float)": np.float32,
    "tensor(float16)": np.float16,
}


def left_pad(rows: Sequence[Sequence[int]], pad_id: int) -> tuple[np.ndarray, np.ndarray]:
    """(input_ids, attention_mask), both int64 (batch, longest), padded on the left."""
    width = max(len(r) for r in rows)
    ids = np.full((len(rows), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    for i, row in enumerate(rows):
        if row:
            ids[i, width - len(row):] = row
            mask[i, width - len(row):] = 1
    return ids, mask


def positions_from_mask(mask: np.ndarray) -> np.ndarray:
    """Position 0 at each row's first real token; padding gets 1 (never read)."""
    positions = np.cumsum(mask, axis=1) - 1
    positions[mask == 0] = 1
    return positions.astype(np.int64)


def batches_by_length(lengths: Sequence[int], batch_size: int, token_budget: int) -> list[list[int]]:
    """Indices grouped so rows in a batch have similar lengths.

    Sorting by length keeps padding (wasted compute) small; the token budget
    caps batch x longest so one batch of long texts cannot exhaust memory.
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    groups: list[list[int]] = []
    current: list[int] = []
    for i in order:
        longest = max(lengths[i], 1)  # sorted: this row is the longest so far
        if current and (len(current) >= batch_size or (len(current) + 1) * longest > token_budget):
            groups.append(current)
            current = []
        current.append(i)
    if current:
        groups.append(current)
    return groups


class DecoderSession:
    """An ONNX decoder graph with the inputs it wants filled in for it."""

    def __init__(self, model_path: str | Path, settings: Settings | None = None):
        self.path = Path(model_path)
        self.session = create_session(self.path, settings)
        self.inputs = {i.name: i for i in self.session.get_inputs()}
        self.output_names = [o.name for o in self.session.get_outputs()]
        missing = {"input_ids", "attention_mask"} - set(self.inputs)
        if missing:
            raise ModelError(f"{self.path}: not a decoder graph: no input(s) {', '.join(sorted(missing))}")
        self.past_inputs = [name for name in self.inputs if name.startswith("past_key_values")]

    def output_shape(self, name: str) -> list:
        for o in self.session.get_outputs():
            if o.name == name:
                return list(o.shape)
        raise ModelError(f"{self.path}: graph has no output {name!r} (has {', '.join(self.output_names)})")

    def _typed(self, name: str, array: np.ndarray) -> np.ndarray:
        return array.astype(_NUMPY_TYPES.get(self.inputs[name].type, array.dtype), copy=False)

    def run(self, ids: np.ndarray, mask: np.ndarray, outputs: Sequence[str]) -> list[np.ndarray]:
        feed = {"input_ids": self._typed("input_ids", ids), "attention_mask": self._typed("attention_mask", mask)}
        if "position_ids" in self.inputs:
            feed["position_ids"] = self._typed("position_ids", positions_from_mask(mask))
        for name in self.past_inputs:
            meta = self.inputs[name]
            shape = []
            for axis, dim in enumerate(meta.shape):
                if isinstance(dim, int):
                    shape.append(dim)
                elif axis == 0:
                    shape.append(ids.shape[0])
                else:
                    shape.append(0)  # the past length: nothing yet
            feed[name] = np.zeros(shape, dtype=_NUMPY_TYPES.get(meta.type, np.float32))
        return self.session.run(list(outputs), feed)


def load_tokenizer(path: str | Path, *, shared: bool = True):
    """A ``tokenizers.Tokenizer`` from tokenizer.json, with padding/truncation off.

    We pad and truncate ourselves (left padding, budgets per part), so any
    padding or truncation saved in the file is switched off. Qwen3's file
    (151k tokens, 151k merges) takes 1-3 s to parse on a 2-core VM, so one
    process parses each file once (``shared``); a caller that changes the
    tokenizer's settings must ask for its own (``shared=False``).
    """
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: tokenizer file is missing")
    data = path.read_bytes()
    if not shared:
        return _parse_tokenizer(data, str(path))
    # Keyed by content: copies of one tokenizer (every exported dir has one)
    # are parsed once.
    return _shared_tokenizer(hashlib.sha256(data).hexdigest(), data, str(path))


_SHARED: dict[str, object] = {}


def _shared_tokenizer(digest: str, data: bytes, where: str):
    if digest not in _SHARED:
        if len(_SHARED) >= 8:
            _SHARED.pop(next(iter(_SHARED)))
        _SHARED[digest] = _parse_tokenizer(data, where)
    return _SHARED[digest]


def _parse_tokenizer(data: bytes, where: str):
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_str(data.decode("utf-8"))
    except Exception as exc:  # noqa: BLE001 - tokenizers raises a plain Exception
        raise ModelError(f"{where}: not a tokenizer.json: {str(exc).splitlines()[0] if str(exc) else exc}") from None
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def token_id(tokenizer, token: str, path: str | Path) -> int:
    found = tokenizer.token_to_id(token)
    if found is None:
        raise ModelError(f"{path}: tokenizer has no {token!r} token: not a Qwen3 tokenizer?")
    return int(found)
