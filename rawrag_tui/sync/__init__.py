"""`rawrag sync`: keep the memory current from the live sources on this machine.

``sources`` finds them (Claude Code, Codex, folders the person added),
``state`` keeps how far each file was read, ``runner`` reads what is new one
file per transaction, ``schedule`` installs a systemd timer or launchd agent,
``watch`` follows file-system events, and ``service`` is what the facade hands
the faces.
"""
