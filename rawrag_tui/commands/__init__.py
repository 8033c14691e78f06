"""One module per ``rawrag`` subcommand; each has ``register(sub)`` and ``run(args)``."""

#: Registration order is the order ``rawrag --help`` lists them.
COMMANDS = ("importing", "index", "search", "ask", "show", "export", "status", "doctor", "delete", "models", "reader",
            "eval", "demo", "mcp", "sync", "init", "encrypt", "decrypt", "rekey")
