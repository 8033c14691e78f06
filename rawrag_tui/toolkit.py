"""The calls that need no open home: what the faces ask besides a memory.

Model management (``rawrag models``), the doctor, whether a reader can run,
token counting, the abstention sentence, the export formats and search modes
for help texts, and the LoCoMo helpers of the benchmarks. Each reads at most
a home's settings; none opens its store, so each works before anything is
imported (and beside an app that holds the store). Heavy modules are
imported inside each call, so importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import importers
from .errors import UserError
from .progress import Progress
from .search.pipeline import MODES as SEARCH_MODES
from .settings import RetrievalSettings, default_home, load_settings

if TYPE_CHECKING:
    from .doctor import DoctorReport
    from .models.protocols import Embedder
    from .search.types import ParsedQuery

__all__ = [
    "FORMATS", "RETRIEVAL_DEFAULTS", "SEARCH_MODES", "count_tokens", "decrypt_home", "default_home", "detect_format",
    "doctor", "encrypt_home", "encryption_state", "init_home", "is_abstention", "load_embedder", "locomo_samples",
    "locomo_session_day", "model_export", "model_list", "model_open", "model_pull", "model_use", "needs_passphrase",
    "parse_query", "reader_choice", "reader_configured", "reader_missing", "reader_servers", "reader_use",
    "rekey_home", "require_reader", "speaker_named", "unlock",
]

#: The export formats ``Memory.import_path`` reads (besides "auto").
FORMATS = importers.FORMATS
#: The retrieval settings a home starts with (for the faces' help texts).
RETRIEVAL_DEFAULTS = RetrievalSettings()


# -- the history's files ------------------------------------------------------

def detect_format(path: str | Path) -> str:
    """The export format ``path`` holds (by content), or a UserError saying why not."""
    from .importers.source import ExportSource

    path = Path(path).expanduser()
    if not path.exists():
        raise UserError(f"{path}: no such file or folder")
    with ExportSource(path) as source:
        return importers.detect(source)


def locomo_samples(path: str | Path) -> list[dict]:
    """A LoCoMo file's samples as JSON, after the LoCoMo importer's own checks
    (a bad file is refused as an import would refuse it); for benchmarks."""
    from .importers.locomo import load_samples, parse
    from .importers.records import ParseStats
    from .importers.source import ExportSource

    with ExportSource(Path(path)) as source:
        samples = load_samples(source)
        for _ in parse(source, ParseStats()):
            pass
    return samples


def locomo_session_day(text: str) -> str:
    """The ISO day of a LoCoMo ``session_N_date_time`` ("1:56 pm on 8 May, 2023"); ValueError if none."""
    from .importers.locomo import parse_session_date

    return parse_session_date(text).date().isoformat()


# -- text ---------------------------------------------------------------------

def parse_query(text: str) -> ParsedQuery:
    """A search box's line (``meetup after:2016-01 from:Neeraj in:#general``) as its words and
    Filters (search/query_syntax.py); the store checks the filters when they are searched with."""
    from .search.query_syntax import parse_query as parse

    return parse(text)


def speaker_named(typed: str, speaker: str) -> bool:
    """Whether a ``from:`` term names ``speaker`` the way the store's filter matches it
    (case, accents, a first name alone: "neeraj" names "Neeraj Kumar")."""
    from .search.filters import match_speakers

    return bool(match_speakers(typed, [speaker]))


def count_tokens(text: str) -> int:
    """cl100k tokens, the unit of windows and of every face's size budget."""
    from .index.windowing import count_tokens as cl100k

    return cl100k(text)


def is_abstention(text: str) -> bool:
    """Whether a reader's answer is the prompt's own "not in your history" sentence."""
    from .answer.prompts import is_abstention as abstains

    return abstains(text)


# -- the reader -----------------------------------------------------------------

def require_reader(home: str | Path | None = None) -> None:
    """One ModelError line now, before any work, when no reader can run
    (llama-cpp-python missing for the bundled reader; a reader server that
    would send the evidence off this machine without ``reader.allow_remote``),
    instead of at the first question. Nothing is contacted."""
    settings = load_settings(home)
    if settings.reader.endpoint:
        from .models.endpoint import check_endpoint

        check_endpoint(settings.reader.endpoint, settings.reader.allow_remote)
        return
    from .models.reader_process import require_llama_cpp

    require_llama_cpp()


def reader_missing(home: str | Path | None = None) -> str | None:
    """Why no reader can run for this home (one line), or None when one can."""
    try:
        require_reader(home)
    except UserError as exc:
        return str(exc)
    return None


# -- models (``rawrag models``) and the doctor: a home's settings, no store ----------

def load_embedder(home: str | Path | None = None) -> Embedder:
    """The home's profile's embedder, loaded now (to share one model across several stores)."""
    from .models import load_embedder as load

    return load(load_settings(home))


def model_list(home: str | Path | None = None) -> dict[str, Any]:
    """Profiles, their roles and what is on this machine, plus the runtime in one line."""
    from .models.manager import list_models
    from .models.runtime import describe

    settings = load_settings(home)
    return {**list_models(settings), "runtime": describe(settings)}


def model_pull(target: str, home: str | Path | None = None, *, include: list[str] | None = None,
               revision: str = "main", progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Download a profile's (or one repository's) model files into the home's model folder."""
    from .models.manager import pull

    return pull(target, load_settings(home), include=include, revision=revision, progress=progress)


