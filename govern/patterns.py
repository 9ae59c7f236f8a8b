"""Searching the regular expressions schemas hold (`patternProperties`) in names, within a bound of time.

Python's `re` backtracks: `^(a|aa)+$` against sixty `a`s and a `!` takes longer than anyone will wait, and it
has no timeout. The `regex` engine avoids most such backtracking and stops a search after a timeout. A search that
does not end in time is not known, which every caller treats as it treats a pattern it cannot read:
conservatively. `re` still decides which patterns are readable, as it did. Where an answer must be `re`'s own
(the witness validator's, for patterns `regex` reads otherwise), `search_by_re` bounds `re` itself: `re` checks
for signals as it backtracks, so an interval timer's signal ends the search. The bound is generous, so no
pattern a schema means seriously comes near it and the output stays the same from machine to machine; only a
pattern that backtracks without end is cut short, and each such pattern only once."""

from __future__ import annotations

import heapq
import re
from typing import Any, Callable, Iterator

SECONDS_PER_SEARCH = 1.0
# Past this much spent on searches cut short (and on long searches a caller counts, see `count_long_search`), no
# further pattern is searched.
SECONDS_IN_ALL = 5.0
# A search that ends after this long is one a caller that searches many texts counts towards SECONDS_IN_ALL.
LONG_SEARCH = SECONDS_PER_SEARCH / 4

_slow: set[str] = set()  # patterns whose search was cut short: not searched again
_spent = [0.0]
# Each pattern compiled once, by this module (None: unreadable). `re` and `regex` keep caches of their own, but
# of a few hundred patterns: a schema with more, each searched in many names, compiled every pattern again at
# every search (600 patterns against 600 added names took 44 s).
_compiled: dict[str, Any] = {}


def search(pattern: str, text: str) -> bool | None:
    """Whether `pattern` matches somewhere in `text`; None when that is not known: `re` cannot read the
    pattern, or the search took longer than the bound (or this process has cut enough of them short)."""
    if pattern in _slow:
        return None
    compiled = _compiled.get(pattern, _UNSEEN)
    if compiled is _UNSEEN:
        compiled = _compiled[pattern] = _compile(pattern)
    if compiled is None or _spent[0] >= SECONDS_IN_ALL:
        return None
    try:
        return compiled.search(text, timeout=SECONDS_PER_SEARCH) is not None
    except TimeoutError:
        _slow.add(pattern)
        _spent[0] += SECONDS_PER_SEARCH
        return None
    except (OverflowError, RecursionError):  # pragma: no cover - what `regex` raises on a pathological pattern
        return None


def search_by_re(pattern: str, search: Callable[[str], Any], text: str) -> bool | None:
    """Whether `search` (the `search` of `pattern` compiled by `re`) finds a match in `text`, as `re` answers, but
    within the same bound as `search`; None when that is not known: the search was cut short (the pattern then
    answers None from here on, as in `search`), this process has cut enough of them short, or the main thread
    that runs it (see below) was interrupted.

    `re` checks for signals every few thousand steps of a search and runs their handlers there: a one-shot
    interval timer's SIGALRM, whose handler raises, ends it. Only the main thread runs signal handlers, so a
    search asked for in another thread is run by the main thread while it serves that thread's work
    (`SearchServer`, as govern's deep-stack worker is served). The timer also needs a process whose SIGALRM no
    one else uses (no handler of its own, no timer running). Elsewhere (a program using govern from a thread of
    its own, say) the search runs unbounded, as `re` runs it."""
    if pattern in _slow or _spent[0] >= SECONDS_IN_ALL:
        return None
    import threading

    current = threading.current_thread()
    if current is not threading.main_thread():
        server = _serving[0]
        if server is not None and server.worker is current:
            return server.ask(pattern, search, text)
        return search(text) is not None
    if not _may_set_alarm():
        return search(text) is not None
    return _search_under_timer(pattern, search, text)


