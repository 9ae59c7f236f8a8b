"""Loading JSON Schema documents and resolving `$ref` through `$id` base URIs.

Real schema sets publish `$id`s under a web address while shipping the files side by side, so a reference
to an address that is not loaded is looked for next to the referring file, at the same relative path.
Documents are identified by a label relative to the project (never an absolute path), so everything
derived from them is the same on every machine.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import unquote, urldefrag, urljoin as _urljoin, urlsplit

from govern.errors import InputError, Problem
from govern.fsio import read_document, read_text, within
from govern.reader import compact_serializer, parse_json_compact

DIALECTS = {
    "json-schema.org/draft/2020-12/schema": "2020-12",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft-07/schema": "draft-07",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft-04/schema": "draft-04",
    # OpenAPI 3.1's base dialect is 2020-12 plus the OpenAPI vocabulary (discriminator, xml, externalDocs,
    # example), which the OpenAPI adapter already reads.
    "spec.openapis.org/oas/3.1/dialect/base": "2020-12",
}
# The dated identifiers the OpenAPI Initiative publishes for the same base dialect.
_OPENAPI_31_DATED_DIALECT = re.compile(r"^spec\.openapis\.org/oas/3\.1/dialect/\d{4}-\d{2}-\d{2}$")
OPENAPI_30 = "openapi-3.0"

# Characters urllib removes from anywhere in a URL before splitting it.
_URL_BYTES_REMOVED = frozenset("\t\r\n")

# Keywords whose values are data, not schemas: never searched for `$id` or `$anchor`.
_DATA_KEYWORDS = frozenset({"enum", "const", "examples", "example", "default"})


def dialect_of(uri: str, origin: str) -> str:
    stripped = uri.rstrip("#")
    for prefix in ("https://", "http://"):
        if stripped.startswith(prefix):
            stripped = stripped[len(prefix):]
    if stripped in DIALECTS:
        return DIALECTS[stripped]
    if _OPENAPI_31_DATED_DIALECT.match(stripped):
        return "2020-12"
    known = ", ".join(sorted(set(DIALECTS.values())))
    raise InputError(Problem(origin, f"declares an unknown JSON Schema dialect {uri!r}",
                             hint=f"use one of {known} in $schema, or read it as one of them: "
                                  f'dialect = "draft-07" in its [[tool.govern.sources]] entry, or --dialect '
                                  f"draft-07 on govern diff and govern digests"))


@dataclass
class Document:
    uri: str  # the base URI of the document (its $id, else a file URI)
    label: str  # a stable, machine-independent name for messages and locations
    path: Path | None
    content: Any
    dialect: str


@dataclass(frozen=True, slots=True)  # (slots: a source holds one for each of its definitions while it reads)
class Target:
    document: Document
    # "label#pointer", spelled once: every reference made to the target asks for it, and the pointer is read from
    # it when asked for (once per converted type), so a target holds one string, not two (see `target_at`).
    location: str
    base: str  # base URI in effect at the target
    schema: Any

    @property
    def pointer(self) -> str:
        """The JSON pointer inside the document, "" for the whole."""
        return self.location[len(self.document.label) + 1:]


def target_at(document: Document, pointer: str, base: str, schema: Any) -> Target:
    """The target at `pointer` inside `document`."""
    return Target(document, f"{document.label}#{pointer}", base, schema)


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


class SchemaSet:
    """Every loaded document, with its `$id` resources and anchors indexed for resolution."""

    def __init__(self, label_root: Path | None = None, default_dialect: str = "2020-12",
                 boundaries: tuple[Path, ...] | None = None):
        self.label_root = label_root
        # Resolved folders that referenced files must lie in (None: no limit, for documents built in memory).
        self.boundaries = boundaries
        self.default_dialect = default_dialect
        self.documents: dict[str, Document] = {}  # by label
        self.resources: dict[str, tuple[Document, str]] = {}  # uri without fragment -> (document, pointer)
        self.anchors: dict[tuple[str, str], tuple[Document, str]] = {}
        # The same reference string under the same base recurs constantly ("#/$defs/Thread"): resolve once.
        self._resolved: dict[tuple[str, str], Target] = {}
        # The targets `definitions` found, by the URI of their document and by the prefix of a reference to them
        # ("#/$defs/"), each table keyed by the definitions' names as written: a reference to one is found without
        # a reference string, key and entry of its own for each definition (for a source of many small definitions,
        # most of what resolving held beside the document). A name a pointer escapes or a URI changes is resolved
        # as any reference is.
        self._definition_tables: dict[str, list[tuple[str, dict[str, Target]]]] = {}
        self._folder_ids: dict[str, dict[str, Path]] = {}
        self._resources_of_bases: dict[str, str] = {}
        # The labels of the documents in which no object has an identifier (see _index).
        self._without_identifiers: set[str] = set()

    def label_for(self, path: Path) -> str:
        resolved = path.resolve()
        if self.label_root is not None:
            try:
                return resolved.relative_to(self.label_root.resolve()).as_posix()
            except ValueError:
                pass
        return path.name

    def load_file(self, path: Path, uri: str | None = None, dialect: str | None = None,
                  undeclared: str | None = None, content: Any = None) -> Document:
        """The document at `path`, read unless already loaded or given as `content` (read by the caller)."""
        label = self.label_for(path)
        if label in self.documents:
            return self.documents[label]
        compact = None
        if content is None:
            if path.suffix.lower() in (".yaml", ".yml"):
                content = read_document(path)
            else:  # its compact text, which reading makes, tells the index which keys occur
                content, compact = parse_json_compact(read_text(path), str(path))
        return self.add_document(content, label, path, uri or path.resolve().as_uri(), dialect, undeclared, compact)

    def add_document(self, content: Any, label: str, path: Path | None, uri: str,
                     dialect: str | None = None, undeclared: str | None = None,
                     compact: bytes | None = None) -> Document:
        """`dialect` overrides the document's `$schema`; `undeclared` is the dialect of a document that
        declares none (a referenced file is read like its referrer), else the set's default. `compact`: the
        content's compact text if reading it made one (see parse_json_compact)."""
        if dialect is None:
            declared = content.get("$schema") if isinstance(content, dict) else None
            dialect = dialect_of(declared, label) if isinstance(declared, str) else undeclared or self.default_dialect
        own_id = _own_id(content, dialect)
        try:
            base = urljoin(uri, own_id) if own_id else uri
            base = urldefrag(base)[0]
            document = Document(uri=base, label=label, path=path, content=content, dialect=dialect)
            self.documents[label] = document
            self.resources.setdefault(urldefrag(uri)[0], (document, ""))
            self._index(document, compact)
        except ValueError as error:  # urllib refuses malformed URIs such as `http://[::1`
            raise InputError(Problem(label, f"has an $id that is not a valid URI ({error})",
                                     hint="write $id as an absolute URI or a relative reference")) from None
        return document

    def _index(self, document: Document, compact: bytes | None = None) -> None:
        # An explicit stack: documents may nest deeply, and Python recursion must not decide that. Each entry
        # carries its path as a chain (parent chain, token); the JSON pointer text is built only for the few
        # places that hold an identifier or an anchor, not for every value of a large document.
        id_keyword = "id" if document.dialect == "draft-04" else "$id"
        ref_replaces = document.dialect in REF_OVERRIDES_SIBLINGS
        self.resources[document.uri] = (document, "")
        # How many objects may still hold an identifier or an anchor: the walk ends once it has met that
        # many (a document written by govern has two identifiers, near its top, and nothing below them).
        remaining = _most_holding_keys(document.content, (id_keyword, "$anchor", "$dynamicAnchor"), compact)
        if remaining is None:
            remaining = -1  # not known: a count that never runs out, so the walk goes on to the end
        elif remaining == 0:
            self._without_identifiers.add(document.label)
            return  # most documents declare no identifier or anchor: nothing to walk for
        stack: list[tuple[Any, tuple | None, str]] = [(document.content, None, document.uri)]
        while stack:
            value, path, base = stack.pop()
            if isinstance(value, dict):
                own_id = value.get(id_keyword)
                if own_id is not None:
                    remaining -= 1  # (one holding null is counted in the text, never here: the walk goes on to the end)
                    if isinstance(own_id, str) and own_id and not (ref_replaces and "$ref" in value):
                        if own_id.startswith("#"):
                            self.anchors[(base, own_id[1:])] = (document, _pointer_of(path))
                        elif path is not None:  # (the document's own is in its base already, see add_document)
                            base = urldefrag(urljoin(base, own_id))[0]
                            self.resources.setdefault(base, (document, _pointer_of(path)))
                for keyword in ("$anchor", "$dynamicAnchor"):
                    anchor = value.get(keyword)
                    if anchor is not None:
                        remaining -= 1
                        if isinstance(anchor, str):
                            self.anchors.setdefault((base, anchor), (document, _pointer_of(path)))
                if remaining == 0:
                    return  # every object that holds one has been met
                for key, item in value.items():
                    if isinstance(item, (dict, list)) and key not in _DATA_KEYWORDS:
                        stack.append((item, (path, key), base))
            elif isinstance(value, list):
                for position, item in enumerate(value):
                    if isinstance(item, (dict, list)):
                        stack.append((item, (path, position), base))

    def release_targets(self) -> tuple[dict[tuple[str, str], Target], dict[str, list[tuple[str, dict[str, Target]]]]]:
        """The targets resolved so far and those of the definitions, forgotten here (each holds its schema, a part of a
        parsed document): for a caller whose resolving is over. A later reference is resolved again, to the same
        target."""
        released = self._resolved, self._definition_tables
        self._resolved, self._definition_tables = {}, {}
        return released

    def release_documents(self) -> None:
        """Reading is over: every loaded document lets go of its parsed content, so that what is built next (the
        graph's names and types) reuses that memory instead of adding to it. Only the parts the converted types hold
        (names, values, descriptions) stay. Reading a chain of 10,000 aliases, the document was a third of what the
        second side of a comparison held at its peak."""
        for document in self.documents.values():
            document.content = None

    def known(self, reference: str, base: str) -> Target | None:
        """The target of a reference resolved before under the same base, or of a definition `definitions` found (the
        referrer's place, which only messages need and which costs something to spell, is not asked for)."""
        tables = self._definition_tables.get(base)
        if tables is not None:  # (most references name a definition: looked up first)
            for prefix, table in tables:
                if reference.startswith(prefix):
                    # (no name in a table holds "/", "~" or "%": a longer pointer or an escaped one finds none there)
                    target = table.get(reference[len(prefix):])
                    if target is not None:
                        return target
                    break
        return self._resolved.get((base, reference))

    def resolve(self, reference: str, base: str, referrer: Document, referrer_pointer: str) -> Target:
        cached = self.known(reference, base)
        if cached is None:
            try:
                cached = self._resolve(reference, base, referrer, referrer_pointer)
            except ValueError as error:  # urllib refuses malformed URIs such as `http://[::1`
                raise InputError(Problem(referrer.label, f"$ref {reference!r} at #{referrer_pointer} is not a valid "
                                         f"URI ({error})", hint="fix the reference")) from None
            self._resolved[(base, reference)] = cached
        return cached

    def definitions(self, document: Document, keyword: str) -> Iterator[Target]:
        """The targets of `#/<keyword>/<name>` for every entry of the document's `keyword` table (`$defs`,
        `definitions`), as `resolve` finds them from the document's base, each remembered for later references.
        The table's part of each pointer is walked once for all of them, not once per entry."""
        table = document.content[keyword]
        prefix = "/" + keyword
        dialect = document.dialect
        entry = self.resources.get(self._resource_of(document.uri))
        base: str | None = None
        if entry is not None and entry[0] is document and not entry[1]:
            # The base in effect inside the table, as `_walk` finds it at the two tokens above an entry (the
            # document's own `$id` is in its base already).
            base = document.uri
            try:
                own_id = _own_id(table, dialect)
                if own_id and not own_id.startswith("#"):
                    base = urldefrag(urljoin(base, own_id))[0]
            except ValueError:
                base = None
        # Otherwise the base names another resource (documents sharing an identifier) or an identifier is no
        # URI: each entry is resolved on its own, which says so.
        uri = document.uri
        tables = self._definition_tables.setdefault(uri, [])
        reference_prefix = "#" + prefix + "/"
        defined = next((found for written, found in tables if written == reference_prefix), None)
        if defined is None:
            defined = {}
            tables.append((reference_prefix, defined))
        label = document.label
        identified = label not in self._without_identifiers  # else no entry has an identifier to read
        for name, schema in table.items():
            target = defined.get(name)
            if target is not None:
                yield target
                continue
            if base is None or "~" in name or "/" in name or "%" in name or not _URL_BYTES_REMOVED.isdisjoint(name):
                # (escaped in a pointer, or changed by unquoting or urllib: resolved as such a reference would be)
                pointer = f"{prefix}/{escape_token(name)}"
                yield self.resolve("#" + pointer, uri, document, pointer)
                continue
            target = self._resolved.get((uri, f"#{prefix}/{name}")) if self._resolved else None
            if target is None:
                own_id = _own_id(schema, dialect) if identified else None
                try:
                    target_base = urldefrag(urljoin(base, own_id))[0] if own_id and not own_id.startswith("#") \
                        else base
                except ValueError:
                    pointer = f"{prefix}/{name}"
                    yield self.resolve("#" + pointer, uri, document, pointer)  # which says why
                    continue
                target = Target(document, f"{label}#{prefix}/{name}", target_base, schema)
            defined[name] = target
            yield target

    def _resolve(self, reference: str, base: str, referrer: Document, referrer_pointer: str) -> Target:
        if reference.startswith("#") and not _URL_BYTES_REMOVED.intersection(reference):
            # The usual reference, a fragment of the base's own resource: urljoin and urldefrag would parse the
            # same base again for each one; the fragment is the text after "#" as they would leave it.
            resource_uri, fragment = self._resource_of(base), reference[1:]
        else:
            target_uri = urljoin(base, reference)
            resource_uri, fragment = urldefrag(target_uri)
        fragment = unquote(fragment)
        entry = self.resources.get(resource_uri) or self._load_sibling(resource_uri, referrer, referrer_pointer,
                                                                       reference)
        document, resource_pointer = entry
        if fragment and not fragment.startswith("/"):
            anchored = self.anchors.get((resource_uri, fragment))
            if anchored is None:
                raise self._dangling(reference, referrer, referrer_pointer, f"no anchor {fragment!r} is declared")
            document, pointer = anchored
        else:
            pointer = resource_pointer + fragment
        schema, target_base = self._walk(document, pointer, reference, referrer, referrer_pointer)
        return target_at(document, pointer, target_base, schema)

    def _resource_of(self, base: str) -> str:
        """The resource part of `base` as urldefrag makes it of any `base#fragment`, parsed once per base."""
        resource = self._resources_of_bases.get(base)
        if resource is None:
            resource = self._resources_of_bases[base] = urldefrag(urljoin(base, "#"))[0]
        return resource

    def _walk(self, document: Document, pointer: str, reference: str, referrer: Document,
              referrer_pointer: str) -> tuple[Any, str]:
        value = document.content
        base = document.uri  # (the document's own `$id` is in it already: see add_document)
        tokens = pointer.split("/")[1:] if pointer else []
        for token in tokens:
            if isinstance(value, dict):
                own_id = _own_id(value, document.dialect) if value is not document.content else None
                if own_id and not own_id.startswith("#"):
                    base = urldefrag(urljoin(base, own_id))[0]
                key = unescape_token(token)
                if key not in value:
                    raise self._dangling(reference, referrer, referrer_pointer,
                                         f"{document.label} has nothing at {pointer}")
                value = value[key]
            elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
                value = value[int(token)]
            else:
                raise self._dangling(reference, referrer, referrer_pointer, f"{document.label} has nothing at {pointer}")
        if isinstance(value, dict) and value is not document.content:
            own_id = _own_id(value, document.dialect)
            if own_id and not own_id.startswith("#"):
                base = urldefrag(urljoin(base, own_id))[0]
        return value, base

    def _load_sibling(self, uri: str, referrer: Document, referrer_pointer: str,
                      reference: str) -> tuple[Document, str]:
        """A resource that is not loaded yet: at the relative path its URI implies, else the JSON file of the
        referrer's folder whose `$id` is that URI (schema sets shipped flat in one folder), else a file of
        the same name next to the referrer."""
        looked: list[str] = []
        candidate = _sibling_path(uri, referrer)
        if candidate is not None:
            looked.append(f"{self._shown(candidate)} (the path the address implies)")
            if candidate.is_file():
                if self.boundaries is not None and not within(candidate.resolve(), self.boundaries):
                    raise InputError(Problem(referrer.label, f"$ref {reference!r} at #{referrer_pointer} leaves the "
                                             f"project root ({candidate})", hint="keep referenced schemas inside the "
                                             "project, or open their folder with allow-outside = [...] in "
                                             "[tool.govern]"))
                return self._adopt(candidate, uri, referrer)
        if referrer.path is not None:
            folder = referrer.path.parent
            indexed = self._id_index(folder).get(uri)
            looked.append(f"the $id of every JSON file in {self._shown(folder)}/")
            if indexed is not None:
                return self._adopt(indexed, uri, referrer)
            name = posixpath.basename(unquote(urlsplit(uri).path))
            if name:
                same_name = folder / name
                looked.append(f"{self._shown(same_name)} (the same name next to {referrer.label})")
                if same_name.is_file() and same_name != candidate:
                    return self._adopt(same_name, uri, referrer)
        where = f"; looked at {', '.join(looked)}" if looked else ""
        raise self._dangling(reference, referrer, referrer_pointer, f"{uri} is not loaded{where}")

    def _adopt(self, path: Path, uri: str, referrer: Document) -> tuple[Document, str]:
        document = self.load_file(path, uri=uri, undeclared=referrer.dialect)
        self.resources.setdefault(uri, (document, ""))
        return self.resources[uri]

    def _shown(self, path: Path) -> str:
        return self.label_for(path) if self.label_root is not None else path.as_posix()

    def _id_index(self, folder: Path) -> dict[str, Path]:
        """`$id` (without fragment) -> file, for the JSON files of a folder; built once per folder, on the
        first reference no other lookup finds. Files that cannot be read are skipped here: a reference
        into one of them still fails with its own message."""
        key = str(folder)
        if key not in self._folder_ids:
            index: dict[str, Path] = {}
            for path in sorted(folder.glob("*.json")):
                try:
                    content = read_document(path)
                except InputError:
                    continue
                for keyword in ("$id", "id"):
                    value = content.get(keyword) if isinstance(content, dict) else None
                    if isinstance(value, str) and value:
                        index.setdefault(urldefrag(value)[0], path)
            self._folder_ids[key] = index
        return self._folder_ids[key]

    @staticmethod
    def _dangling(reference: str, referrer: Document, pointer: str, reason: str) -> InputError:
        return InputError(Problem(referrer.label, f"$ref {reference!r} at #{pointer} does not resolve: {reason}",
                                  hint="fix the reference or add the schema it names"))


