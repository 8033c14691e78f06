"""The standalone build's one executable: the `rawrag` command, and the reader's process.

The reader runs in a child process started as ``sys.executable -m
rawrag_tui.models.reader_worker`` (models/reader_process.py). In this build
``sys.executable`` is the bundled ``rawrag`` itself, which has no ``-m``, so
that command line is recognised here and run as the module it names.
"""

import sys

WORKER = ["-m", "rawrag_tui.models.reader_worker"]

if __name__ == "__main__":
    if sys.argv[1:3] == WORKER:
        import runpy

        sys.argv = [sys.argv[0], *sys.argv[3:]]
        runpy.run_module("rawrag_tui.models.reader_worker", run_name="__main__", alter_sys=True)
        sys.exit(0)
    from rawrag_tui.cli import main

    sys.exit(main())