def _search_under_timer(pattern: str, search: Callable[[str], Any], text: str) -> bool | None:
    import signal

    try:
        signal.signal(signal.SIGALRM, _cut_short)
        try:
            _armed[0] = True
            signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_SEARCH)
            return search(text) is not None
        finally:
            _armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)  # (before the default action, ending the process, is back)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
    except _SearchCutShort:
        _slow.add(pattern)
        _spent[0] += SECONDS_PER_SEARCH
        return None


class _SearchCutShort(BaseException):
    """Raised by the timer's handler inside a search (a BaseException: no `except Exception` on the way stops it)."""


_armed = [False]  # whether a search is running under the timer: a signal after it ended is ignored


def _cut_short(signum: int, frame: Any) -> None:
    if _armed[0]:
        _armed[0] = False
        raise _SearchCutShort


def _may_set_alarm() -> bool:
    """Whether this thread may bound a search with SIGALRM: the main thread, on a system with interval timers, in
    a process that neither handles SIGALRM itself nor has a timer running. (The handler of a search that an
    interrupt left in place is this module's own, which ignores a signal outside a search.)"""
    import signal
    import threading

    return (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, _cut_short)
            and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))


class SearchServer:
    """The main thread's side of a worker thread's `search_by_re`: while the worker runs, the main thread, which
    only waits for it, runs the searches the worker asks for under its timer.

        server = SearchServer.start(worker)   # the worker made, not started; None where there is no server
        try:
            worker.start()                    # (the worker calls server.finish() when it ends, however it ends)
            server.serve()                    # returns once the worker has finished
        finally:
            server.stop()                     # (an interrupted main thread serves no more: the worker is told)
    """

    __slots__ = ("worker", "_requests", "_open")

    def __init__(self, worker: Any) -> None:
        import queue

        self.worker = worker
        self._requests: Any = queue.SimpleQueue()
        self._open = True

    @classmethod
    def start(cls, worker: Any) -> "SearchServer | None":
        """The server of `worker`, registered; None where the main thread cannot bound a search, or serves a
        worker still running already."""
        current = _serving[0]
        if current is not None and current.worker.is_alive() or not _may_set_alarm():
            return None
        server = _serving[0] = cls(worker)
        return server

    def serve(self) -> None:
        while (request := self._requests.get()) is not None:
            pattern, search, text, reply = request
            try:
                answer: Any = search_by_re(pattern, search, text)
            except Exception as error:  # (raised where the search was asked for, as if it ran there)
                answer = error
            except BaseException:  # (Ctrl-C): the worker's search is not known, and this is raised
                reply.put(_STOPPED)
                raise
            reply.put(answer)

    def finish(self) -> None:
        """Called by the worker when it ends, however it ends: `serve` returns."""
        self.stop()
        if _serving[0] is self:
            _serving[0] = None

    def stop(self) -> None:
        """Called by the main thread once it serves no more (after `serve`, or an interrupt): the worker's searches
        from then on are not known (the server stays its worker's until the worker ends, so it is told so: run
        unbounded instead, they could keep an interrupted process from ending)."""
        if self._open:
            self._open = False
            self._requests.put(None)

    def ask(self, pattern: str, search: Callable[[str], Any], text: str) -> bool | None:
        """Called by the worker: the main thread's answer; None where the main thread serves no more."""
        import queue

        if not self._open:
            return None
        reply: Any = queue.SimpleQueue()
        self._requests.put((pattern, search, text, reply))
        while True:
            try:
                answer = reply.get(timeout=0.25)
                break
            except queue.Empty:
                if not self._open:
                    try:
                        answer = reply.get_nowait()
                        break
                    except queue.Empty:
                        return None
        if answer is _STOPPED:
            return None
        if isinstance(answer, Exception):
            raise answer
        return answer


_STOPPED = object()  # the answer of a main thread interrupted while it searched
_serving: list[SearchServer | None] = [None]  # the server of the worker running now, if any


