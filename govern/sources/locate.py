"""Where a root's type is written: the source file and line, for findings and the inventory.

Locations are annotations: the inventory records them and findings point at them; no digest covers them.
"""

from __future__ import annotations

import json
import re
import sys
from json.decoder import scanstring
from pathlib import Path

from govern.config import Config
from govern.model.graph import TypeGraph

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def pointer_line(text: str, pointer: str, members: dict | None = None, json_text: bool = False) -> int | None:
    """The line of the key (or array element) a JSON pointer ends at; 1 for the whole document.

    `members` keeps the members of every container read so far, for further pointers into the same text:
    each container is then scanned once, however many roots it holds. With `json_text` (a text the strict
    JSON reader accepts), a container is scanned only as far as the members asked for, and a member's value
    is stepped over only to reach a later one, so a pointer does not decode the containers it descends into.
    """
    offset = pointer_offset(text, pointer, members, json_text)
    return None if offset is None else text.count("\n", 0, offset) + 1


def pointer_offset(text: str, pointer: str, members: dict | None = None, json_text: bool = False) -> int | None:
    """Where in `text` the key (or array element) a JSON pointer ends at starts; 0 for the whole document
    (`members`, `json_text`: see `pointer_line`)."""
    members = {} if members is None else members
    tokens = [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]] if pointer else []
    index, start = _skip(text, 0), 0
    try:
        for token in tokens:
            if index not in members:
                members[index] = _MembersAsked(text, index) if json_text else _members(text, index)
            index, start = members[index].get(token, (None, 0))
            if index is None:
                return None
    except (IndexError, ValueError):  # not JSON text (a YAML source): no line
        return None
    return start


def _skip(text: str, index: int) -> int:
    return _WHITESPACE.match(text, index).end()


def _members(text: str, index: int) -> dict[str, tuple[int, int]]:
    """Token -> (where the member's value starts, where the member starts), for the container at index (the
    first of a repeated key, like the reading of the document)."""
    opener = text[index]
    if opener not in "{[":
        return {}
    found: dict[str, tuple[int, int]] = {}
    position, count = _skip(text, index + 1), 0
    while text[position] not in "}]":
        start = position
        if opener == "{":
            key, position = scanstring(text, position + 1)
            position = _skip(text, position)
            position = _skip(text, position + 1)  # past ':'
        else:
            key = str(count)
        found.setdefault(key, (position, start))
        position = _skip(text, _skip_value(text, position))
        count += 1
        if text[position] == ",":
            position = _skip(text, position + 1)
    return found


class _MembersAsked:
    """The members of the container at `index` of a JSON text, read as far as they are asked for: token ->
    (where the member's value starts, where the member starts), as `_members` finds them. The value of the
    member read last is stepped over only when a later member is asked for."""

    __slots__ = ("text", "opener", "position", "pending", "count", "found", "done")

    def __init__(self, text: str, index: int):
        self.text = text
        self.opener = text[index]
        self.found: dict[str, tuple[int, int]] = {}
        self.count = 0
        self.pending: int | None = None  # where the value of the member read last starts
        self.done = self.opener not in "{["
        self.position = index if self.done else _skip(text, index + 1)

    def get(self, token: str, default: tuple[int | None, int]) -> tuple[int | None, int]:
        text, found = self.text, self.found
        while token not in found and not self.done:
            position = self.position
            if self.pending is not None:
                position = _skip(text, _skip_value(text, self.pending))
                self.pending = None
                self.count += 1
                if text[position] == ",":
                    position = _skip(text, position + 1)
            if text[position] in "}]":
                self.done = True
                break
            start = position
            if self.opener == "{":
                key, position = scanstring(text, position + 1)
                position = _skip(text, position)
                position = _skip(text, position + 1)  # past ':'
            else:
                key = str(self.count)
            found.setdefault(key, (position, start))
            self.position = self.pending = position
        return found.get(token, default)


def _skip_value(text: str, index: int) -> int:
    """Where the JSON value at index ends (the C decoder reads it: scanning a large container token by token
    in Python cost more than the rest of locating)."""
    return _DECODER.raw_decode(text, index)[1]


def root_locations(config: Config, graphs: list[TypeGraph]) -> dict[str, str]:
    """root id -> `file:line` (relative to the project) of the type each configured root is read from."""
    found: dict[str, str | None] = {}
    texts: dict[str, str | None] = {}
    members: dict[str, dict] = {}
    offsets: dict[str, dict[str, int]] = {}  # file -> root id -> where its type starts in the file
    by_source = {source.name: source for source in config.sources}
    for graph in graphs:
        source = by_source.get(graph.source)
        if source is None:
            continue
        for root_id, root in graph.roots.items():
            if source.kind == "pydantic":
                found[root_id] = _model_location(config, source, root_id.partition(":")[2])
                continue
            file, _, pointer = graph.locations.get(root.type_key, "").partition("#")
            line = None
            if not pointer:  # the whole document: its first line, without reading a large file again
                line = 1 if file and (config.project_root / file).is_file() else None
            else:
                if file not in texts:
                    texts[file], members[file] = _read(config.project_root / file), {}
                offset = pointer_offset(texts[file], pointer, members[file], json_text=not file.lower().endswith(
                    (".yaml", ".yml"))) if texts[file] is not None else None
                if offset is not None:
                    offsets.setdefault(file, {})[root_id] = offset
            found[root_id] = f"{file}:{line}" if line else file
    for file, starts in offsets.items():
        for root_id, line in _lines(texts[file], starts).items():
            found[root_id] = f"{file}:{line}"
    return {root_id: location for root_id, location in found.items() if location}


def _lines(text: str, offsets: dict[str, int]) -> dict[str, int]:
    """The line of each offset, counted in one pass over the text (a large description holds hundreds of
    roots: counting from the start for each would read it hundreds of times)."""
    lines: dict[str, int] = {}
    position, line = 0, 1
    for key, offset in sorted(offsets.items(), key=lambda item: item[1]):
        line += text.count("\n", position, offset)
        position = offset
        lines[key] = line
    return lines


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _model_location(config: Config, source, name: str) -> str | None:
    import inspect

    from govern.sources.pydantic import MODES, imported_from

    for suffix in MODES.values():
        if suffix and name.endswith(suffix):
            name = name[: -len(suffix)]
    declared = {root.name: root.at for root in source.roots}
    module_name, _, model_name = source.path.partition(":")
    model = getattr(sys.modules.get(module_name), declared.get(name) or model_name or name, None)
    file = imported_from(module_name, config.project_root)
    if model is None or file in ("installed", "no file"):
        return None
    try:
        line = inspect.getsourcelines(model)[1]
    except (OSError, TypeError):
        return file
    return f"{file}:{line}"
