"""``python -m treecalc.cli``: the same as the ``treecalc`` command."""

import sys

from treecalc.cli import main

sys.exit(main())