def reference_boundaries(path: Path, project_root: Path | None, allow_outside: tuple[Path, ...] = ()
                         ) -> tuple[Path, ...]:
    """Where a source's `$ref` targets may lie: the project (or, for a file named on the command line, its
    folder) and the folders the configuration opens."""
    folders = [path.resolve().parent, *allow_outside]
    if project_root is not None:
        folders.insert(0, project_root.resolve())
    return tuple(folders)


def urljoin(base: str, reference: str) -> str:
    """RFC 3986 resolution that also works for `urn:` bases, which the standard library leaves alone."""
    if reference.startswith("#"):
        return urldefrag(base)[0] + reference
    if urlsplit(reference).scheme:
        return reference
    return _urljoin(base, reference)


def _most_holding_keys(value: Any, keys: tuple[str, ...], compact: bytes | None = None) -> int | None:
    """At most how many of `keys` (plain ASCII names) the objects inside `value` hold, counted at C speed: a
    compact serialization (`compact`, else made here) writes every key of every object as `"key":`, so the
    count of those texts is never below the count of the keys (it can be above: a key that only ends in the
    name, written with an escaped quote before it, or a key inside a data keyword such as `const`, which no
    walk looks into). None when that cannot be told (an integer beyond 64 bits, which orjson does not write)."""
    if compact is None:
        dumps = compact_serializer()
        try:
            compact = dumps(value) if dumps is not None else None
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            compact = None
    if compact is None:
        return None
    return sum(compact.count(b'"' + key.encode("ascii") + b'":') for key in keys)


