"""rawrag: a local-first memory over your own raw chat history (RAW-RAG)."""

import os

__version__ = "0.1.0"

# ONNX Runtime (1.32) on Linux and macOS writes a device id and queues
# telemetry events under ~/.cache/Microsoft/DeveloperTools as soon as it is
# imported; its documented switch, set before it loads, turns all of it off
# (nothing created, nothing queued). Every face imports this package first.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
