"""Compiles govern's hot modules (govern/compiled.py lists them) to C extensions with Cython, where it can.

Everything else about the package is in pyproject.toml. The extensions are optional: with GOVERN_NO_COMPILE=1 in
the environment, without a C compiler, for a module Cython cannot translate, or without Cython (only possible with
`pip install --no-build-isolation`: otherwise pip installs it for the build), the installation keeps the Python
source, which gives the same results. Each extension built is recorded (govern/compiled.py, `manifest_name`) with
the SHA-256 of the source translated, its file name and its size, and an extension runs only while all three
still hold.
"""

from __future__ import annotations

import json
import os
import runpy
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
COMPILED = runpy.run_path(os.path.join(HERE, "govern", "compiled.py"))  # (on its own: it imports only the stdlib)
NO_COMPILE_VARIABLE = "GOVERN_NO_COMPILE"
CYTHON_DIRECTIVES = {"language_level": 3,
                     # The source is plain Python: its annotations document, they do not declare C types.
                     "annotation_typing": False}


def _source(module: str) -> str:
    return os.path.join(*module.split(".")) + ".py"


def _say(message: str) -> None:
    print(f"govern build: {message}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Translates the listed modules when building (each on its own where translating them together fails), builds
    each extension it can, keeps the Python source for any other, and records the extensions built."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        self.built: list[str] = []
        self.translated: dict[str, str] = {}  # module -> SHA-256 of the source it was translated from
        if COMPILED["is_set"](NO_COMPILE_VARIABLE):
            _say(f"{NO_COMPILE_VARIABLE} is set: installing the Python source only")
            self.extensions = []
        else:
            self.extensions = self._translate(self.extensions)
        if self.extensions:
            try:
                super().run()
            except Exception as error:  # any failure of the toolchain: the sources run instead
                _say(f"compiling failed ({error}): installing the Python source only")
                self.built = []
        # What the build made, for the outputs an installation collects (a strict editable one links each).
        self.extensions = [extension for extension in self.extensions if extension.name in self.built]
        self._write_manifest()

    def _translate(self, extensions: list[Extension]) -> list[Extension]:
        """The extensions whose module Cython translated to C, now built from that C. Each source's digest is taken
        before it is translated, and translating is forced, so the C is never older than the digest recorded."""
        try:
            from Cython.Build import cythonize
        except ImportError:
            _say("Cython is not installed: installing the Python source only")
            return []
        digests = {extension.name: COMPILED["source_digest"](os.path.join(HERE, _source(extension.name)))
                   for extension in extensions}

        def translated(batch: list[Extension]) -> list[Extension]:
            # (the C files under this build's own temporary folder: builds for other interpreters, or at the same
            # time, write theirs elsewhere)
            return cythonize(batch, build_dir=os.path.join(self.build_temp, "cython"), force=True, quiet=True,
                             nthreads=self.parallel if len(batch) > 1 else 0, compiler_directives=CYTHON_DIRECTIVES)
        try:
            results = translated(extensions)
        except Exception:  # find the modules it cannot translate, one at a time
            results = []
            for extension in extensions:
                try:
                    results.extend(translated([extension]))
                except Exception as error:
                    _say(f"{extension.name} not translated ({error}): its Python source runs instead")
        kept = []
        by_name = {extension.name: extension for extension in extensions}
        for result in results:
            extension = by_name[result.name]
            extension.sources = list(result.sources)  # setuptools' own Extension, now of the C file
            self.translated[extension.name] = digests[extension.name]
            kept.append(extension)
        return kept

    def build_extension(self, extension: Extension) -> None:
        try:
            super().build_extension(extension)
        except Exception as error:  # this module's source runs instead
            _say(f"{extension.name} not compiled ({error}): its Python source runs instead")
            left = self.get_ext_fullpath(extension.name)  # (an earlier build's, which no package should carry)
            if os.path.exists(left):
                os.remove(left)
            return
        self.built.append(extension.name)

    def copy_extensions_to_source(self) -> None:
        # Only the extensions built: one that failed leaves no file to copy (its source runs).
        extensions, self.extensions = self.extensions, [ext for ext in self.extensions if ext.name in self.built]
        try:
            super().copy_extensions_to_source()
        finally:
            self.extensions = extensions

    def _manifest_files(self) -> tuple[str, str]:
        """The build record where the build puts it, and where an in-place build copies it."""
        # (named by the suffix of the extensions built, which is the suffix their interpreter imports first)
        name = COMPILED["manifest_name"](self.get_ext_filename("x")[1:])
        package_folder = self.get_finalized_command("build_py").get_package_dir(COMPILED["PACKAGE"])
        return os.path.join(self.build_lib, COMPILED["PACKAGE"], name), os.path.join(package_folder, name)

    def get_output_mapping(self) -> dict[str, str]:
        mapping = super().get_output_mapping()
        if self.inplace:
            regular, inplace = self._manifest_files()
            mapping[regular] = inplace
        return mapping

    def get_outputs(self) -> list[str]:
        outputs = super().get_outputs()
        regular, _ = self._manifest_files()
        return outputs if regular in outputs else sorted([*outputs, regular])

    def _write_manifest(self) -> None:
        modules = {}
        for name in sorted(self.built):
            built = os.path.join(self.build_lib, self.get_ext_filename(self.get_ext_fullname(name)))
            modules[name] = {"source": self.translated[name], "extension": os.path.basename(built),
                             "size": os.path.getsize(built)}
        regular, inplace = self._manifest_files()
        for path in (regular, inplace) if self.inplace else (regular,):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            temporary = path + ".tmp"
            with open(temporary, "w", encoding="utf-8") as handle:
                json.dump({"modules": modules}, handle, indent=2, sort_keys=True)
                handle.write("\n")
            os.replace(temporary, path)
        _say(f"compiled {len(modules)} of {len(COMPILED['COMPILED_MODULES'])} modules")


setup(
    # `optional`: a module that does not compile leaves its source to run (and nothing to copy in place).
    ext_modules=[Extension(name, [_source(name)], optional=True,
                           extra_compile_args=["-g0"] if os.name == "posix" else [])
                 for name in COMPILED["COMPILED_MODULES"]],
    cmdclass={"build_ext": OptionalBuildExt},
)
