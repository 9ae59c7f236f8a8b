"""pydantic v2 adapter: `module:Model`, or a module for all the models it defines.

Each model gives two roots. `Name` is its JSON schema in *validation* mode: a persisted type is a contract
with readers, and what matters is which stored documents they accept (validation mode is also where
`extra='forbid'` appears as `additionalProperties: false`, a closed content model). `Name~serialization`
is its schema in *serialization* mode: what writers emit, which a `serialization_alias` or a computed
field changes while the validation schema stays the same. The generated schema then goes through the JSON
Schema adapter, so model class names, like `$defs` keys, never enter a digest. Persistence markers are
given with `json_schema_extra`.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

from govern.config import SourcePolicy
from govern.errors import InputError, Problem
from govern.model.graph import TypeGraph
from govern.process import keep_until_exit
from govern.sources.jsonschema import VERSION_MARKER, Converter, finish_graph, read_format_version
from govern.sources.refs import Document, SchemaSet


# Each model is two roots: what its readers accept (validation, the model's own name) and what its writers
# emit (serialization, `<Name>~serialization`): a serialization alias or a computed field changes only the
# second, and must be acknowledged all the same.
MODES = {"validation": "", "serialization": "~serialization"}


def module_search_path(project_root: Path, pythonpath: tuple[str, ...] = ()) -> list[Path]:
    """Where a project's modules are imported from, first to last: its pythonpath folders, then its root."""
    return [project_root / folder for folder in pythonpath] + [project_root]


def module_file(search_path: list[Path], module_name: str) -> Path | None:
    """The file a module would be imported from within `search_path`, or None when it is not there."""
    parts = module_name.split(".")
    for folder in search_path:
        for candidate in (folder.joinpath(*parts).with_suffix(".py"), folder.joinpath(*parts, "__init__.py")):
            if candidate.is_file():
                return candidate
    return None


def import_models(spec: str, project_root: Path | None, pythonpath: tuple[str, ...] = ()) -> tuple[str, list[type]]:
    """Import `module` or `module:Model` and return the module name and the selected model classes.

    The project's own copy wins: its folders go first on sys.path, and a copy of the package imported
    from elsewhere (an installed one) is forgotten first, so `--project ../app` checks ../app.
    """
    module_name, _, model_name = spec.partition(":")
    if project_root is not None:
        search_path = module_search_path(project_root, pythonpath)
        for folder in reversed(search_path):
            if str(folder) in sys.path:
                sys.path.remove(str(folder))
            sys.path.insert(0, str(folder))
        if module_file(search_path, module_name) is not None:
            _forget_foreign_copy(module_name.partition(".")[0], search_path)
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover - pydantic is a dependency
        raise InputError(Problem(spec, "needs pydantic, which is not installed")) from None
    module = run_project_code(spec, "cannot be imported", lambda: _import_without_bytecode(module_name))
    if model_name:
        model = getattr(module, model_name, None)
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise InputError(Problem(spec, f"{module_name} has no pydantic model named {model_name}"))
        return module_name, [model]
    models = [value for value in vars(module).values()
              if isinstance(value, type) and issubclass(value, BaseModel) and value is not BaseModel
              and value.__module__ == module.__name__ and not getattr(value, "__pydantic_generic_metadata__", {}).get("parameters")]
    if not models:
        raise InputError(Problem(spec, "defines no pydantic models"))
    return module_name, sorted(models, key=lambda model: model.__name__)


def _forget_foreign_copy(package: str, search_path: list[Path]) -> None:
    module = sys.modules.get(package)
    location = getattr(module, "__file__", None) if module is not None else None
    if module is None or (location and any(Path(location).is_relative_to(folder) for folder in search_path)):
        return
    for name in [name for name in sys.modules if name == package or name.startswith(package + ".")]:
        del sys.modules[name]


