"""How govern's own command line runs its process: the cycle collector's settings, and the large values kept
for the end of the process rather than freed, which act on the whole process and so are decided only by the
command line, never by a program using govern as a library."""

from __future__ import annotations

import contextlib
import gc

# Whether the process is govern's own command line (see own_the_collector): only then does long_lived change
# how the cycle collector runs.
_COLLECTOR_OWNED = False


def own_the_collector() -> None:
    """Called by the command line, which owns its process.

    Normalizing a large schema allocates millions of small objects that form no reference cycles; with the
    default thresholds the cycle collector rescans the growing heap again and again (a third of the time of
    extracting 10,000 types): collections stay on, just far less frequent. And from then on `long_lived`
    pauses the collector and moves what it made to the oldest generation. A program using govern as a library
    keeps its collector as it set it: these changes act on the whole process (every thread, every object, its
    own `gc.freeze()`), which only the process's owner may decide."""
    global _COLLECTOR_OWNED
    gc.set_threshold(100_000, 50, 1_000)
    _COLLECTOR_OWNED = True


@contextlib.contextmanager
def long_lived():
    """Values made inside are kept for the rest of the command, and the cycle collector has nothing to find in
    them: a parsed JSON document holds no reference cycle, nor do the frozen nodes normalized from it. Yet each
    hundred thousand of them that survive would cost a young-generation collection walking them all (about
    20 ms; reading 10,000 types made four). So, in govern's own process (see own_the_collector), no collection
    runs inside, and on leaving, what was made is moved straight to the oldest generation, which only a full
    collection walks (and where a cycle among them is still found). Elsewhere this changes nothing."""
    if not _COLLECTOR_OWNED:
        yield
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()  # every tracked object to the permanent generation, the young generation's count to zero
        gc.unfreeze()  # and from there to the oldest generation
        if enabled:
            gc.enable()


class Handed:
    """A value handed over to the function it is passed to, which takes it out (`taken`): then neither the caller's
    frame nor the callee's arguments hold it (a compiled function holds each of its arguments until it returns), so
    the callee can let go of it before it returns. A parsed document handed to its reader is freed once read (see
    SchemaSet.release_documents), before the graph made of it is built."""

    __slots__ = ("_value",)

    def __init__(self, value) -> None:
        self._value = value

    def take(self):
        value, self._value = self._value, None
        return value


def taken(value):
    """`value`, or the value it hands over when it is `Handed` (taken out of it)."""
    return value.take() if value.__class__ is Handed else value


# What the command kept for the end of its process, and whether the running command keeps (see keep_until_exit).
_KEPT: list = []
_KEEPING = False


def keep_until_exit(*values) -> None:
    """Inside `keeping_until_exit` in govern's own process, hold `values` until the process ends, which ends without
    freeing them (see govern.cli.run); elsewhere nothing.

    Reading a large source fills tables of hundreds of thousands of small objects (the converter's, see
    Converter.tables), and freeing them visits every one: with 10,000 types that took about 5% of `govern extract`,
    for memory the process gives back to the operating system a moment later anyway. (A compiler's driver leaves its
    syntax tree to the operating system for the same reason.) But memory freed in the middle of a command is
    reused by what follows, so keeping raises the peak: the parsed document is freed as before (kept, it cost a
    fifth more memory for little time), and only a command that reads each source once and then writes what it
    made keeps anything (`extract`). One that reads many (`archive`, one source per tag), or that builds a large
    comparison after reading (`diff`), does not. A program using govern as a library keeps nothing."""
    if _KEEPING and _COLLECTOR_OWNED:
        _KEPT.append(values)


@contextlib.contextmanager
def keeping_until_exit():
    """What `keep_until_exit` is offered inside is kept (in govern's own process): for the command that decides it."""
    global _KEEPING
    _KEEPING = True
    try:
        yield
    finally:
        _KEEPING = False


def release_kept() -> None:
    """Free what earlier commands of this process kept (a process that runs several commands)."""
    _KEPT.clear()
