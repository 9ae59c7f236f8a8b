"""govern: governs changes to persisted schemas.

The library never prints and never exits; `govern.cli` is the only layer that talks to a terminal.
"""

__version__ = "0.1.0"
