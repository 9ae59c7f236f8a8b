"""Verdicts replayed per skeleton (govern.witness.local): always the validator's own verdict, and for the
documents of one search a cost that does not grow with how deep the change lies."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, TypeChecker

from conftest import schema_graphs  # noqa: E402 - the folder's helpers
from govern.classify.classify import classify
from govern.witness.local import LocalVerdicts, TooCostly, place_of
from govern.witness.search import find_witnesses

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _chain(depth: int, status: list[str]) -> dict:
    """A root whose named types form a chain `depth` long (each refers to the next under `next`), the last
    an intersection whose second operand holds an enum `status` and whose first operand still allows only
    the values s0 to s149 there: a value added to the enum shows on no document."""
    defs = {f"T{index}": {"type": "object", "required": ["id"],
                          "properties": {"id": {"type": "string"}, "next": {"$ref": f"#/$defs/T{index + 1}"}}}
            for index in range(depth)}
    kept = {"enum": [f"s{index}" for index in range(150)]}
    defs[f"T{depth}"] = {"allOf": [{"type": "object", "properties": {"id": {"type": "string"}, "status": kept}},
                                   {"type": "object", "required": ["status"],
                                    "properties": {"status": {"enum": status}, "note": {"type": "string"}}}]}
    return {"$schema": DRAFT, "title": "Doc", "$ref": "#/$defs/T0", "$defs": defs}


def _type_checks_per_candidate(tmp_path, depth: int, monkeypatch) -> tuple[float, list]:
    """Type checks the validators make per candidate checked, searching for a witness of an enum value added at
    the end of the chain where none exists: the search checks every candidate it draws."""
    import govern.witness.confirm as confirm

    checks = [0]
    candidates = [0]
    original_is_type, original_accepts = TypeChecker.is_type, confirm.Validator.accepts

    def counting_is_type(self, instance, type):
        checks[0] += 1
        return original_is_type(self, instance, type)

    def counting_accepts(self, document, place=None):
        candidates[0] += 1
        return original_accepts(self, document, place)

    monkeypatch.setattr(TypeChecker, "is_type", counting_is_type)
    monkeypatch.setattr(confirm.Validator, "accepts", counting_accepts)
    values = [f"s{index}" for index in range(150)]
    old, new = schema_graphs(tmp_path, _chain(depth, values), _chain(depth, values + ["added"]))
    report = find_witnesses(classify([old], [new]), [old], [new])
    outcomes = sorted((entry.change.kind, entry.status, entry.witness and json.dumps(entry.witness.document))
                      for entry in report.by_change.values())
    return checks[0] / candidates[0], outcomes


def test_a_search_costs_per_candidate_what_the_value_at_its_location_costs_however_deep(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shallow, shallow_outcomes = _type_checks_per_candidate(tmp_path / "a", 2, monkeypatch)
    deep, deep_outcomes = _type_checks_per_candidate(tmp_path / "b", 20, monkeypatch)
    assert deep_outcomes == shallow_outcomes == [("enum-value-added", "exhausted", None)]
    # Validating every candidate whole costs a type check per object of the chain: 20 and more each.
    assert deep < 10 and deep < shallow + 4, (shallow, deep)


# --- the replay gives the validator's verdict ------------------------------------------------------------

LEAVES = [
    {"type": "string"}, {"type": "integer", "minimum": 2}, {"enum": ["a", 1, None]}, {"const": {"k": 1}},
    {"type": "array", "uniqueItems": True}, {"not": {"type": "string"}}, True, False,
    {"type": "object", "required": ["k"]}, {"type": "object", "properties": {"k": {"type": "string"}}},
    {"type": "string", "pattern": "^a", "maxLength": 1}, {"type": "number", "multipleOf": 2, "maximum": 2},
    {"type": "array", "items": {"type": "integer"}, "maxItems": 1}, {"enum": [1.0, "k", [None]]},
]
SCALARS = st.none() | st.booleans() | st.integers(-2, 3) | st.sampled_from([0.5, 1.0, 2.0, "", "a", "k", "ab"])


def _nested(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["k", "v"]), inner, max_size=2)


VALUES = st.recursive(SCALARS, _nested, max_leaves=5)


def _schemas() -> st.SearchStrategy:
    """Schemas of a value at /a/0/b (and its container at /a/0), with keywords safe and not safe to replay
    above that place: intersections, unions, references, enum, const, uniqueItems, not, if, contains."""
    leaf = st.sampled_from(LEAVES)

    def level(name: str, inner: st.SearchStrategy) -> st.SearchStrategy:
        plain = inner.map(lambda schema: {"type": "object", "properties": {name: schema}})
        return st.one_of(
            plain, plain, plain,
            st.tuples(plain, st.sampled_from(LEAVES)).map(lambda pair: {"allOf": list(pair)}),
            st.tuples(plain, st.sampled_from(LEAVES)).map(lambda pair: {"anyOf": list(pair)}),
            st.tuples(plain, plain).map(lambda pair: {"oneOf": list(pair)}),
            plain.map(lambda schema: {"not": {"not": schema}}),
            plain.map(lambda schema: {"if": schema, "then": {"required": [name]}, "else": False}),
            plain.map(lambda schema: {**schema, "enum": [{name: 1}, {name: "a"}]}),
            plain.map(lambda schema: {"$id": f"urn:level-{name}", "$ref": "#/$defs/shared",
                                      "$defs": {"shared": schema}}),
        )

    def items(inner: st.SearchStrategy) -> st.SearchStrategy:
        return st.one_of(inner.map(lambda schema: {"type": "array", "items": schema}),
                         inner.map(lambda schema: {"type": "array", "items": schema, "minItems": 2}),
                         inner.map(lambda schema: {"type": "array", "prefixItems": [schema]}),
                         inner.map(lambda schema: {"type": "array", "items": schema, "uniqueItems": True}),
                         inner.map(lambda schema: {"type": "array", "contains": schema}))

    return level("a", items(level("b", leaf))).map(lambda schema: {"$schema": DRAFT, **schema})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=_schemas(), values=st.lists(VALUES, min_size=4, max_size=12), sibling=VALUES)
def test_replayed_verdicts_are_the_validators_own(schema, values, sibling):
    verdicts = LocalVerdicts(schema)
    plain = Draft202012Validator(schema)
    for value in values:
        document = {"a": [{"b": value, "c": sibling}, {"b": value}], "s": sibling}
        for steps in ([("key", "a"), ("index", 0)], [("key", "a"), ("index", 0), ("key", "b")]):
            place = place_of(document, steps)
            assert place is not None and place.document == document
            assert _outcome(verdicts.accepts, document, place) == _outcome(plain.is_valid, document)
        # And the errors, twice: the second time, each subschema is applied by the validator made for it the first
        # time, and the values found valid under it then are not checked again.
        for _ in range(2):
            assert _outcome(_errors_and_best, verdicts._validator, document) == \
                _outcome(_errors_and_best, plain, document)


def _outcome(check, *arguments):
    """The verdict, or the error the validator stopped with (a reference it cannot follow, say)."""
    try:
        return check(*arguments)
    except Exception as error:  # noqa: BLE001 - both ways must fail alike
        return type(error).__name__, str(error)


@pytest.mark.parametrize("document, steps, at", [
    ({"a": {"b": "x"}}, [("key", "a"), ("key", "b")], ["a", "b"]),  # a string stands in a subclass of its own
    ({"a": {"b": 2}}, [("key", "a"), ("key", "b")], ["a", "b"]),
    ({"a": {"b": 0.5}}, [("key", "a"), ("key", "b")], ["a", "b"]),
    ({"a": {"b": True}}, [("key", "a"), ("key", "b")], ["a"]),  # a boolean has none: its container varies
    ({"a": {"b": None}}, [("key", "a"), ("key", "b"), ("key", "c")], ["a"]),
    ({"a": {"b": [1]}}, [("key", "a"), ("key", "b")], ["a", "b"]),
    ({"a": {"key": {}}}, [("key", "a"), ("entry", ("key", "extra"))], ["a", "key"]),
    ({"a": [{"x": 1}]}, [("key", "a"), ("index", 0), ("key", "y")], ["a", 0]),
    ({"a": {}}, [("key", "z")], None),  # nothing below the document itself
])
def test_the_place_is_the_deepest_container_string_or_number_along_the_steps(document, steps, at):
    place = place_of(document, steps)
    if at is None:
        assert place is None
        return
    expected = document
    for step in at:
        expected = expected[step]
    assert place.value == expected and isinstance(place.value, type(expected)) and place.value is not expected
    assert place.document == document
    inside = place.document
    for step in at:
        inside = inside[step]
    assert inside is place.value  # met there, and only there: everything down to it is a copy
    assert not any(id(container) in place.above for container in _containers(document))


def _containers(value):
    if isinstance(value, (dict, list)):
        yield value
        for child in value.values() if isinstance(value, dict) else value:
            yield from _containers(child)


def test_a_container_met_twice_still_varies_at_one_place():
    shared = {"k": 1}
    document = {"a": shared, "b": shared}
    place = place_of(document, [("key", "a")])
    assert place.document == document and place.document["a"] is place.value is not place.document["b"]


def test_a_keyword_that_reads_the_value_whole_above_it_validates_every_document_whole():
    schema = {"$schema": DRAFT, "type": "object", "properties": {"a": {"type": "object"}},
              "not": {"properties": {"a": {"required": ["x"]}}}}
    verdicts = LocalVerdicts(schema)
    for value, expected in (({}, True), ({"x": 1}, False), ({"y": 1}, True)):
        document = {"a": value}
        place = place_of(document, [("key", "a")])
        assert verdicts.accepts(document, place) is expected
        assert verdicts._trees[place.skeleton] is None


# --- objects of many properties and patterns ----------------------------------------------------------------------

_PATTERNS = ["^x-", "^x-a", "^ab", "^[a]b", r"\Ax", "^a*b", "^ab|c", "^a{2}", "b$", "a", "[0-9]+", "^[a-z]+$", "(a|b)c",
             "(?=a)a", r"(a)\1", "(?i)^X", "^$", "", "x(?!-)", "(", "^x[[:foo:]]"]
_KEYS = ["x-trace", "x-a", "X-A", "ab", "ba", "aa", "abc", "b", "c", "y", "xy", "", "123", "a\nb", "p1", "p2"]


def _errors(validator, document) -> list:
    return sorted((error.message, list(error.absolute_path), list(error.schema_path))
                  for error in validator.iter_errors(document))


@settings(max_examples=200, deadline=None)
@given(patterns=st.lists(st.sampled_from(_PATTERNS), min_size=0, max_size=19, unique=True),
       declared=st.lists(st.sampled_from(_KEYS + [f"q{index}" for index in range(40)]), unique=True, max_size=50),
       keys=st.lists(st.sampled_from(_KEYS), unique=True, max_size=6), order=st.randoms(use_true_random=False))
def test_properties_and_patterns_are_applied_as_the_validator_applies_them(patterns, declared, keys, order):
    # Each pattern's schema and each declared property's schema is one that a value `0` fails, named apart.
    schema = {"$schema": DRAFT, "type": "object",
              "patternProperties": {pattern: {"type": "string", "title": f"pattern {pattern}"} for pattern in patterns},
              "properties": {name: {"type": "boolean", "title": f"property {name}"} for name in declared}}
    shuffled = list(keys)
    order.shuffle(shuffled)
    document = {key: 0 for key in shuffled}
    def outcome(validator) -> list:
        found = []
        try:
            for error in validator.iter_errors(document):
                found.append((error.message, list(error.absolute_path), list(error.schema_path)))
        except Exception as failure:  # noqa: BLE001 - a pattern `re` cannot read: raised where it is met
            found.append(type(failure))
        return found

    assert outcome(LocalVerdicts(schema)._validator) == outcome(Draft202012Validator(schema))


def test_a_first_error_before_a_pattern_re_cannot_read_is_found_as_the_validator_finds_it():
    # (asked for the first error only, the validator stops before the pattern it cannot read)
    schema = {"$schema": DRAFT, "patternProperties": {"^a": False, "(": True}}
    for validator in (LocalVerdicts(schema)._validator, Draft202012Validator(schema)):
        assert next(validator.iter_errors({"a": 1})).message == "False schema does not allow 1"


def test_a_pattern_re_cannot_read_fails_the_validation_as_it_does_for_the_validator():
    import re

    schema = {"$schema": DRAFT, "type": "object",
              "patternProperties": {**{f"^x{index}_": {"type": "string"} for index in range(20)}, "[": {}}}
    for validator in (LocalVerdicts(schema)._validator, Draft202012Validator(schema)):
        with pytest.raises(re.error):
            list(validator.iter_errors({"k": 1}))


def test_witnesses_beside_many_patterns_search_each_pattern_in_few_keys(tmp_path, monkeypatch):
    # Names added beside 600 patterns, and 600 patterns beside names: each witness checked searched every pattern
    # in every key of the document, through `re`'s cache of 512 (each search compiled its pattern again).
    import re

    import jsonschema._keywords

    searched = [0]

    class Counting:
        def __getattr__(self, name):
            return getattr(re, name)

        @staticmethod
        def search(pattern, text, flags=0):
            searched[0] += 1
            return re.search(pattern, text, flags)

    monkeypatch.setattr(jsonschema._keywords, "re", Counting())
    count = 600
    patterns = {f"^x{index}_": {"type": "integer"} for index in range(count)}
    names = {f"p{index}": {"type": "string"} for index in range(count)}

    def document(added: bool) -> dict:
        return {"$schema": DRAFT, "type": "object", "properties": {
            "patterned": {"type": "object", "patternProperties": patterns, **({"properties": names} if added else {})},
            "named": {"type": "object", "properties": names, **({"patternProperties": patterns} if added else {})}}}

    old, new = schema_graphs(tmp_path, document(False), document(True))
    report = find_witnesses(classify([old], [new]), [old], [new])
    assert len(report.by_change) == count  # (each added pattern breaks; each added name is admitted)
    assert searched[0] == 0  # (the validator's own: 600 patterns in each key of every document it checked)


# --- each subschema's validator made once -------------------------------------------------------------

def _errors_and_best(validator, document) -> tuple:
    from jsonschema.exceptions import best_match

    best = best_match(validator.iter_errors(document))
    return _errors(validator, document), best and (best.message, list(best.absolute_path))


def test_a_subschema_descended_into_again_is_applied_by_the_validator_made_for_it_before():
    # An `anyOf` of 50 alternatives: each check descended into every alternative by making a new validator.
    schema = {"$schema": DRAFT, "anyOf": [{"type": "string", "pattern": f"^a{index}$"} for index in range(50)],
              "$defs": {"other": {"$id": "urn:other", "type": "integer"}}}
    validator = LocalVerdicts(schema)._validator
    alternative = schema["anyOf"][7]
    assert validator.evolve(schema=alternative) is validator.evolve(schema=alternative)
    assert validator.evolve(schema=alternative).evolve(schema=alternative) is validator.evolve(schema=alternative)
    assert validator.evolve(schema=schema["anyOf"][8]) is not validator.evolve(schema=alternative)
    # Other settings than the subschema and its resolver make a validator of their own, as before.
    assert validator.evolve(schema=alternative, format_checker=None) is not validator.evolve(schema=alternative)
    # A subschema with an identifier of its own is read with a resolver of its own.
    from referencing.jsonschema import DRAFT202012

    other = schema["$defs"]["other"]
    moved = validator._resolver.in_subresource(DRAFT202012.create_resource(other))
    assert moved is not validator._resolver
    assert validator.evolve(schema=other, _resolver=moved) is not validator.evolve(schema=other)
    # Such a resolver is made at each step: what it reads is not kept (it would only hold memory).
    assert validator.evolve(schema=other, _resolver=moved) is not validator.evolve(schema=other, _resolver=moved)
    assert [error.message for error in validator.iter_errors("a7")] == []
    assert [error.message for error in validator.iter_errors("b")] == ["'b' is not valid under any of the given schemas"]


def test_a_value_found_valid_under_a_subschema_is_not_checked_there_again_and_the_steps_count_as_before(monkeypatch):
    # Documents of one shape hold mostly the same values: each was checked again in every document.
    import govern.witness.local as local

    schema = {"$schema": DRAFT, "type": "object", "properties": {
        "name": {"$ref": "#/$defs/name"}, "n": {"type": "integer"}, "flag": {"type": "boolean"}},
        "$defs": {"name": {"allOf": [{"type": "string", "minLength": length} for length in range(40)]}}}
    documents = [{"name": "x" * 50, "n": index, "flag": index % 2 == 0} for index in range(30)] + \
        [{"name": "short", "n": 1.5, "flag": 1}, {"name": "x" * 50, "n": True, "flag": None}]

    def run(kept: int) -> tuple[list, int, int]:
        monkeypatch.setattr(local, "_VALID_KEPT", kept)
        checks = [0]
        is_type = TypeChecker.is_type

        def counting(self, instance, type):
            checks[0] += 1
            return is_type(self, instance, type)

        monkeypatch.setattr(TypeChecker, "is_type", counting)
        verdicts = LocalVerdicts(schema)
        verdicts.allow(1_000_000)
        outcomes = [(verdicts.accepts(document), _errors(verdicts._validator, document)) for document in documents]
        monkeypatch.setattr(TypeChecker, "is_type", is_type)
        return outcomes, verdicts.steps_taken(), checks[0]

    remembered, remembered_steps, remembered_checks = run(100_000)
    plain, plain_steps, plain_checks = run(0)
    assert remembered == plain == [(Draft202012Validator(schema).is_valid(document), _errors(
        Draft202012Validator(schema), document)) for document in documents]
    assert remembered_steps == plain_steps  # every limit is met where it would be
    # The name's 40 subschemas are checked in the first document only (and where the name differs).
    assert remembered_checks * 5 < plain_checks, (remembered_checks, plain_checks)


def test_a_value_found_valid_before_still_counts_its_steps_towards_the_limit(monkeypatch):
    schema = {"$schema": DRAFT, "properties": {"a": {"allOf": [{"type": "string"}] * 30}}}
    verdicts = LocalVerdicts(schema)
    assert verdicts.accepts({"a": "x"})
    verdicts.allow(10)  # the first check took more than 10 steps: the same check again cannot be made
    with pytest.raises(TooCostly):
        verdicts.accepts({"a": "x"})


def test_values_checked_by_a_validator_made_at_each_step_are_not_kept():
    # A subschema with an identifier of its own is read with a resolver made at each step: what its values were
    # found valid under could never be asked again, and kept, it filled the table (36 MB for 6,000 documents).
    schema = {"$schema": DRAFT, "type": "object", "properties": {
        "inner": {"$id": "urn:inner", "type": "object",
                  "properties": {f"p{index}": {"type": "string"} for index in range(20)}},
        "n": {"type": "integer"}}}
    verdicts = LocalVerdicts(schema)
    sizes = []
    for _ in range(60):
        assert verdicts.accepts({"inner": {f"p{index}": "x" for index in range(20)}, "n": 1})
        sizes.append(len(verdicts._valid))
    assert sizes == [1] * 60  # `n` under its validator, whose resolver is the root's


def test_a_pattern_that_backtracks_without_end_is_cut_short_rather_than_hanging_the_search(monkeypatch):
    # CloudFormation's AzureBlobContainerUrl pattern: `re` takes minutes on this text, and cannot be interrupted.
    from govern import patterns
    from govern.witness.local import PatternTooSlow

    monkeypatch.setattr(patterns, "_slow", set())
    monkeypatch.setattr(patterns, "_spent", [0.0])
    monkeypatch.setattr(patterns, "SECONDS_PER_SEARCH", 0.05)
    url = r"^https://[A-Za-z0-9]((.|-+)?[A-Za-z0-9]){0,252}/[a-z0-9](-?[a-z0-9]){2,62}$"
    schema = {"$schema": DRAFT, "type": "object", "properties": {"url": {"type": "string", "pattern": url}}}
    verdicts = LocalVerdicts(schema)
    assert verdicts.accepts({"url": "https://a.example/abc"})
    assert not verdicts.accepts({"url": "https://a.example/"})
    with pytest.raises(PatternTooSlow):
        verdicts.accepts({"url": "https://a" + "-a" * 22 + "!"})  # (`re`: a second; longer, minutes)
    # A pattern without a quantified group cannot backtrack without end: `re` searches it, several times cheaper.
    import re

    from govern.witness.local import _bounded_search

    assert isinstance(_bounded_search("^a1$").__self__, re.Pattern)
    assert not isinstance(getattr(_bounded_search(url), "__self__", None), re.Pattern)
    # Patterns `regex` reads otherwise than `re` are still searched as the validator searches them.
    for pattern in [r"(a)\1", "(?i)^X", "^x{1,a}", "[[:alpha:]]"]:
        other = {"$schema": DRAFT, "pattern": pattern}
        for text in ["aa", "x", "X", "x{1,a}", "a", ":]", "[:]"]:
            assert LocalVerdicts(other).accepts(text) == Draft202012Validator(other).is_valid(text), (pattern, text)


@pytest.mark.parametrize("slow,name", [
    (r"[A-Za-z0-9]((.|-+)?[A-Za-z0-9]){0,252}/[a-z]$", "ab/c"),
    # with inline flags, a pattern `regex` may read otherwise: searched by `re` itself, within the bound as well
    (r"(?i)[a-z0-9]((.|-+)?[a-z0-9]){0,252}/[a-z]$", "AB/c"),
])
def test_patterns_searched_together_leave_out_those_that_may_backtrack_without_end(monkeypatch, slow, name):
    # Beside more than eight patterns, the names a pattern without a literal start may match are found by one
    # expression of them all first: that search is `re`'s, and cannot be cut short, so a pattern that may
    # backtrack without end is searched on its own, within the bound of time, and never inside it.
    from govern import patterns
    from govern.witness.local import PatternTooSlow

    monkeypatch.setattr(patterns, "_slow", set())
    monkeypatch.setattr(patterns, "_spent", [0.0])
    monkeypatch.setattr(patterns, "SECONDS_PER_SEARCH", 0.05)
    others = {f"[0-9]{{{index}}}x$": {"type": "integer"} for index in range(1, 10)}
    schema = {"$schema": DRAFT, "type": "object", "patternProperties": {**others, slow: {"type": "string"}}}
    verdicts = LocalVerdicts(schema)
    assert verdicts.accepts({"123x": 1, name: "x"})
    assert not verdicts.accepts({name: 1})
    assert not verdicts.accepts({"12x": "x"})
    started = time.monotonic()
    try:
        # (no pattern matches the name: `re` takes seconds to tell, one longer minutes; `regex` answers at once)
        assert verdicts.accepts({"a" + "-a" * 24 + "!": "x"})
    except PatternTooSlow:
        pass  # (or its bound of time is met: either way the search goes on)
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize("pattern,name", [
    ("(x)?[a[:digit:]]", "5"),  # a class inside a set to `regex`, characters of the set to `re`
    ("(x)?\\w", "\u0300"),  # a mark: a word character to `regex`, not to `re`
    ("(x)?\\b", "\u0300"),
    ("(x)?\\s", "\x1c"),  # a separator: space to `re`, not to `regex`
    ("(x)?\\d", "\U00010d40"),  # a digit of a Unicode version `re` does not know yet
    ("(x)?\\W", "\u0300"),
])
def test_a_pattern_searched_within_time_answers_as_re_on_every_name(pattern, name):
    # The bounded search is `regex`'s: a name on which it reads a class otherwise than `re` is searched by `re`,
    # and a pattern that `regex` reads otherwise on any name never by `regex`.
    others = {f"[0-9]{{{index}}}q$": False for index in range(1, 10)}
    for properties in ({pattern: False}, {**others, pattern: False}):
        schema = {"$schema": DRAFT, "type": "object", "patternProperties": properties}
        for document in ({name: 1}, {"x" + name: 1}, {"a": 1}, {"": 1}):
            assert LocalVerdicts(schema).accepts(document) == Draft202012Validator(schema).is_valid(document), (
                pattern, document)


def test_a_group_counted_up_to_a_bound_is_searched_within_time():
    # `{,60}` counts as `{0,60}` does: a group quantified so may backtrack without end as well.
    import re

    from govern.witness.local import _bounded_search

    for pattern in ["(a|aa){,60}!", "(a|aa){0,60}!", "(a|aa)*!"]:
        assert not isinstance(getattr(_bounded_search(pattern), "__self__", None), re.Pattern), pattern


def test_a_pattern_of_many_unbounded_repeats_is_searched_within_time(monkeypatch):
    # Seven `.*` in a row backtrack as the seventh power of the text: `re` took 12 s on 60 characters.
    import re

    from govern import patterns
    from govern.witness.local import PatternTooSlow, _bounded_search

    monkeypatch.setattr(patterns, "_slow", set())
    monkeypatch.setattr(patterns, "_spent", [0.0])
    monkeypatch.setattr(patterns, "SECONDS_PER_SEARCH", 0.05)
    slow = ".*.*.*.*.*.*.*="
    assert isinstance(_bounded_search("^[a-z]+[0-9]*$").__self__, re.Pattern)  # (two: as the square at most)
    assert not isinstance(getattr(_bounded_search(slow), "__self__", None), re.Pattern)
    schema = {"$schema": DRAFT, "type": "object", "properties": {"s": {"type": "string", "pattern": slow}}}
    verdicts = LocalVerdicts(schema)
    assert verdicts.accepts({"s": "a=b"}) and not verdicts.accepts({"s": "ab"})
    started = time.monotonic()
    try:
        assert not verdicts.accepts({"s": "x" * 60})
    except PatternTooSlow:
        pass
    assert time.monotonic() - started < 1.0


def test_searches_that_end_just_under_the_bound_count_towards_the_bound_in_all(monkeypatch):
    # `(.*-){6}!` takes a quarter of a second on 250 dashes and ends: in each of many strings it never met the
    # bound of one search, and a witness search checks hundreds of documents.
    from govern import patterns
    from govern.witness.local import PatternTooSlow

    monkeypatch.setattr(patterns, "_slow", set())
    monkeypatch.setattr(patterns, "_spent", [0.0])
    monkeypatch.setattr(patterns, "SECONDS_IN_ALL", 0.5)
    monkeypatch.setattr(patterns, "LONG_SEARCH", 0.01)
    schema = {"$schema": DRAFT, "type": "object", "properties": {"s": {"type": "string", "pattern": "(.*-){6}!"}}}
    verdicts = LocalVerdicts(schema)
    started, cut_short = time.monotonic(), False
    for index in range(60):  # (searched one by one without the count: 60 × 0.27 s here)
        try:
            assert not verdicts.accepts({"s": "-" * 250 + chr(65 + index)})
        except PatternTooSlow:
            cut_short = True
            break
    assert cut_short
    assert time.monotonic() - started < 3.0


@pytest.mark.parametrize("pattern,text", [
    ("(?i)(a|aa)+$", "a" * 36 + "!"),  # inline flags: `regex` may read them otherwise
    ("(a|aa)+(b)\\2!", "a" * 36 + "?"),  # a backreference
    ("([[a]|aa)+$", "a" * 36 + "!"),  # a set holding `[`: a nested set to `regex`
    ("(\\w|\\w\\w)+$", "é" * 36 + "!"),  # `\w` on a string that is not ASCII: `regex` reads it otherwise
])
def test_a_pattern_left_to_re_that_may_backtrack_without_end_is_cut_short_too(monkeypatch, pattern, text):
    # Each of these takes `re` seconds on this text, twice as long per character more: they are searched by `re`
    # itself (`regex` would answer otherwise on some strings), within the same bound of time.
    from govern import patterns
    from govern.witness.local import PatternTooSlow

    monkeypatch.setattr(patterns, "_slow", set())
    monkeypatch.setattr(patterns, "_spent", [0.0])
    monkeypatch.setattr(patterns, "SECONDS_PER_SEARCH", 0.05)
    schema = {"$schema": DRAFT, "type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
    verdicts = LocalVerdicts(schema)
    for short in ["aa", "AAA", "ab", "aabb", "[a", "éé!", "éé", ""]:  # answered as the validator answers
        assert verdicts.accepts({"s": short}) == Draft202012Validator(schema).is_valid({"s": short}), short
    started = time.monotonic()
    with pytest.raises(PatternTooSlow):
        verdicts.accepts({"s": text})
    with pytest.raises(PatternTooSlow):  # (once cut short, not searched again)
        verdicts.accepts({"s": text + "?"})
    assert time.monotonic() - started < 1.0
    import signal

    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
