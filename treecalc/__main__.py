"""``python -m treecalc``: the same as the ``treecalc`` command."""

import sys

from treecalc.cli import main

# guarded: a child process started by spawn or forkserver (the survey reader's) imports this module again
if __name__ == "__main__":
    sys.exit(main())
