"""The sidecar JSON Schema as this package ships it.

The schema's source of truth is `schemas/coauthoring-sidecar.schema.json` in this repository. An
installed `govern` (for instance as a merge driver in another repository) has no such file, so
`govern sidecar codegen` embeds a copy in `schema_snapshot.py`, and `--check` fails when it is stale.
"""

from __future__ import annotations

import functools
import json
from typing import Any


@functools.lru_cache(maxsize=1)
def sidecar_schema() -> dict[str, Any]:
    from govern.sidecar.schema_snapshot import SCHEMA_TEXT

    return json.loads(SCHEMA_TEXT)


@functools.lru_cache(maxsize=1)
def validator() -> Any:
    # jsonschema is imported here so that commands which never validate do not pay for it.
    from jsonschema import Draft202012Validator

    schema = sidecar_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
