"""Building the index, at import time: history -> serialised lines -> 256-token windows -> vectors.

``serialise`` writes each message as one ``[date] speaker: text`` line,
``windowing`` cuts a conversation's lines into overlapping windows, and
``pending`` windows what needs it and embeds what is not embedded yet
(resumable, in committed batches). ``ingest`` turns parsed conversations
into store rows inside one transaction.
"""
