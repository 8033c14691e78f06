"""Searching, at question time: question -> ranked windows -> their messages.

``pipeline`` runs the lexical and dense channels, fuses and reranks them;
``types`` holds what a search returns (public to the faces); ``highlight``
says which words of a hit matched.
"""
