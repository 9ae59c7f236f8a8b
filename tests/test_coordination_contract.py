"""The GRP coordination contract: example folders, limits at their boundaries, document structure.

Examples live in `schemas/examples/coordination/<Component>/{valid,invalid}/*.json`. Every invalid example
breaks one rule, named by its file; EXPECTED_FAILURES says which JSON Schema keyword must report it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from govern import contracts

REPO = Path(__file__).resolve().parent.parent
DOCUMENT_PATH = REPO / "schemas" / "grp-coordination.openapi.json"
EXAMPLES = REPO / "schemas" / "examples" / "coordination"
DOCUMENT = json.loads(DOCUMENT_PATH.read_text(encoding="utf-8"))
SCHEMAS = DOCUMENT["components"]["schemas"]
HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
COMPONENT_PREFIX = "#/components/schemas/"

EXPECTED_FAILURES = {
    "ActionClaimRequest/claim-epoch-leading-zero": "pattern",
    "ActionClaimRequest/claim-epoch-zero": "pattern",
    "ActionClaimRequest/ttl-29-below-minimum": "minimum",
    "ActionClaimRequest/ttl-901-above-maximum": "maximum",
    "ActionClaimRequest/ttl-fractional": "type",
    "ActionCompleteRequest/counter-65-digits": "pattern",
    "ActionCompleteRequest/counter-leading-zero": "pattern",
    "ActionCompleteRequest/counter-negative": "pattern",
    "ActionCompleteRequest/exact-reference-extra-key": "additionalProperties",
    "ActionCompleteRequest/exact-reference-missing-sha256": "required",
    "ActionCompleteRequest/exact-reference-sha256-uppercase": "pattern",
    "ActionCompleteRequest/missing-result": "required",
    "ActionCompleteRequest/result-number": "type",
    "ActionCreateRequest/all-with-artifact": "not",
    "ActionCreateRequest/all-with-holder": "not",
    "ActionCreateRequest/all-without-required-participants": "required",
    "ActionCreateRequest/empty-title": "minLength",
    "ActionCreateRequest/missing-title": "required",
    "ActionCreateRequest/participation-unknown": "enum",
    "ActionCreateRequest/predecessor-empty": "minLength",
    "ActionCreateRequest/required-participants-duplicate": "uniqueItems",
    "ActionMutationResult/action-claim-ttl-901": "maximum",
    "ActionMutationResult/action-result-reference-extra-key": "additionalProperties",
    "ActionMutationResult/action-status-unknown": "enum",
    "ActionMutationResult/amendment-original-result-extra-key": "additionalProperties",
    "ActionMutationResult/amendment-without-original-result": "required",
    "ActionMutationResult/decision-answer-unknown": "enum",
    "ActionMutationResult/decision-expected-answers-duplicate": "uniqueItems",
    "ActionMutationResult/decision-status-unknown": "enum",
    "ActionMutationResult/head-without-round": "required",
    "ActionMutationResult/missing-state-revision": "required",
    "ActionMutationResult/state-revision-leading-zero": "pattern",
    "ActionReadResponse/history-diff-null-base": "type",
    "ActionReadResponse/history-fallback-reason-unknown": "enum",
    "ActionReadResponse/neither-shape": "required",
    "ActionResumeRequest/expected-action-revision-leading-zero": "pattern",
    "ActionResumeRequest/missing-expected-action-revision": "required",
    "ActionReviewHistory/base-pin-sha256-uppercase": "pattern",
    "ActionReviewHistory/can-approve-string": "type",
    "ActionReviewHistory/checkpoint-byte-growth-fractional": "type",
    "ActionReviewHistory/checkpoint-elapsed-negative": "minimum",
    "ActionReviewHistory/correction-dispositive": "const",
    "ActionReviewHistory/diff-block-number-zero": "minimum",
    "ActionReviewHistory/diff-missing-deleted": "required",
    "ActionReviewHistory/fallback-reason-unknown": "enum",
    "ActionReviewHistory/late-note-dispositive": "const",
    "ActionReviewHistory/late-note-without-round": "required",
    "ActionReviewHistory/missing-rounds": "required",
    "ActionReviewHistory/mode-unknown": "const",
    "ActionReviewHistory/opening-action-revision-leading-zero": "pattern",
    "ActionReviewHistory/roster-disposition-unknown": "enum",
    "ActionReviewHistory/round-number-zero": "minimum",
    "ActionReviewHistory/your-obligation-unknown": "enum",
    "ActionReviewRequest/kind-unknown": "const",
    "ActionReviewRequest/respond-disposition-unknown": "enum",
    "ActionReviewRequest/respond-missing-round-id": "required",
    "ActionReviewRequest/respond-review-revision-65-digits": "pattern",
    "ActionReviewRequest/submit-missing-expected-action-revision": "required",
    "ActionReviewRequest/submit-target-extra-key": "additionalProperties",
    "ActionUpdateRequest/expected-action-revision-integer": "type",
    "ActionUpdateRequest/fence-only-no-change": "minProperties",
    "ActionUpdateRequest/missing-expected-action-revision": "required",
    "ActionUpdateRequest/status-completed-not-allowed": "const",
    "ActionView/decision-without-proposed-result": "required",
    "ActionView/missing-action": "required",
    "ActionView/revision-number-not-string": "type",
    "ArtifactClaimRequest/ttl-29-below-minimum": "minimum",
    "ArtifactClaimRequest/ttl-901-above-maximum": "maximum",
    "ArtifactClaimRequest/ttl-string": "type",
    "ArtifactCreateRequest/baton-mode-unknown": "enum",
    "ArtifactCreateRequest/content-and-external": "oneOf",
    "ArtifactCreateRequest/content-type-html": "enum",
    "ArtifactCreateRequest/content-without-content-type": "dependentRequired",
    "ArtifactCreateRequest/external-verification-verified": "const",
    "ArtifactCreateRequest/no-content-source": "oneOf",
    "ArtifactMutationResult/artifact-revision-65-digits": "pattern",
    "ArtifactMutationResult/baton-mode-unknown": "enum",
    "ArtifactMutationResult/change-method-unknown": "const",
    "ArtifactMutationResult/head-sha256-uppercase": "pattern",
    "ArtifactMutationResult/missing-artifact": "required",
    "ArtifactMutationResult/sync-counts-negative": "minimum",
    "ArtifactPatchRequest/delete-block-content-hash-uppercase": "pattern",
    "ArtifactPatchRequest/fifty-one-operations": "maxItems",
    "ArtifactPatchRequest/missing-base-revision-id": "required",
    "ArtifactPatchRequest/no-operations": "minItems",
    "ArtifactPatchRequest/operation-unknown": "const",
    "ArtifactPatchRequest/replace-block-missing-content-hash": "required",
    "ArtifactPatchRequest/replace-text-expected-count-zero": "minimum",
    "ArtifactPatchRequest/replace-text-missing-expected-count": "required",
    "ArtifactRevision/content-type-html": "enum",
    "ArtifactRevision/external-commit-39-hex": "pattern",
    "ArtifactRevision/missing-sha256": "required",
    "ArtifactRevision/ordinal-zero": "minimum",
    "ArtifactRevision/recorded-patch-empty": "minItems",
    "ArtifactRevisionList/byte-length-over-limit": "maximum",
    "ArtifactRevisionList/missing-revisions": "required",
    "ArtifactRevisionList/snapshot-kind-unknown": "enum",
    "ArtifactRevisionRequest/content-and-sync-content": "oneOf",
    "ArtifactRevisionRequest/content-type-html": "enum",
    "ArtifactRevisionRequest/external-commit-39-hex": "pattern",
    "ArtifactRevisionRequest/external-commit-uppercase": "pattern",
    "ArtifactRevisionRequest/external-missing-sha256": "required",
    "ArtifactRevisionRequest/external-path-absolute": "pattern",
    "ArtifactRevisionRequest/external-path-dotdot": "pattern",
    "ArtifactRevisionRequest/external-path-leading-dotdot": "pattern",
    "ArtifactRevisionRequest/external-provider-not-git": "const",
    "ArtifactRevisionRequest/external-sha256-uppercase": "pattern",
    "ArtifactRevisionRequest/external-url-credentials": "pattern",
    "ArtifactRevisionRequest/external-url-fragment": "pattern",
    "ArtifactRevisionRequest/external-url-http": "pattern",
    "ArtifactRevisionRequest/external-url-query": "pattern",
    "ArtifactRevisionRequest/external-url-token-user": "pattern",
    "ArtifactRevisionRequest/external-verification-verified": "const",
    "ArtifactRevisionRequest/missing-base-revision-id": "required",
    "ArtifactRevisionRequest/no-publication-method": "oneOf",
    "ArtifactSyncRequest/claim-epoch-leading-zero": "pattern",
    "ArtifactSyncRequest/missing-sync-content": "required",
    "ArtifactSyncRequest/sync-content-not-string": "type",
    "ArtifactUpdateRequest/baton-mode-unknown": "enum",
    "ArtifactUpdateRequest/expected-artifact-revision-leading-zero": "pattern",
    "ArtifactUpdateRequest/fence-only-no-change": "minProperties",
    "ArtifactView/edit-claim-epoch-65-digits": "pattern",
    "ArtifactView/head-ordinal-zero": "minimum",
    "ArtifactView/missing-state-revision": "required",
    "ArtifactView/storage-unknown": "enum",
    "DecisionRequest/answer-unknown": "enum",
    "DecisionRequest/decision-id-empty": "minLength",
    "DecisionRequest/missing-decision-id": "required",
    "DecisionRequest/missing-expected-action-revision": "required",
    "ErrorEnvelope/code-empty": "minLength",
    "ErrorEnvelope/coordination-rule-not-string": "type",
    "ErrorEnvelope/coordination-rule-unknown": "enum",
    "ErrorEnvelope/message-not-string": "type",
    "ErrorEnvelope/missing-code": "required",
    "ErrorEnvelope/missing-error": "required",
}


def _examples(kind: str) -> list[Path]:
    return sorted(EXAMPLES.glob(f"*/{kind}/*.json"))


def _example_id(path: Path) -> str:
    return f"{path.parts[-3]}/{path.stem}"


def _load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def _keywords(errors) -> set[str]:
    """Keywords of the errors and of every sub-error, so a failure inside oneOf/anyOf is still named."""
    found: set[str] = set()
    pending = list(errors)
    while pending:
        error = pending.pop()
        found.add(error.validator)
        pending.extend(error.context)
    return found


def _errors(component: str, instance) -> list:
    return contracts.iter_errors(component, instance, document=DOCUMENT_PATH)


def _operations():
    for path, item in DOCUMENT["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield path, method, item[method]


def _resolve(node: dict) -> dict:
    ref = node.get("$ref")
    if ref is None:
        return node
    target = DOCUMENT
    for token in ref.removeprefix("#/").split("/"):
        target = target[token.replace("~1", "/").replace("~0", "~")]
    return _resolve(target)


def _bodies():
    """(where, schema) of every request and response body in the document."""
    for path, method, operation in _operations():
        where = f"{method.upper()} {path}"
        if "requestBody" in operation:
            for media, content in _resolve(operation["requestBody"])["content"].items():
                yield f"{where} request {media}", content["schema"]
        for status, response in operation["responses"].items():
            for media, content in _resolve(response).get("content", {}).items():
                yield f"{where} {status} {media}", content["schema"]


def _body_components() -> set[str]:
    return {schema["$ref"].removeprefix(COMPONENT_PREFIX) for _, schema in _bodies() if "$ref" in schema}


# ---- example folders -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", _examples("valid"), ids=_example_id)
def test_valid_example_conforms(path: Path) -> None:
    problems = contracts.validate_instance(path.parts[-3], _load(path), document=DOCUMENT_PATH)
    assert problems == []


@pytest.mark.parametrize("path", _examples("invalid"), ids=_example_id)
def test_invalid_example_fails_for_its_rule(path: Path) -> None:
    key = _example_id(path)
    assert key in EXPECTED_FAILURES, f"{key}: add the keyword this example must fail on to EXPECTED_FAILURES"
    errors = _errors(path.parts[-3], _load(path))
    assert errors, f"{key} was accepted"
    assert EXPECTED_FAILURES[key] in _keywords(errors), contracts.validate_instance(path.parts[-3], _load(path))


def test_failure_table_has_no_stale_entries() -> None:
    present = {_example_id(p) for p in _examples("invalid")}
    assert sorted(set(EXPECTED_FAILURES) - present) == []


def test_example_folders_name_components() -> None:
    folders = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir())
    assert folders and [name for name in folders if name not in SCHEMAS] == []
    for folder in EXAMPLES.iterdir():
        assert sorted(p.name for p in folder.iterdir()) in (["invalid", "valid"],), folder


def test_example_files_are_pretty_json() -> None:
    for path in _examples("valid") + _examples("invalid"):
        text = path.read_text(encoding="utf-8")
        assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n", path


# ---- bodies are named components, each with examples -------------------------------------------


def test_every_body_is_a_direct_component_ref() -> None:
    bodies = list(_bodies())
    assert bodies
    for where, schema in bodies:
        assert set(schema) == {"$ref"}, f"{where}: body schema must be only a $ref"
        assert schema["$ref"].startswith(COMPONENT_PREFIX), where
        assert schema["$ref"].removeprefix(COMPONENT_PREFIX) in SCHEMAS, where


@pytest.mark.parametrize("component", sorted(_body_components()))
def test_every_body_component_has_both_kinds_of_examples(component: str) -> None:
    for kind in ("valid", "invalid"):
        assert list((EXAMPLES / component / kind).glob("*.json")), f"{component} has no {kind} example"


def test_review_history_is_a_read_shape() -> None:
    alternatives = {alt["$ref"] for alt in SCHEMAS["ActionReadResponse"]["oneOf"]}
    assert COMPONENT_PREFIX + "ActionReviewHistory" in alternatives
    reviews = [p for p in DOCUMENT["components"]["parameters"].values() if p["name"] == "reviews"]
    assert reviews and reviews[0]["in"] == "query"


# ---- limits at their boundaries, built in code ------------------------------------------------------

ASTRAL = "\U0001F680"  # one code point, four UTF-8 bytes, two UTF-16 units


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("a" * 4096, True),
        ("a" * 4097, False),
        (ASTRAL * 4096, True),
        (ASTRAL * 4097, False),
        ("line\n" * 819 + "x", True),  # 4,096 code points across many lines
        ("é" * 4096, True),
    ],
    ids=["ascii-4096", "ascii-4097", "astral-4096", "astral-4097", "multiline-4096", "latin1-4096"],
)
def test_result_text_counts_code_points(text: str, ok: bool) -> None:
    for component, instance in [
        ("ActionResultText", text),
        ("ActionResult", text),
        ("ActionCompleteRequest", {"expected_action_revision": "1", "result": text}),
    ]:
        errors = _errors(component, instance)
        assert (errors == []) is ok, component
        if not ok:
            assert "maxLength" in _keywords(errors)


BYTE_LIMIT = 262144


@pytest.mark.parametrize(
    ("content", "ok"),
    [
        ("a" * BYTE_LIMIT, True),
        ("é" * (BYTE_LIMIT // 2), True),
        (ASTRAL * (BYTE_LIMIT // 4), True),
        ("é" * (BYTE_LIMIT // 2) + "a", False),
        (ASTRAL * (BYTE_LIMIT // 4) + "a", False),
        ("中" * (BYTE_LIMIT // 3 + 1), False),
    ],
    ids=["ascii-at-limit", "two-byte-at-limit", "four-byte-at-limit", "two-byte-over", "four-byte-over", "three-byte-over"],
)
def test_native_content_counts_utf8_bytes(content: str, ok: bool) -> None:
    assert len(content) <= BYTE_LIMIT  # below maxLength: only the byte rule can reject these
    base = {"base_revision_id": "rev-1"}
    op = {"op": "insert_block", "after_block_id": None, "content": content}
    for component, instance in [
        ("NativeContent", content),
        ("ArtifactCreateRequest", {"content_type": "text/plain", "content": content}),
        ("ArtifactRevisionRequest", {**base, "content_type": "text/markdown", "content": content}),
        ("ArtifactSyncRequest", {**base, "sync_content": content}),
        ("ArtifactPatchRequest", {**base, "operations": [op]}),
    ]:
        errors = _errors(component, instance)
        assert (errors == []) is ok, component
        if not ok:
            assert contracts.MAX_UTF8_BYTES in _keywords(errors), component
            assert "maxLength" not in _keywords(errors), component


def test_ascii_content_over_the_limit_fails_both_ways() -> None:
    assert {"maxLength", contracts.MAX_UTF8_BYTES} <= _keywords(_errors("NativeContent", "a" * (BYTE_LIMIT + 1)))


@pytest.mark.parametrize(
    ("value", "ok"),
    [("1", True), ("9" * 64, True), ("1" + "0" * 63, True), ("0", False), ("01", False),
     ("1" * 65, False), ("", False), ("+1", False), ("1.0", False), ("١", False), (1, False)],
)
def test_counter(value, ok: bool) -> None:
    assert (_errors("Counter", value) == []) is ok


@pytest.mark.parametrize(("ttl", "ok"), [(29, False), (30, True), (300, True), (900, True), (901, False), (60.5, False)])
def test_claim_ttl(ttl, ok: bool) -> None:
    assert (_errors("ClaimTtlSeconds", ttl) == []) is ok
    assert (_errors("ArtifactClaimRequest", {"ttl_seconds": ttl}) == []) is ok


def test_claim_ttl_default() -> None:
    assert SCHEMAS["ClaimTtlSeconds"]["default"] == 300


@pytest.mark.parametrize(("count", "ok"), [(0, False), (1, True), (50, True), (51, False)])
def test_patch_operation_count(count: int, ok: bool) -> None:
    operation = {"op": "replace_text", "match": "a", "replacement": "b", "expected_count": 1}
    instance = {"base_revision_id": "rev-1", "operations": [operation] * count}
    assert (_errors("ArtifactPatchRequest", instance) == []) is ok
    assert (_errors("ArtifactRevisionRequest", instance) == []) is ok


def test_exact_reference_is_closed_and_others_stay_open() -> None:
    closed = sorted(name for name, schema in SCHEMAS.items() if schema.get("additionalProperties") is False)
    assert closed == ["ExactArtifactReference"]
    reference = {"artifact_id": "a", "revision_id": "r", "sha256": "0" * 64}
    assert _errors("ExactArtifactReference", reference) == []
    assert "additionalProperties" in _keywords(_errors("ExactArtifactReference", {**reference, "note": ""}))


# ---- document structure -----------------------------------------------------------------------------


def test_document_header() -> None:
    assert DOCUMENT["openapi"] == "3.1.0"
    assert DOCUMENT["info"]["version"] == "0.2.1"
    assert DOCUMENT["jsonSchemaDialect"] == "https://json-schema.org/draft/2020-12/schema"
    assert contracts.MAX_UTF8_BYTES in DOCUMENT["x-govern-extensions"]
    scheme = DOCUMENT["components"]["securitySchemes"]["bearerAuth"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert DOCUMENT["security"] == [{"bearerAuth": []}]


def test_document_is_pretty_json() -> None:
    text = DOCUMENT_PATH.read_text(encoding="utf-8")
    assert text == json.dumps(DOCUMENT, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_component_is_a_valid_schema(name: str) -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(SCHEMAS[name])


def test_every_internal_ref_resolves() -> None:
    refs: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(DOCUMENT)
    assert refs
    for ref in refs:
        assert ref.startswith("#/"), ref
        _resolve({"$ref": ref})


def test_operations_are_well_formed() -> None:
    operation_ids = [operation["operationId"] for _, _, operation in _operations()]
    assert len(operation_ids) == len(set(operation_ids))
    for path, method, operation in _operations():
        parameters = [_resolve(p) for p in DOCUMENT["paths"][path].get("parameters", []) + operation.get("parameters", [])]
        in_path = {p["name"] for p in parameters if p["in"] == "path"}
        assert in_path == set(part[1:-1] for part in path.split("/") if part.startswith("{")), path
        assert all(p["required"] for p in parameters if p["in"] == "path"), path
        assert path.startswith("/api/rooms/{slug}/"), path
        if method == "post":
            headers = {p["name"] for p in parameters if p["in"] == "header"}
            assert headers == {"X-GRP-Expected-Room-Revision", "X-GRP-Expected-Foreground-Epoch"}, path
            statuses = set(operation["responses"])
            assert {"400", "404"} <= statuses, path
            success = [s for s in statuses if s.startswith("2")]
            assert len(success) == 1, path
            body = operation["responses"][success[0]]["content"]["application/json"]["schema"]["$ref"]
            assert body.removeprefix(COMPONENT_PREFIX) in {"ActionMutationResult", "ArtifactMutationResult"}, path


def test_failure_statuses_use_the_error_envelope() -> None:
    seen = set()
    for _, _, operation in _operations():
        for status, response in operation["responses"].items():
            if status[0] in "45" or status == "default":
                seen.add(status)
                schema = _resolve(response)["content"]["application/json"]["schema"]
                assert schema == {"$ref": COMPONENT_PREFIX + "ErrorEnvelope"}
    assert {"400", "404", "409", "412"} <= seen


def test_document_against_openapi_meta_schema_when_available() -> None:
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(DOCUMENT)


# ---- the validator module itself ----------------------------------------------------------------------


def test_validator_without_root_handles_the_byte_keyword() -> None:
    validator = contracts.validator_for({"type": "string", "x-maxUtf8Bytes": 3})
    assert validator.is_valid("é")
    assert not validator.is_valid("éé")
    assert contracts.validator_for({"x-maxUtf8Bytes": 1}).is_valid(12345)


def test_validator_for_rejects_a_schema_outside_the_root() -> None:
    with pytest.raises(ValueError):
        contracts.validator_for({"type": "string"}, root_schema=DOCUMENT)


def test_unknown_component_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        contracts.validate_instance("NoSuchComponent", {}, document=DOCUMENT_PATH)


def test_problems_name_the_failing_location() -> None:
    problems = contracts.validate_instance(
        "ActionCompleteRequest",
        {"expected_action_revision": "1", "result": {"artifact_id": "a", "revision_id": "r", "sha256": "0" * 64, "x": 1}},
        document=DOCUMENT_PATH,
    )
    assert any(p.startswith("/result: ") and p.endswith("[additionalProperties]") for p in problems)


# ---- group completion, resume, amendments, reviewed heads and late notes -------------------------------

ROOM_REVISION = "X-GRP-Expected-Room-Revision"


def _operation(operation_id: str) -> tuple[str, dict]:
    for path, _, operation in _operations():
        if operation["operationId"] == operation_id:
            return path, operation
    raise AssertionError(f"no operation {operation_id}")


def _header(path: str, operation: dict, name: str) -> dict:
    parameters = [_resolve(p) for p in DOCUMENT["paths"][path].get("parameters", []) + operation.get("parameters", [])]
    (header,) = [p for p in parameters if p["in"] == "header" and p["name"] == name]
    return header


@pytest.mark.parametrize(("operation_id", "suffix", "body"), [
    ("answerDecision", "/actions/{action_id}/decision", "DecisionRequest"),
    ("resumeAction", "/actions/{action_id}/resume", "ActionResumeRequest"),
])
def test_group_completion_and_resume_require_the_room_revision(operation_id: str, suffix: str, body: str) -> None:
    path, operation = _operation(operation_id)
    assert path == "/api/rooms/{slug}" + suffix
    assert _header(path, operation, ROOM_REVISION)["required"] is True
    assert operation["requestBody"]["required"] is True
    assert operation["requestBody"]["content"]["application/json"]["schema"] == {"$ref": COMPONENT_PREFIX + body}
    assert {"400", "409", "412"} <= set(operation["responses"])


def test_the_room_revision_stays_optional_where_the_contract_does_not_require_it() -> None:
    optional = [operation["operationId"] for path, method, operation in _operations() if method == "post"
                and not _header(path, operation, ROOM_REVISION)["required"]]
    assert "completeAction" in optional and "createAction" in optional
    assert "answerDecision" not in optional and "resumeAction" not in optional
    # /complete serves holder and group completion alike; the group case is refused without the header.
    assert "room_revision_required" in SCHEMAS["CoordinationRule"]["description"]
    assert ROOM_REVISION in SCHEMAS["ActionCompleteRequest"]["description"]


def test_every_coordination_rule_has_an_error_example() -> None:
    shown = {_load(path)["error"]["details"]["coordination_rule"]
             for path in sorted((EXAMPLES / "ErrorEnvelope" / "valid").glob("*.json"))
             if "coordination_rule" in _load(path)["error"].get("details", {})}
    assert shown == set(SCHEMAS["CoordinationRule"]["enum"])


def test_an_amendment_on_complete_is_a_400_validation_error() -> None:
    _, operation = _operation("completeAction")
    assert _resolve(operation["responses"]["400"])["content"]["application/json"]["schema"] == {
        "$ref": COMPONENT_PREFIX + "ErrorEnvelope"}
    rejected = _load(EXAMPLES / "ErrorEnvelope" / "valid" / "amendment-complete-rejected.json")
    assert rejected["error"]["details"]["coordination_rule"] == "amendment_requires_exact_review"
    assert _errors("ErrorEnvelope", rejected) == []


def _action(**fields):
    base = {"action_id": "act-9", "title": "Amend", "status": "in_review", "participation": "single",
            "completion": "group", "revision": "3"}
    return {"action": {**base, **fields}, "state_revision": "9"}


REFERENCE = {"artifact_id": "art-plan", "revision_id": "rev-1", "sha256": "0" * 64}


def test_an_amendment_carries_its_lineage_and_the_authoritative_original() -> None:
    amendment = {"predecessor_action_id": "act-7", "artifact_id": "art-plan", "original_result": REFERENCE}
    assert _errors("ActionMutationResult", _action(amendment=amendment)) == []
    for missing in amendment:
        broken = {key: value for key, value in amendment.items() if key != missing}
        assert "required" in _keywords(_errors("ActionMutationResult", _action(amendment=broken))), missing


def test_a_reviewed_head_needs_the_round_that_approved_it() -> None:
    head = {"target": REFERENCE, "action_id": "act-7", "round_id": "round-2", "approved_at": "2026-11-30T11:00:00Z"}
    assert _errors("ActionMutationResult", _action(authoritative_head=head)) == []
    # A successor edge alone names no round: it is not a newly approved head.
    edge_only = {"target": REFERENCE, "action_id": "act-9", "approved_at": "2026-11-30T11:00:00Z"}
    assert "required" in _keywords(_errors("ActionMutationResult", _action(predecessor_action_id="act-7",
                                                                           authoritative_head=edge_only)))
    # An ordinary completion report is a different field and makes no head.
    assert _errors("ActionMutationResult", _action(status="completed", result=REFERENCE, authoritative_head=None)) == []
    assert {"result", "authoritative_head"} <= set(SCHEMAS["Action"]["properties"])


def test_a_pending_decision_is_readable_with_its_fixed_result_and_answers() -> None:
    decision = {"decision_id": "dec-3", "status": "pending", "proposed_result": "Done.", "expected_answers": ["ana", "bo"],
                "answers": [{"participant_id": "ana", "answer": "agree", "answered_at": "2026-11-30T10:01:00Z"}]}
    assert _errors("ActionView", _action(status="pending_decision", decision=decision)) == []
    assert "proposed_result" in SCHEMAS["Decision"]["required"]
    for answer in ("agree", "return"):
        request = {"decision_id": "dec-3", "answer": answer, "expected_action_revision": "3"}
        assert _errors("DecisionRequest", request) == []
    assert "enum" in _keywords(_errors("DecisionRequest", {"decision_id": "d", "answer": "approve",
                                                           "expected_action_revision": "3"}))


def test_late_notes_are_listed_apart_from_the_rounds() -> None:
    note = {"note_id": "n-1", "round_id": "round-2", "author": "bo", "created_at": "2026-11-30T13:00:00Z", "text": "Late."}
    assert _errors("ActionReviewHistory", {"action_id": "act-7", "rounds": [], "late_notes": [note]}) == []
    assert _errors("ActionReadResponse", {"action_id": "act-7", "rounds": [], "late_notes": [note]}) == []
    assert "const" in _keywords(_errors("ActionReviewHistory", {"action_id": "act-7", "rounds": [],
                                                                "late_notes": [{**note, "dispositive": True}]}))
