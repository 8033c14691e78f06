"""Answering, after a search: the evidence chosen and packed, the prompt, the
reader's call, and the checks run on what it answered (``checks/``).

``types`` holds what an answer returns (public to the faces).
"""
