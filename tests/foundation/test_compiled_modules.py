"""Which of the compiled modules' two forms runs: the extension only when it was built from the source beside it
as that source is now, and the source whenever asked for (see govern/compiled.py)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import govern
from govern import compiled
from govern.compiled import (
    COMPILED, COMPILED_MODULES, PURE_PYTHON_VARIABLE, SOURCE_ASKED, SOURCE_CHANGED, SOURCE_NOT_BUILT,
    SourceUnlessCurrent, choose, is_set, manifest_name, read_manifest, source_digest,
)

PACKAGE = Path(govern.__file__).parent
# Set by the CI run, which installs govern where a C compiler is at hand: every listed module must then be compiled.
EXPECT_COMPILED = "GOVERN_EXPECT_COMPILED"


def test_every_listed_module_is_a_module_of_the_package():
    assert len(set(COMPILED_MODULES)) == len(COMPILED_MODULES)
    for name in COMPILED_MODULES:
        assert name.startswith("govern.")
        assert (PACKAGE.joinpath(*name.split(".")[1:-1]) / (name.split(".")[-1] + ".py")).is_file(), name


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    path = tmp_path / "module.py"
    path.write_text("VALUE = 1\n", encoding="utf-8")
    return path


@pytest.fixture()
def extension(tmp_path: Path) -> Path:
    path = tmp_path / ("module" + EXTENSION_SUFFIXES[0])
    path.write_bytes(b"1234")
    return path


@pytest.mark.parametrize("built, recorded, pure, expected", [
    (False, "match", False, SOURCE_NOT_BUILT),      # nothing was compiled
    (False, "match", True, SOURCE_NOT_BUILT),
    (True, "match", False, COMPILED),               # built from the source as it is
    (True, "match", True, SOURCE_ASKED),            # GOVERN_PURE_PYTHON
    (True, None, False, SOURCE_NOT_BUILT),          # an extension the build did not record (a build that failed)
    (True, "other source", False, SOURCE_CHANGED),  # the source was edited since
    (True, "other file", False, SOURCE_NOT_BUILT),  # the file is not the one built (another interpreter's, say)
    (True, "other size", False, SOURCE_NOT_BUILT),  # nor is this one (replaced since)
])
def test_an_extension_runs_only_when_built_from_the_source_as_it_is(source, extension, built, recorded, pure,
                                                                    expected):
    entry = {"source": source_digest(str(source)), "extension": extension.name, "size": 4}
    if recorded == "other source":
        entry["source"] = "0" * 64
    elif recorded == "other file":
        entry["extension"] = "module.cpython-399-other.so"
    elif recorded == "other size":
        entry["size"] = 5
    manifest = {} if recorded is None else {"pkg.module": entry}
    assert choose("pkg.module", str(source), str(extension) if built else None, manifest, pure) == expected


def test_a_source_that_cannot_be_read_is_not_taken_for_the_one_compiled(tmp_path, extension):
    entry = {"source": "0" * 64, "extension": extension.name, "size": 4}
    assert choose("pkg.module", str(tmp_path / "gone.py"), str(extension), {"pkg.module": entry}, False) \
        == SOURCE_CHANGED


@pytest.mark.parametrize("content", [None, b"", b"not json", b"[]", b'{"modules": []}', b'{"modules": {"a": 1}}',
                                     b'{"modules": {"a": {"source": "x", "extension": "y"}}}',
                                     b'{"modules": {"a": {"source": "x", "extension": "y", "size": true}}}'])
def test_a_missing_or_malformed_manifest_records_nothing(tmp_path, content):
    path = tmp_path / manifest_name()
    if content is not None:
        path.write_bytes(content)
    assert read_manifest(str(path)) == {}


def test_a_manifest_gives_each_module_what_was_built(tmp_path):
    path = tmp_path / manifest_name()
    entry = {"source": "ab" * 32, "extension": "b" + EXTENSION_SUFFIXES[0], "size": 10}
    path.write_text(json.dumps({"modules": {"a.b": entry}}), encoding="utf-8")
    assert read_manifest(str(path)) == {"a.b": entry}


def test_each_interpreter_has_a_build_record_of_its_own():
    assert manifest_name(".cpython-311-x86_64-linux-gnu.so") == "_compiled.cpython-311-x86_64-linux-gnu.json"
    assert manifest_name(".cp312-win_amd64.pyd") == "_compiled.cp312-win_amd64.json"
    assert manifest_name(".cpython-311-x86_64-linux-gnu.so") != manifest_name(".cpython-312-x86_64-linux-gnu.so")


@pytest.mark.parametrize("value, expected", [(None, False), ("", False), ("0", False), ("false", False),
                                             ("No", False), ("1", True), ("yes", True), ("true", True)])
def test_a_variable_is_set_unless_empty_or_saying_no(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv("GOVERN_TEST_FLAG", raising=False)
    else:
        monkeypatch.setenv("GOVERN_TEST_FLAG", value)
    assert is_set("GOVERN_TEST_FLAG") is expected


# --- the finder, on a package of its own ------------------------------------------------------------------------

class FakePackage:
    """A package `fakepkg` in a temporary folder: `fakepkg.mod` and `fakepkg.sub.mod` hold Python source, and an
    "extension" beside each that is no extension at all, so importing it fails: a test tells which form ran."""

    def __init__(self, root: Path):
        self.root = root
        self.folder = root / "fakepkg"
        (self.folder / "sub").mkdir(parents=True)
        (self.folder / "__init__.py").write_text("", encoding="utf-8")
        (self.folder / "sub" / "__init__.py").write_text("", encoding="utf-8")
        self.modules = ("fakepkg.mod", "fakepkg.sub.mod")
        for name in self.modules:
            self.source(name).write_text(f"FORM = 'source of {name}'\n", encoding="utf-8")
            self.extension(name).write_bytes(b"not a shared object")

    def path_of(self, name: str, suffix: str) -> Path:
        parts = name.split(".")[1:]
        return self.folder.joinpath(*parts[:-1]) / (parts[-1] + suffix)

    def source(self, name: str) -> Path:
        return self.path_of(name, ".py")

    def extension(self, name: str) -> Path:
        return self.path_of(name, EXTENSION_SUFFIXES[0])

    def record(self, *names: str) -> None:
        manifest = {"modules": {name: {"source": source_digest(str(self.source(name))),
                                       "extension": self.extension(name).name,
                                       "size": self.extension(name).stat().st_size} for name in names}}
        (self.folder / manifest_name()).write_text(json.dumps(manifest), encoding="utf-8")


@pytest.fixture()
def fake(tmp_path, monkeypatch):
    package = FakePackage(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    finder = SourceUnlessCurrent(str(package.folder), "fakepkg", package.modules)
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    yield package, finder
    for name in [name for name in sys.modules if name == "fakepkg" or name.startswith("fakepkg.")]:
        del sys.modules[name]
    importlib.invalidate_caches()


@pytest.mark.parametrize("name", ["fakepkg.mod", "fakepkg.sub.mod"])
def test_a_recorded_extension_of_an_unchanged_source_is_the_one_imported(fake, name):
    package, finder = fake
    package.record(*package.modules)
    with pytest.raises(ImportError):  # the usual import took the (fake) extension
        importlib.import_module(name)
    assert finder.chosen[name] == COMPILED


@pytest.mark.parametrize("name", ["fakepkg.mod", "fakepkg.sub.mod"])
def test_an_edited_source_runs_instead_of_its_extension(fake, name):
    package, finder = fake
    package.record(*package.modules)
    package.source(name).write_text(f"FORM = 'edited {name}'\n", encoding="utf-8")
    assert importlib.import_module(name).FORM == f"edited {name}"
    assert finder.chosen[name] == SOURCE_CHANGED


def test_the_source_runs_when_asked_for(fake, monkeypatch):
    package, finder = fake
    package.record(*package.modules)
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    for name in package.modules:
        module = importlib.import_module(name)
        assert module.FORM == f"source of {name}" and module.__file__ == str(package.source(name))
        assert finder.chosen[name] == SOURCE_ASKED


def test_an_extension_the_build_did_not_record_is_not_imported(fake):
    package, finder = fake
    package.record("fakepkg.mod")  # the build of fakepkg.sub.mod failed: its file may still be there
    assert importlib.import_module("fakepkg.sub.mod").FORM == "source of fakepkg.sub.mod"
    assert finder.chosen["fakepkg.sub.mod"] == SOURCE_NOT_BUILT
    (package.folder / manifest_name()).unlink()  # no build record at all (read once per process: a new finder)
    alone = SourceUnlessCurrent(str(package.folder), "fakepkg", package.modules)
    assert alone.find_spec("fakepkg.mod", [str(package.folder)]).origin == str(package.source("fakepkg.mod"))


def test_without_an_extension_the_usual_import_runs_the_source(fake):
    package, finder = fake
    package.extension("fakepkg.mod").unlink()
    assert finder.find_spec("fakepkg.mod", [str(package.folder)]) is None
    assert importlib.import_module("fakepkg.mod").FORM == "source of fakepkg.mod"


def test_other_modules_and_other_copies_of_the_package_are_left_alone(fake, tmp_path):
    package, finder = fake
    assert finder.find_spec("fakepkg.other", [str(package.folder)]) is None
    assert finder.find_spec("json", None) is None
    elsewhere = tmp_path / "copy" / "fakepkg"
    elsewhere.mkdir(parents=True)
    assert finder.find_spec("fakepkg.mod", [str(elsewhere)]) is None
    assert finder.find_spec("fakepkg.mod", [str(package.folder) + "-other"]) is None


def test_installing_the_finder_twice_for_one_folder_installs_it_once(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    first = compiled.install(str(tmp_path))
    assert compiled.install(str(tmp_path)) is first
    assert sum(finder is first for finder in sys.meta_path) == 1
    assert sys.meta_path[0] is first


# --- this installation -----------------------------------------------------------------------------------------

def test_a_linked_package_folder_of_another_name_is_still_its_package(tmp_path, monkeypatch):
    # A package installed as a link to a folder named otherwise (govern -> govern-1.0) is found by the package's
    # name, not the folder's: an edited source still runs instead of its extension.
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    package = FakePackage(tmp_path / "real")
    package.record(*package.modules)
    package.folder.rename(tmp_path / "real" / "fakepkg-1.0")
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "fakepkg").symlink_to(tmp_path / "real" / "fakepkg-1.0", target_is_directory=True)
    edited = tmp_path / "real" / "fakepkg-1.0" / "mod.py"
    edited.write_text("FORM = 'edited'\n", encoding="utf-8")
    finder = SourceUnlessCurrent(str(tmp_path / "linked" / "fakepkg"), "fakepkg", package.modules)
    spec = finder.find_spec("fakepkg.mod", [str(tmp_path / "linked" / "fakepkg")])
    assert spec is not None and os.path.realpath(spec.origin) == str(edited)
    assert finder.chosen["fakepkg.mod"] == SOURCE_CHANGED


def _run(program: str, **environment: str) -> str:
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                            env={**os.environ, **environment})
    return result.stdout


def test_importing_govern_puts_its_finder_first():
    assert _run("import sys, govern\n"
                "from govern.compiled import SourceUnlessCurrent\n"
                "first = sys.meta_path[0]\n"
                "print(isinstance(first, SourceUnlessCurrent), first.package_folder)\n").split() \
        == ["True", os.path.realpath(PACKAGE)]


def test_each_compiled_module_of_this_installation_runs_as_its_reason_says():
    reasons = compiled.status()
    assert set(reasons) == set(COMPILED_MODULES)
    for name, reason in reasons.items():
        loaded = Path(sys.modules[name].__file__)
        assert (loaded.suffix == ".py") == (reason != COMPILED), (name, reason, loaded)
    if os.environ.get(EXPECT_COMPILED):
        assert set(reasons.values()) == {COMPILED}, reasons


def test_a_process_asking_for_the_source_runs_every_module_from_source():
    program = ("import sys, govern.compiled as c\n"
               "reasons = c.status()\n"
               "import json; print(json.dumps(sorted(set(reasons.values()))))\n"
               "print(all(sys.modules[n].__file__.endswith('.py') for n in reasons))\n")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                            env={**os.environ, PURE_PYTHON_VARIABLE: "1"})
    reasons, all_source = result.stdout.splitlines()
    assert all_source == "True"
    assert set(json.loads(reasons)) <= {SOURCE_ASKED, SOURCE_NOT_BUILT}


def test_asked_for_the_source_the_version_says_none_runs_compiled():
    environment = {key: value for key, value in os.environ.items() if key != PURE_PYTHON_VARIABLE}
    result = subprocess.run([sys.executable, "-m", "govern", "--version"], capture_output=True, text=True,
                            check=True, env={**environment, PURE_PYTHON_VARIABLE: "1"})
    count = len(COMPILED_MODULES)
    expected = f"govern, version {govern.__version__} (0 of {count} modules compiled; "
    if os.environ.get(EXPECT_COMPILED):  # every module has an extension, which the variable rules out
        expected += f"{count} run their {SOURCE_ASKED})\n"
    assert result.stdout.startswith(expected)


def test_the_version_says_how_many_modules_run_compiled():
    from click.testing import CliRunner

    from govern.cli import cli

    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    summary = compiled.summary()
    assert result.output == f"govern, version {govern.__version__} ({summary})\n"
    assert summary.startswith(f"{sum(reason == COMPILED for reason in compiled.status().values())} of "
                              f"{len(COMPILED_MODULES)} modules compiled")
    if os.environ.get(EXPECT_COMPILED):  # and in words, where every module compiled
        assert summary == f"{len(COMPILED_MODULES)} of {len(COMPILED_MODULES)} modules compiled"