def _pointer_of(path: tuple | None) -> str:
    """The JSON pointer of a path chain (parent chain, token) as `_index` builds them."""
    tokens = []
    while path is not None:
        path, token = path
        tokens.append(token)
    return "".join("/" + escape_token(str(token)) for token in reversed(tokens))


# Dialects in which `$ref` replaces its schema object: every keyword beside it is ignored by validators, an
# identifier too.
REF_OVERRIDES_SIBLINGS = frozenset({"draft-04", "draft-06", "draft-07", OPENAPI_30})


def _own_id(schema: Any, dialect: str) -> str | None:
    if not isinstance(schema, dict) or ("$ref" in schema and dialect in REF_OVERRIDES_SIBLINGS):
        return None
    value = schema.get("id" if dialect == "draft-04" else "$id")
    return value if isinstance(value, str) else None


def _sibling_path(uri: str, referrer: Document) -> Path | None:
    """Where a not-yet-loaded resource would be if the files sit side by side as their URIs do."""
    target = urlsplit(uri)
    if target.scheme == "file":
        return Path(unquote(target.path))
    if referrer.path is None:
        return None
    origin = urlsplit(referrer.uri)
    if (target.scheme, target.netloc) != (origin.scheme, origin.netloc) or not target.path:
        return None
    relative = posixpath.relpath(unquote(target.path), posixpath.dirname(unquote(origin.path)) or "/")
    return referrer.path.parent / relative