def count_long_search(seconds: float) -> None:
    """Count a search that ended, but after LONG_SEARCH or more, towards SECONDS_IN_ALL: a caller searching a
    pattern in many texts (the witness validator, in every candidate's strings) could otherwise spend just under
    the bound on each of them."""
    if seconds >= LONG_SEARCH:
        _spent[0] += seconds


_UNSEEN = object()


def _compile(pattern: str) -> Any:
    """The pattern compiled by `regex`, or None when `re` cannot read it (or `regex` cannot)."""
    try:
        re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        return None
    import regex

    try:
        return regex.compile(pattern)
    except (regex.error, OverflowError, RecursionError):
        return None


# --- many patterns against many names ----------------------------------------------------------------------

# An object may hold thousands of patterns, and a comparison asks them of every name added beside them (and
# each added pattern of every declared name): a search per pattern and name made 9 million searches for 3,000
# of each (25 s). Patterns are therefore also searched together, as one expression that matches where any of
# them does, in a tree: the expression of all of them, of each group of PATTERNS_PER_GROUP groups below it, and
# so on down to groups of patterns. A name none of them claims (most names) costs one search, and one that a
# few claim a few searches per level, then one per pattern of the groups that match.
PATTERNS_SEARCHED_ALONE = 8  # up to this many, each pattern is searched on its own (the usual objects)
PATTERNS_PER_GROUP = 32
# What a pattern may hold and still be searched inside another expression: no backreference (numbers and names
# of groups change there), no inline flags (which `regex` may apply to the whole expression), no other extension
# `(?...)` but the plain group and the lookarounds, and no brace but a count (`regex` reads `x{i<=1}` as fuzzy
# matching, which an alternation around it changes). A pattern that fails this is searched on its own.
COMBINED_APART = re.compile(r"\\[1-9]|\\g|\(\?(?![:=!]|<[=!])|\{(?!\d*(?:,\d*)?\})")


class PatternSet:
    """Patterns in a given order, searched in one name together; each answers what `search` would."""

    __slots__ = ("patterns", "_alone", "_prefixed", "_lengths", "_tree")

    def __init__(self, patterns: tuple[str, ...]):
        self.patterns = patterns
        # Positions searched on their own (in order); those of patterns that match only names starting with a
        # given text (`^x-`), by that text, and its lengths; and the tree of the others: nodes [positions,
        # expression, children], the expression made when first needed (False: it cannot be, or one of its
        # searches ran out of time, and it is not searched again), the children None in a group of patterns.
        self._alone: list[int] = []
        self._prefixed: dict[str, list[int]] = {}
        self._lengths: list[int] = []
        self._tree: list | None = None
        if len(patterns) <= PATTERNS_SEARCHED_ALONE:
            self._alone = list(range(len(patterns)))
            return
        grouped: list[int] = []
        for position, pattern in enumerate(patterns):
            if COMBINED_APART.search(pattern) is None and _readable(pattern):
                prefix = literal_prefix(pattern)
                # (a pattern answers False for the names it cannot match only where `regex` reads it: the
                # others answer None, alone)
                if prefix and _regex_reads(pattern):
                    self._prefixed.setdefault(prefix, []).append(position)
                elif prefix:
                    self._alone.append(position)
                else:
                    grouped.append(position)
            else:
                self._alone.append(position)
        self._lengths = sorted({len(prefix) for prefix in self._prefixed})
        level = [[grouped[start:start + PATTERNS_PER_GROUP], None, None]
                 for start in range(0, len(grouped), PATTERNS_PER_GROUP)]
        while len(level) > 1:
            level = [[[position for node in nodes for position in node[0]], None, nodes]
                     for nodes in (level[start:start + PATTERNS_PER_GROUP]
                                   for start in range(0, len(level), PATTERNS_PER_GROUP))]
        self._tree = level[0] if level else None

    def claims(self, text: str, first: bool = False, until_unknown: bool = False) -> list[tuple[int, bool | None]]:
        """The position and answer (True, or None: not known) of each pattern whose `search` in `text` is not
        False, in order of position; with `first`, only the first of them, and with `until_unknown`, none after
        the first not known. (Patterns are searched in order, and no further than these say.)"""
        found: list[tuple[int, bool | None]] = []
        candidates = self._candidates(text)
        for position in candidates:
            answer = search(self.patterns[position], text)
            if answer is not False:
                found.append((position, answer))
                if first or (answer is None and until_unknown):
                    return found
            if _spent[0] >= SECONDS_IN_ALL and len(self.patterns) > PATTERNS_SEARCHED_ALONE:
                # The time for searches ran out during this one: every pattern after it answers None now, those
                # the groups had ruled out too.
                for later in range(position + 1, len(self.patterns)):
                    found.append((later, None))
                    if first or until_unknown:
                        break
                return found
        return found

    def _candidates(self, text: str) -> Iterator[int]:
        """In order, the positions whose patterns are to be searched one by one: the others answer False."""
        if len(self.patterns) <= PATTERNS_SEARCHED_ALONE:
            return iter(self._alone)
        if _spent[0] >= SECONDS_IN_ALL:
            return iter(range(len(self.patterns)))  # every search answers None now
        prefixed = self._prefixed
        started = sorted([position for length in self._lengths if length <= len(text)
                          for position in prefixed.get(text[:length], ())]) if prefixed else []
        # A pattern cut short once is not searched again: it answers None, whatever its group says.
        slow = [position for position, pattern in enumerate(self.patterns) if pattern in _slow] if _slow else []
        if slow:
            taken = set(self._alone).union(started)
            slow = [position for position in slow if position not in taken]
        if self._tree is None:
            return heapq.merge(self._alone, started, slow)
        matching = self._matching(self._tree, text)
        if slow:
            apart = set(slow)
            matching = (position for position in matching if position not in apart)
        return heapq.merge(self._alone, started, slow, matching)

    def _matching(self, node: list, text: str) -> Iterator[int]:
        """The positions of the patterns below `node` that its groups do not tell apart from a match."""
        if _matches(node, self.patterns, text) is False:
            return
        if node[2] is None:
            yield from node[0]
            return
        for child in node[2]:
            yield from self._matching(child, text)


