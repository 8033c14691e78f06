"""Third-party warnings that mean nothing to a person using rawrag, kept from them."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator


@contextlib.contextmanager
def root_warnings_silenced() -> Iterator[None]:
    """Drop what libraries log through the root logger meanwhile.

    ONNX Runtime's quantizer calls ``logging.warning("Please consider to run
    pre-processing before quantization…")``: advice for whoever builds a model,
    printed to the user of an app that quantizes its bundled embedder once.
    A bare ``logging.warning`` with no handler installs a stderr handler on
    the root logger for good (``basicConfig``); a NullHandler in place for the
    duration keeps both from happening.
    """
    root = logging.getLogger()
    guard = logging.NullHandler()
    level = root.level
    root.addHandler(guard)
    root.setLevel(logging.ERROR)
    try:
        yield
    finally:
        root.setLevel(level)
        root.removeHandler(guard)