def load_pydantic(source: str, spec: str, roots: dict[str, tuple[str | None, str]], project_root: Path | None,
                  discover: bool = True, pythonpath: tuple[str, ...] = (),
                  format_version_pointer: str | None = None,
                  source_policy: SourcePolicy = SourcePolicy()) -> TypeGraph:
    module_name, models = import_models(spec, project_root, pythonpath)
    from pydantic.json_schema import models_json_schema

    # Building a schema runs the project's code too (json_schema_extra callables, custom types).
    references, document_schema = run_project_code(spec, "has no JSON schema", lambda: models_json_schema(
        [(model, mode) for model in models for mode in MODES], ref_template="#/$defs/{model}"))
    document_schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **document_schema}
    from govern.reader import check_json_value

    check_json_value(document_schema, spec)  # json_schema_extra may hold NaN, 1e400 or lone surrogates
    schemas = SchemaSet()
    label = f"{module_name} (pydantic, {imported_from(module_name, project_root)})"
    document = schemas.add_document(document_schema, label, None, f"urn:govern:pydantic:{module_name}")
    converter = Converter(schemas, source_policy=source_policy, values_from_text=False)
    converter.register_definitions(document)
    by_name = {model.__name__: model for model in models}
    chosen: dict[str, tuple[type, str]] = {}
    if discover:
        chosen.update((model.__name__, (model, "record")) for model in models)
    for name, (at, role) in roots.items():
        model = by_name.get(at or name)
        if model is None:
            raise InputError(Problem(spec, f"root {name}: no model named {at or name}"))
        chosen[name] = (model, role)
    declared: dict[str, tuple[str, str]] = {}
    for name, (model, role) in chosen.items():
        for mode, suffix in MODES.items():
            declared[name + suffix] = (_location(converter, document, references[(model, mode)]), role)
    graph = finish_graph(converter, source, declared, label,
                         format_version=model_format_version(document, format_version_pointer))
    keep_until_exit(*converter.tables())
    return graph


def model_format_version(document: Document, pointer: str | None) -> int | str | None:
    """The format version of models: at a pointer into their generated JSON schema (`$defs` keys are the
    model class names), or else the one `x-persistence-version` the models set through `json_schema_extra`."""
    if pointer is not None:
        return read_format_version(document, pointer)
    found: set[int] = set()
    stack = [document.content]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            marked = value.get(VERSION_MARKER)
            if marked is not None:
                if not isinstance(marked, int) or isinstance(marked, bool):
                    raise InputError(Problem(document.label, f"{VERSION_MARKER} must be an integer, not {marked!r}"))
                found.add(marked)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    if len(found) > 1:
        raise InputError(Problem(document.label, f"its models mark several format versions ({VERSION_MARKER}: "
                                 f"{', '.join(map(str, sorted(found)))})",
                                 hint="one source writes one format: mark one version property, or set "
                                      "format-version to the pointer of the one that counts"))
    return found.pop() if found else None


def imported_from(module_name: str, project_root: Path | None) -> str:
    """The module's file relative to the project, or `installed` when it comes from outside the project
    (an absolute path would differ from machine to machine, and the inventory must not)."""
    location = getattr(sys.modules.get(module_name), "__file__", None)
    if location is None:
        return "no file"
    if project_root is not None and Path(location).resolve().is_relative_to(project_root.resolve()):
        return Path(location).resolve().relative_to(project_root.resolve()).as_posix()
    return "installed"


def _location(converter: Converter, document, reference: dict) -> str:
    pointer = reference["$ref"][1:]
    return converter.named_at(document, pointer)


def _import_without_bytecode(module_name: str) -> Any:
    """Import the project's module without writing bytecode beside its source.

    govern reads a project, it does not change it: a `__pycache__` folder left in the project would show in
    `git status` and in a merge (a binary file that conflicts). And a source edited again within the same second,
    to the same size, would be read back from the bytecode written of its earlier text (Python tells them apart
    by modification time in whole seconds and by size), so the models compared would not be the ones on disk."""
    writes = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        return importlib.import_module(module_name)
    finally:
        sys.dont_write_bytecode = writes


def run_project_code(spec: str, what: str, call: Callable[[], Any]) -> Any:
    """Run the project's own code (importing its models, building their schemas) in isolation: what it
    prints is discarded, at the Python and the file-descriptor level, so json and sarif output stay valid;
    anything it raises or exits with becomes an InputError (exit 2). Only an interrupt from the user passes.
    """
    with _discarded_output():
        try:
            return call()
        except KeyboardInterrupt:
            raise
        except InputError:
            raise
        except SystemExit as error:
            reason = f"{what}: it called sys.exit({error.code!r})"
        except BaseException as error:  # noqa: B036 - user code may raise anything, GeneratorExit included
            reason = f"{what}: {type(error).__name__}: {error}"
    raise InputError(Problem(spec, reason, hint="check the module name and that it imports without side effects"))


@contextlib.contextmanager
def _discarded_output() -> Iterator[None]:
    sys.stdout.flush()
    sys.stderr.flush()
    saved: list[tuple[int, int]] = []
    try:
        sink = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # pragma: no cover - no null device
        sink = None
    try:
        if sink is not None:
            for descriptor in (1, 2):
                try:
                    saved.append((descriptor, os.dup(descriptor)))
                    os.dup2(sink, descriptor)
                except OSError:  # a closed descriptor: nothing to protect
                    continue
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            yield
    finally:
        for descriptor, copy in saved:
            os.dup2(copy, descriptor)
            os.close(copy)
        if sink is not None:
            os.close(sink)