def model_use(profile: str, home: str | Path | None = None, *, force: bool = False) -> tuple[Path, list[str]]:
    """Make ``profile`` the active one; returns the config written and the roles still to pull."""
    from .models.manager import missing_roles, use

    path = use(profile, load_settings(home), force=force)
    return path, missing_roles(profile, load_settings(home))


def model_export(hf_dir: str | Path, role: str, out: str | Path, *, quantize: str | None = None,
                 model_id: str | None = None) -> dict[str, Any]:
    """A Hugging Face model folder exported to ONNX for ``role`` (needs the export extra)."""
    from .models.exporter import export

    return export(hf_dir, role, out, quantize=quantize, model_id=model_id)


def model_open(directory: str | Path, role: str, home: str | Path | None = None, **options: Any) -> Any:
    """An exported model directory opened for ``role`` (an Embedder or a Reranker)."""
    from .models.exporter import read_manifest
    from .models.local_models import open_model_dir

    manifest = read_manifest(directory)
    if manifest["role"] != role:
        raise UserError(f"{directory}: made for role {manifest['role']}, not {role}")
    if manifest["kind"] == "cross-encoder" and options:
        raise UserError(f"{directory}: a cross-encoder takes no instruction")
    return open_model_dir(directory, load_settings(home), **options)


def doctor(home: str | Path | None = None) -> DoctorReport:
    """Check every part by running it once (``rawrag doctor``); needs no open store."""
    from .doctor import diagnose

    return diagnose(load_settings(home))


# -- the reader you choose (``rawrag reader``) ----------------------------------

def reader_use(spec: str, model: str | None = None, home: str | Path | None = None, *,
               api_key_env: str | None = None, allow_remote: bool = False) -> dict[str, Any]:
    """Make ``spec`` (``bundled``, ``ollama:MODEL``, ``lmstudio:MODEL``, a URL + model)
    the home's reader; a remote URL is refused before any connection unless allowed."""
    from .models.reader_choice import use

    return use(load_settings(home), spec, model, api_key_env=api_key_env, allow_remote=allow_remote)


def reader_servers(ports: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """OpenAI-compatible servers on this machine's loopback ports, with their chat
    models and the command that switches to each (short timeouts; loopback only)."""
    from .models.endpoint import discover

    return [found.to_json() for found in discover(ports)]


def reader_choice(home: str | Path | None = None) -> dict[str, Any]:
    """The home's ``[reader]`` choice of backend (endpoint, model, api_key_env,
    allow_remote) as settings overrides, for stores that should read with it
    (``rawrag eval --reader``'s stores in their own folders)."""
    r = load_settings(home).reader
    return {"endpoint": r.endpoint, "model": r.model, "api_key_env": r.api_key_env, "allow_remote": r.allow_remote}


def reader_configured(home: str | Path | None = None) -> dict[str, str]:
    """The home's reader as its settings name it: backend, model, endpoint (nothing is contacted)."""
    settings = load_settings(home)
    if settings.reader.endpoint:
        return {"backend": "openai-compatible", "model": settings.reader.model, "endpoint": settings.reader.endpoint}
    return {"backend": "bundled", "model": settings.models.reader_model or settings.models.profile,
            "endpoint": "local"}

# -- an encrypted store (storage/encryption.py; docs/cli.md#encryption) ------------


def encryption_state(home: str | Path | None = None) -> dict[str, Any]:
    """Whether the home's store is encrypted, its cipher, and the keyring keeping its passphrase."""
    from .storage.home_encryption import state

    return state(load_settings(home).db_path)


def needs_passphrase(home: str | Path | None = None) -> bool:
    """The store is encrypted and no passphrase at hand (keyring, RAWRAG_PASSPHRASE) opens it: ask for one."""
    from .storage.home_encryption import needs_passphrase as needs

    return needs(load_settings(home).db_path)


def unlock(home: str | Path | None, passphrase: str) -> None:
    """Check a typed passphrase on the store and keep it for this process; UserError if it is wrong."""
    from .storage.home_encryption import unlock as prove

    prove(load_settings(home).db_path, passphrase)


def init_home(home: str | Path | None = None, *, encrypt: bool = False, keyring: bool = True) -> dict[str, Any]:
    """A new home with an empty store, encrypted from its first page with ``encrypt``."""
    from .storage.home_encryption import init

    return init(load_settings(home).db_path, encrypt, keyring)


def encrypt_home(home: str | Path | None = None, progress: Progress | None = None, *,
                 keyring: bool = True) -> dict[str, Any]:
    """Encrypt the home's store in place (a checked copy renamed over it: killed midway, the old one is intact)."""
    from .storage.home_encryption import encrypt

    return encrypt(load_settings(home).db_path, progress, keyring)


def decrypt_home(home: str | Path | None = None, progress: Progress | None = None) -> dict[str, Any]:
    from .storage.home_encryption import decrypt

    return decrypt(load_settings(home).db_path, progress)


def rekey_home(home: str | Path | None = None, progress: Progress | None = None, *,
               keyring: bool = True) -> dict[str, Any]:
    """The store under a new passphrase; the old one opens nothing after."""
    from .storage.home_encryption import rekey

    return rekey(load_settings(home).db_path, progress, keyring)
