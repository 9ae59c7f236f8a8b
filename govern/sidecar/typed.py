"""Typed access through the generated pydantic models, for callers that want attributes, not dicts.

pydantic is imported only when these functions run. A dump gives back exactly the fields that were
loaded (unknown ones included, absent optional ones still absent), so typed code can rewrite a sidecar
without breaking the preservation rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from govern.sidecar.models import Artifact


def load_model(data: dict[str, Any]) -> "Artifact":
    from govern.sidecar.models import Artifact

    return Artifact.model_validate(data)


def dump_model(model: "Artifact") -> dict[str, Any]:
    # exclude_unset keeps optional fields that were absent absent, instead of writing null.
    return model.model_dump(mode="json", exclude_unset=True, by_alias=True)
