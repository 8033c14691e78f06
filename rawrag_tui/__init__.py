"""rawrag: a local-first memory over your own raw chat history (RAW-RAG)."""

__version__ = "0.1.0"