def _matches(node: list, patterns: tuple[str, ...], text: str) -> bool | None:
    """Whether any pattern of a node of the tree matches in `text`, searched as the node's one expression (made on
    first use); None when that is not known: the expression cannot be made, or a search of it ran out of time."""
    expression = node[1]
    if expression is None:
        expression = node[1] = _combined([patterns[position] for position in node[0]])
    if expression is False:
        return None
    try:
        return expression.search(text, timeout=SECONDS_PER_SEARCH) is not None
    except (TimeoutError, OverflowError, RecursionError):
        node[1] = False  # (not counted as a pattern cut short: its patterns are searched below it)
        return None


def _combined(patterns: list[str]) -> Any:
    import regex

    try:
        return regex.compile("|".join(f"(?:{pattern})" for pattern in patterns))
    except (regex.error, OverflowError, RecursionError):
        return False


def literal_prefix(pattern: str) -> str:
    """The text every name the pattern matches starts with, as far as `re` parses the pattern (`^` or `\\A`, then
    literal characters); empty when it tells none. A pattern holding `{` tells none: `regex` reads some braces
    that `re` takes literally (`c{e<=1}`, a fuzzy `c`)."""
    if "{" in pattern or not (pattern.startswith("^") or pattern.startswith("\\A")):
        return ""
    try:
        import re._parser as parser  # Python 3.11+
    except ImportError:  # pragma: no cover - Python 3.10
        import sre_parse as parser  # type: ignore[no-redef]
    try:
        parsed = list(parser.parse(pattern))
    except (re.error, OverflowError, RecursionError):  # pragma: no cover - a pattern `re` reads parses
        return ""
    if not parsed or parsed[0] not in ((parser.AT, parser.AT_BEGINNING), (parser.AT, parser.AT_BEGINNING_STRING)):
        return ""
    characters = []
    for operation, argument in parsed[1:]:
        if operation is not parser.LITERAL:
            break
        characters.append(chr(argument))
    return "".join(characters)


