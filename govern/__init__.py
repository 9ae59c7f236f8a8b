"""govern: governs changes to persisted schemas.

The library never prints and never exits; `govern.cli` is the only layer that talks to a terminal.
"""

import os as _os

from govern.compiled import install as _install_compiled

__version__ = "0.1.0"

# Before any compiled module is imported: its extension runs only when built from the source beside it.
_install_compiled(_os.path.dirname(__file__))
