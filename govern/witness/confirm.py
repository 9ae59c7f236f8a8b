"""Verdicts of a real validator: a root of one side, as the exact JSON Schema 2020-12 govern read it.

Each side is validated through its snapshot export (`govern.records.snapshot.export_node`), which reads
back to the very nodes govern classified and validates exactly as the source does: references resolve to
the named types govern resolved them to, whatever the source's dialect, `$id`s or file layout were;
keywords govern kept verbatim are checked by the validator as written. A root absent from a side is the
schema `false`: no document of it is read there. `format` stays an annotation, as 2020-12 specifies, so a
witness never rests on format assertion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from govern.model.graph import TypeGraph
from govern.witness.local import Place

DIALECT = "https://json-schema.org/draft/2020-12/schema"


@dataclass(frozen=True)
class Rejection:
    reason: str  # the validator's message
    at: str  # JSON pointer of the rejected value inside the document


def root_schema(graph: TypeGraph | None, type_key: str | None, on_demand: bool = False) -> Any:
    """The self-contained 2020-12 schema of one root: its named types under $defs, the root by reference.
    `on_demand`: for a validator, which reads $defs by key only, each type exported when first looked up
    (see ExportedTypes); otherwise a plain JSON document."""
    if graph is None or type_key is None:
        return False
    from govern.sources.refs import escape_token

    types = ExportedTypes(graph, type_key)
    return {"$schema": DIALECT, "$ref": f"#/$defs/{escape_token(type_key)}",
            "$defs": types if on_demand else dict(types)}


class ExportedTypes(Mapping):
    """The named types one root reaches, each exported the first time it is looked up: a validator resolves
    only the references the documents it checks lead to, so a large graph is not exported whole for a few
    documents. Read as a whole (iterated, counted, compared), it is the plain mapping of every reachable type."""

    def __init__(self, graph: TypeGraph, type_key: str):
        self._graph = graph
        self._root = type_key
        self._exported: dict[str, Any] = {}
        self._keys: list[str] | None = None

    def __getitem__(self, key: str) -> Any:
        exported = self._exported.get(key)
        if exported is None:
            if key not in self._graph.types:  # a lookup follows a reference: a type it finds is one the root reaches
                raise KeyError(key)
            from govern.records.snapshot import export_node

            exported = self._exported[key] = export_node(self._graph.types[key].node)
        return exported

    def _reachable(self) -> frozenset[str]:
        if self._keys is None:
            from govern.records.snapshot import reachable_types

            self._keys = reachable_types(self._graph, [self._root])
            self._reachable_set = frozenset(self._keys)
        return self._reachable_set

    def __iter__(self) -> Iterator[str]:
        self._reachable()
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._reachable())


class Validator:
    """One side's root, compiled once; a document is valid, or rejected with the validator's reason."""

    def __init__(self, schema: Any):
        from govern.witness.local import LocalVerdicts

        self.schema = schema
        self._verdicts = LocalVerdicts(schema)

    def allow(self, steps: int) -> None:
        """Validations from now on may take `steps` steps (subschemas applied to a value) in all; beyond
        that, `accepts` and `rejection` raise govern.witness.local.TooCostly."""
        self._verdicts.allow(steps)

    def steps_taken(self) -> int:
        """The steps validations took since `allow`."""
        return self._verdicts.steps_taken()

    def accepts(self, document: Any, place: Place | None = None) -> bool:
        """`place`: where this document differs from others of its shape (see govern.witness.local): the
        verdict is the same with or without it, only cheaper for the second and later of a shape."""
        return self._verdicts.accepts(document, place)

    def rejection(self, document: Any) -> Rejection | None:
        from jsonschema.exceptions import best_match

        error = best_match(self._verdicts.iter_errors(document))
        if error is None:
            return None
        pointer = "".join("/" + str(token).replace("~", "~0").replace("/", "~1") for token in error.absolute_path)
        return Rejection(error.message, pointer)
