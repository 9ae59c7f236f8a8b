"""Patterns of `patternProperties` are searched in names within a bound of time.

Python's `re` backtracks without end on some patterns (`^(a|aa)+$` against many `a`s and a `!`), and has no
timeout: a diff adding one such name never ended. A search cut short is not known, and every caller then answers
as for a pattern it cannot read: conservatively. Where the answer must be `re`'s own, `search_by_re` ends `re`'s
search with an interval timer's signal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from govern import patterns
from govern.cli import cli

PATHOLOGICAL = "^(a|aa)+$"
NAME = "a" * 60 + "!"


@pytest.fixture
def fresh(monkeypatch):
    """A short bound, and no pattern remembered as slow from another test."""
    monkeypatch.setattr(patterns, "SECONDS_PER_SEARCH", 0.05)
    monkeypatch.setattr(patterns, "_slow", set())
    monkeypatch.setattr(patterns, "_spent", [0.0])


@pytest.mark.parametrize("pattern, text, found", [
    ("^x-", "x-trace", True), ("^x-", "trace", False), ("[", "x", None), ("^(a+)+$", NAME, False),
    ("(?P<n>a)(?P=n)", "aa", True),
])
def test_a_search_tells_a_match_no_match_or_not_known(fresh, pattern, text, found):
    assert patterns.search(pattern, text) is found


def test_a_search_that_backtracks_without_end_is_cut_short_once(fresh):
    assert patterns.search(PATHOLOGICAL, NAME) is None
    assert PATHOLOGICAL in patterns._slow and patterns._spent[0] == pytest.approx(0.05)
    assert patterns.search(PATHOLOGICAL, "aa") is None  # not searched again in this process


def test_past_the_time_in_all_no_pattern_is_searched(fresh, monkeypatch):
    monkeypatch.setattr(patterns, "_spent", [patterns.SECONDS_IN_ALL])
    assert patterns.search("^x-", "x-trace") is None


SLOW_FOR_RE = "(?i)(a|aa)+$"  # (inline flags: a pattern whose answers must be `re`'s own)
# A text `re` takes about two seconds to search with it, and twice as long per `a` more: long beside the tests'
# bound of a twentieth of a second, short enough that a search left unbounded fails its test rather than hanging it.
LONG_FOR_RE = "a" * 34 + "!"


def _no_alarm_left() -> bool:
    import signal

    return signal.getsignal(signal.SIGALRM) == signal.SIG_DFL and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_search_by_re_answers_as_re_and_is_cut_short_once(fresh):
    # `re` itself, bounded: its answers are its own (`(?i)` as `re` reads it), and a search that backtracks without
    # end is ended by the timer, counted as `search` counts one, and not searched again.
    import re
    import time

    for pattern, text in [("(?i)^X+$", "xX"), ("(a)\\1", "aa"), ("(a)\\1", "ab"), ("[[a]+$", "[a"), ("\\w", "\u0300")]:
        expected = re.search(pattern, text) is not None
        assert patterns.search_by_re(pattern, re.compile(pattern).search, text) is expected
    started = time.monotonic()
    assert patterns.search_by_re(SLOW_FOR_RE, re.compile(SLOW_FOR_RE).search, LONG_FOR_RE) is None
    assert time.monotonic() - started < 0.5  # (`re` alone: about two seconds)
    assert SLOW_FOR_RE in patterns._slow and patterns._spent[0] == pytest.approx(0.05)
    assert patterns.search_by_re(SLOW_FOR_RE, re.compile(SLOW_FOR_RE).search, "aa") is None
    assert _no_alarm_left()


def test_a_search_by_re_leaves_a_process_s_own_alarm_alone(fresh):
    # A program that handles SIGALRM itself, or has a timer running, keeps both: the search runs as `re` runs it.
    import re
    import signal
    import threading

    calls = []
    previous = signal.signal(signal.SIGALRM, lambda *_: calls.append(1))
    try:
        assert patterns.search_by_re("(a|b)+c", re.compile("(a|b)+c").search, "abc") is True
        assert signal.getsignal(signal.SIGALRM) is not signal.SIG_DFL and not calls
    finally:
        signal.signal(signal.SIGALRM, previous)
    try:
        signal.setitimer(signal.ITIMER_REAL, 60)  # a timer of the program's own, running (cancelled below)
        assert patterns.search_by_re("(a|b)+c", re.compile("(a|b)+c").search, "abd") is False
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 60
        assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    answers = []  # and outside the main thread, where no signal handler can be set
    thread = threading.Thread(target=lambda: answers.append(
        patterns.search_by_re("(a|b)+c", re.compile("(a|b)+c").search, "abd")))
    thread.start()
    thread.join()
    assert answers == [False] and _no_alarm_left()




def test_a_worker_s_search_by_re_is_run_by_the_main_thread_within_the_bound(fresh):
    # The deep-stack worker cannot end a search (only the main thread runs signal handlers): the main thread, which
    # waits for it, runs the search under its timer. An error of the search is raised in the worker, as if it ran
    # there, and the main thread goes on serving.
    import re
    import time

    from govern.classify.classify import with_deep_stack

    def work():
        started = time.monotonic()
        cut = patterns.search_by_re(SLOW_FOR_RE, re.compile(SLOW_FOR_RE).search, LONG_FOR_RE)
        answers = [cut, time.monotonic() - started, patterns.search_by_re("(?i)^(a|b)+$", re.compile(
            "(?i)^(a|b)+$").search, "AbA")]
        try:
            patterns.search_by_re("x", lambda text: 1 / 0, "x")
        except ZeroDivisionError:
            answers.append("raised in the worker")
        return answers

    cut, seconds, found, raised = with_deep_stack(work)
    assert cut is None and seconds < 0.5 and found is True and raised == "raised in the worker"
    assert patterns._serving == [None] and _no_alarm_left()


def test_an_interrupted_main_thread_leaves_the_worker_s_searches_not_known(fresh):
    # Ctrl-C while the main thread runs a worker's search: it is raised in the main thread at once, and the worker's
    # searches are not known from then on (run unbounded instead, it could keep the process from ending).
    import os
    import re
    import signal
    import subprocess
    import sys
    import threading
    import time

    from govern.classify.classify import with_deep_stack

    answers = []
    done = threading.Event()

    def work():
        answers.append(patterns.search_by_re(SLOW_FOR_RE, re.compile(SLOW_FOR_RE).search, "a" * 40 + "!"))
        answers.append(patterns.search_by_re(SLOW_FOR_RE + "?", re.compile(SLOW_FOR_RE).search, "a" * 40 + "!"))
        done.set()

    patterns.SECONDS_PER_SEARCH = 5.0
    # (Ctrl-C as Python handles it, also where this process was started with SIGINT ignored, as a background job is)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    # (a SIGINT from another process, as a terminal sends it: no thread of this one runs while `re` searches)
    sender = subprocess.Popen([sys.executable, "-c", f"import os, signal, time; time.sleep(0.3); "
                                                     f"os.kill({os.getpid()}, signal.SIGINT)"])
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            with_deep_stack(work)
    finally:
        sender.wait()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 4.0  # (the timer alone would end the search at 5 s)
    assert done.wait(2.0) and answers == [None, None]
    assert patterns._serving == [None] and _no_alarm_left()


def test_a_server_left_behind_by_an_interrupt_neither_serves_nor_blocks_the_next_worker(fresh):
    # An interrupt between registering a server and serving it leaves one no worker uses: the next worker gets a
    # server of its own.
    import re
    import threading

    from govern.classify.classify import with_deep_stack

    patterns.SearchServer.start(threading.Thread(target=lambda: None))  # (never started, never served)
    search = re.compile(SLOW_FOR_RE).search
    answer = with_deep_stack(lambda: patterns.search_by_re(SLOW_FOR_RE, search, LONG_FOR_RE))
    assert answer is None and SLOW_FOR_RE in patterns._slow
    patterns._serving[0] = None


def test_the_handler_an_interrupt_left_in_place_still_lets_searches_be_bounded(fresh):
    import re
    import signal

    signal.signal(signal.SIGALRM, patterns._cut_short)
    try:
        assert patterns.search_by_re(SLOW_FOR_RE, re.compile(SLOW_FOR_RE).search, LONG_FOR_RE) is None
    finally:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def test_a_diff_adding_a_name_a_pattern_backtracks_on_ends_as_a_version_bump(fresh, tmp_path: Path):
    def document(added: bool) -> dict:
        properties: dict = {"x": {"type": "string"}}
        if added:
            properties[NAME] = {"type": "string"}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "properties": properties, "patternProperties": {PATHOLOGICAL: {"type": "string"}}}

    for name, added in (("old", False), ("new", True)):
        (tmp_path / f"{name}.json").write_text(json.dumps(document(added)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["diff", "--format", "json", str(tmp_path / "old.json"),
                                      str(tmp_path / "new.json")])
    assert result.exit_code == 0, result.output
    [root] = json.loads(result.output)["roots"]
    # Whether the old pattern took the name is not known: what old data held under it may be anything.
    assert root["decision"] == "version-bump"
    [change] = root["changes"]
    assert (change["kind"], change["breaks"]) == ("optional-property-added",
                                                  ["old-data-new-readers", "new-data-old-readers"])


# --- a large oneOf told apart by a required property's values ---------------------------------------------------

def _one_of(count: int) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "oneOf": [
        {"type": "object", "required": ["k"], "properties": {"k": {"const": index}}} for index in range(count)]}


def test_added_alternatives_of_a_large_one_of_are_told_apart_in_linear_time(tmp_path: Path, monkeypatch):
    # Each added alternative asks whether an instance may also match another alternative (`may_overlap`): it
    # looked through every other alternative each time, so doubling a oneOf of 3,000 took 7.8 s. The values each
    # alternative requires are now counted once per union.
    from govern.classify import changes

    asked = [0]
    original = changes.json_types

    def counted(side, node):
        asked[0] += 1
        return original(side, node)

    monkeypatch.setattr(changes, "json_types", counted)
    for name, count in (("old", 400), ("new", 800)):
        (tmp_path / f"{name}.json").write_text(json.dumps(_one_of(count)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["diff", "--format", "json", str(tmp_path / "old.json"),
                                      str(tmp_path / "new.json")])
    [root] = json.loads(result.output)["roots"]
    assert [change["kind"] for change in root["changes"]] == ["alternative-added"] * 400
    assert asked[0] < 20 * 800  # (one alternative against every other, for each: 320,000)


def test_an_alternative_sharing_a_value_still_overlaps(tmp_path: Path):
    # The count says nothing where another alternative shares a value, or has none there: the alternatives are
    # then looked through as before.
    old = _one_of(3)
    new = _one_of(3)
    new["oneOf"].append({"type": "object", "required": ["k"], "properties": {"k": {"enum": [2, 7]}}})
    for name, document in (("old", old), ("new", new)):
        (tmp_path / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")
    result = CliRunner().invoke(cli, ["diff", "--format", "json", str(tmp_path / "old.json"),
                                      str(tmp_path / "new.json")])
    [root] = json.loads(result.output)["roots"]
    # In a oneOf, an instance with k = 2 now matches two alternatives: rejected, where it was accepted.
    assert root["decision"] == "version-bump"
    assert any("old-data-new-readers" in change["breaks"] for change in root["changes"])


# --- many patterns against many names ----------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

# Patterns of every sort the sets tell apart: anchored literals, classes, alternations, lookarounds, ones searched
# apart from the others (backreferences, flags, named groups), unreadable ones, and one that backtracks.
_POOL = ["^x-", "^x-a", "^ab", "^abc", "^[a]b", r"\Ax", "^x-(a|b)", "^a*b", "^ab|c", "^a{2}", "^ab{e<=1}", "b$", "a",
         "^x[[:foo:]]", "^x{i<=1}", "x{i<=1}", "a{1,2}b",
         "^a|b$", "[0-9]+", "^[a-z]+$", "(a|b)c", "(?=a)a", "(?<!x)y", "(?:ab)+", r"(a)\1", "(?i)^X", "(?P<n>a)(?P=n)",
         "[", "a{2}", r"\d", "^$", "", "x(?!-)", "(", ")", "a)|(b"]
_NAMES = ["x-trace", "x-a", "x-b", "X-A", "ab", "ba", "aa", "abc", "abd", "b", "c", "y", "xy", "", "123", "a-b", "bc",
          "zz", "a\nb", "Kx"]


@pytest.fixture
def small_groups(monkeypatch):
    """Groups of two under groups of two: a handful of patterns makes a tree of several levels."""
    monkeypatch.setattr(patterns, "PATTERNS_SEARCHED_ALONE", 1)
    monkeypatch.setattr(patterns, "PATTERNS_PER_GROUP", 2)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chosen=st.lists(st.sampled_from(_POOL), min_size=0, max_size=20, unique=True),
       name=st.sampled_from(_NAMES), first=st.booleans(), until_unknown=st.booleans())
def test_a_set_of_patterns_answers_as_each_pattern_searched_alone(small_groups, chosen, name, first, until_unknown):
    expected = []
    for position, pattern in enumerate(chosen):
        answer = patterns.search(pattern, name)
        if answer is not False:
            expected.append((position, answer))
            if first or (answer is None and until_unknown):
                break
    assert patterns.PatternSet(tuple(chosen)).claims(name, first, until_unknown) == expected


def test_names_no_pattern_claims_cost_one_search_each(monkeypatch):
    # 700 patterns against 700 names none of them matches: 490,000 searches one by one (a diff of 3,000 of each
    # took 25 s); together, one each.
    searched = []
    original = patterns.search
    monkeypatch.setattr(patterns, "search", lambda pattern, text: searched.append(pattern) or original(pattern, text))
    found = patterns.PatternSet(tuple(f"^x{index}_" for index in range(700)))
    assert [found.claims(f"p{index}") for index in range(700)] == [[]] * 700
    assert searched == []
    # A name one pattern claims is searched by the patterns of its group alone.
    assert found.claims("x350_a") == [(350, True)]
    assert len(searched) <= patterns.PATTERNS_PER_GROUP


def test_a_combined_search_out_of_time_leaves_each_pattern_to_answer(fresh, monkeypatch):
    chosen = tuple(f"x{index}_" for index in range(20)) + (PATHOLOGICAL,)
    found = patterns.PatternSet(chosen)
    # The expression holding the pattern that backtracks runs out of time: its patterns are then searched one by
    # one, and that one alone is not known (and only its own search counts as cut short).
    assert found.claims(NAME) == [(20, None)]
    assert PATHOLOGICAL in patterns._slow and patterns._spent[0] == pytest.approx(0.05)
    # The others are still searched together: the pattern cut short answers None without a search.
    searched = []
    original = patterns.search
    monkeypatch.setattr(patterns, "search", lambda pattern, text: searched.append(pattern) or original(pattern, text))
    assert found.claims("x3_") == [(3, True), (20, None)]
    assert len(searched) <= 2 * patterns.PATTERNS_PER_GROUP


def test_the_time_for_searches_running_out_during_one_leaves_every_later_pattern_not_known(fresh, monkeypatch):
    monkeypatch.setattr(patterns, "SECONDS_IN_ALL", 0.05)  # one search cut short spends it
    chosen = (PATHOLOGICAL,) + tuple(f"^x{index}_" for index in range(9))
    assert patterns.PatternSet(chosen).claims(NAME) == [(position, None) for position in range(10)]


@pytest.mark.parametrize("added_names", [True, False])
def test_thousands_of_patterns_beside_thousands_of_names_are_searched_together(tmp_path: Path, monkeypatch,
                                                                               added_names):
    # Names added beside 600 patterns, or 600 patterns added beside names: each pattern was searched in each name.
    searched = []
    original = patterns.search
    monkeypatch.setattr(patterns, "search", lambda pattern, text: searched.append(pattern) or original(pattern, text))
    count = 600
    with_patterns = {f"^x{index}_": {"type": "integer"} for index in range(count)}
    names = {f"p{index}": {"type": "string"} for index in range(count)}
    claimed = {"x7_a": {"type": "string"}}  # one name a pattern claims
    old = {"type": "object", "patternProperties": with_patterns} if added_names else \
        {"type": "object", "properties": {**names, **claimed}}
    new = {"type": "object", "patternProperties": with_patterns, "properties": {**names, **claimed}}
    for name, document in (("old", old), ("new", new)):
        (tmp_path / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")
    result = CliRunner().invoke(cli, ["diff", "--format", "json", str(tmp_path / "old.json"),
                                      str(tmp_path / "new.json")])
    [root] = json.loads(result.output)["roots"]
    assert len(root["changes"]) == (count + 1 if added_names else count)
    by_path = {change["path"]: change for change in root["changes"]}
    if added_names:
        # The pattern takes the claimed name: its values were integers; a name no pattern claims was open.
        assert by_path["/properties/x7_a"]["breaks"] == ["old-data-new-readers", "new-data-old-readers"]
        assert by_path["/properties/p3"]["args"]["admitted"] == "true"
    else:
        assert by_path["/patternProperties/^x7_"]["breaks"] == ["old-data-new-readers", "new-data-old-readers"]
        assert by_path["/patternProperties/^x3_"]["breaks"] == ["old-data-new-readers"]
    assert len(searched) < 10 * count  # (one by one: 600 patterns in 601 names, 360,600 searches)
