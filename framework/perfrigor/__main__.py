"""``python -m perfrigor``: the command line (see :mod:`perfrigor.cli`)."""

import sys

from .cli import main

sys.exit(main())