_REGEX_READS: dict[str, bool] = {}


def _regex_reads(pattern: str) -> bool:
    """Whether `regex` compiles the pattern (told once, the compiled pattern not kept: see _readable)."""
    known = _REGEX_READS.get(pattern)
    if known is None:
        compiled = _compiled.get(pattern, _UNSEEN)
        if compiled is not _UNSEEN:
            known = compiled is not None
        else:
            import regex

            try:
                regex.compile(pattern, cache_pattern=False)  # (nor kept in `regex`'s own cache)
                known = True
            except (regex.error, OverflowError, RecursionError):
                known = False
        _REGEX_READS[pattern] = known
    return known


def reads_as_re(pattern: str) -> bool:
    """Whether `regex` reads the pattern on its own as `re` does (the witness validator, which must answer as
    `re`, searches only such patterns with `search`): `regex` compiles it, and it holds nothing `regex` reads
    otherwise: what COMBINED_APART names (backreferences, flags, named groups, braces that are no count) and
    classes inside sets (`[[:alpha:]]` and `[a[:digit:]]` are a class to `regex`, characters of a set to `re`).
    The classes `\\d`, `\\s` and `\\w` (with `\\b`) `regex` reads by another Unicode version and other
    properties: a search of one of them answers as `re` only on names `reads_classes_as_re` allows."""
    return COMBINED_APART.search(pattern) is None and "[[" not in pattern and "[:" not in pattern \
        and _regex_reads(pattern)


# The escapes of classes that `regex` reads by other Unicode properties than `re` (their negations too, and word
# boundaries, which follow `\w`). A doubled backslash before one is matched as well: the pattern is then only
# searched more carefully than it needed to be.
UNICODE_CLASSES = re.compile(r"\\[dDsSwWbB]")
# The characters `re` reads as space and `regex` does not (file, group, record and unit separators).
_SEPARATORS = re.compile("[\x1c-\x1f]")


def reads_classes_as_re(text: str) -> bool:
    """Whether `regex` reads `\\d`, `\\s`, `\\w` and `\\b` in `text` as `re` does: on ASCII text, but for the four
    separators `re` counts as space."""
    return text.isascii() and _SEPARATORS.search(text) is None


def _readable(pattern: str) -> bool:
    """Whether `re` reads the pattern, as `search` asks first. Of the patterns it reads, one `regex` cannot read
    stops the expression of its group from being made, which leaves them to be searched one by one, each then
    answering for itself; a pattern looked up by its literal is asked of `regex` on its own (_regex_reads).
    (Each pattern compiled on its own and kept would hold as much memory again as the expression of them all:
    1.6 KB each.)"""
    known = _compiled.get(pattern, _UNSEEN)
    if known is not _UNSEEN:
        return known is not None
    try:
        re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        _compiled[pattern] = None
        return False
    return True


def claims_name(entries: tuple[tuple[str, Any], ...], name: str) -> bool:
    """Whether a pattern of a node's `pattern_properties` matches the name, or may (a match not known counts)."""
    return bool(entries) and bool(pattern_set(entries).claims(name, first=True))


_SETS: dict[int, tuple[tuple, PatternSet]] = {}  # id of a node's pattern entries -> (the entries, their set)
_SETS_KEPT = 64  # (a set of thousands of patterns holds megabytes of compiled expressions)


def pattern_set(entries: tuple[tuple[str, Any], ...]) -> PatternSet:
    """The set of a node's `pattern_properties` (pattern, schema), made once per tuple of entries."""
    known = _SETS.get(id(entries))
    if known is not None and known[0] is entries:
        return known[1]
    if len(_SETS) >= _SETS_KEPT:
        _SETS.clear()
    made = PatternSet(tuple(pattern for pattern, _ in entries))
    _SETS[id(entries)] = (entries, made)  # (the entries kept, so their id stays theirs)
    return made
