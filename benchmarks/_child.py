"""One measured run in a fresh process: a govern command in process, or the standard-library floor.

    python benchmarks/_child.py RESULT.json govern ARGS...     (run `govern ARGS` in process)
    python benchmarks/_child.py RESULT.json floor FILES...     (read, parse and SHA-256 every file)
    python benchmarks/_child.py RESULT.json records PROJECT    (read and parse every change record)
    python benchmarks/_child.py RESULT.json pairs PAIRS.json   (`govern diff OLD NEW` of every pair, each timed)
    python benchmarks/_child.py RESULT.json compiled           (how many of govern's modules run compiled)

Writes {"wall", "cpu", "peak"} to RESULT.json: seconds of wall clock and of CPU (user + system) of the
measured part, and the growth of the resident set during it in bytes (peak resident size minus the size
when the measured part began). Interpreter start-up is outside the measured part for both sides; govern's
command modules are imported before it, so the peak counts what the input costs, not the code.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import time


def _status_bytes(field: str) -> int:
    """A size from /proc/self/status: VmRSS now, VmHWM the peak of this process image (getrusage's
    ru_maxrss would also count the parent that forked this process)."""
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def _floor(paths: list[str]) -> None:
    for path in paths:
        with open(path, "rb") as handle:
            data = handle.read()
        hashlib.sha256(data).hexdigest()
        if path.endswith(".json"):
            json.loads(data)
        else:
            data.decode("utf-8").splitlines()


def _use_checkout(folder: str) -> None:
    """Import govern from another checkout even where an editable install of this one is on the path."""
    sys.meta_path[:] = [finder for finder in sys.meta_path
                        if not getattr(finder, "__module__", "").startswith("__editable__")]
    sys.path.insert(0, folder)


def _records(project: str) -> None:
    """Reading and parsing every record: the project's own record reader (front matter is YAML, which the
    standard library cannot parse) and json for the snapshots."""
    from pathlib import Path

    from govern.config import load_config
    from govern.records.history import load_history

    history = load_history(load_config(Path(project)))
    for record in history.records.values():
        json.loads(record.snapshot_bytes or b"null")


def _govern(args: list[str]):
    if os.environ.get("GOVERN_BENCH_CHECKOUT"):
        _use_checkout(os.environ["GOVERN_BENCH_CHECKOUT"])
    from govern.cli import main

    _import_commands()

    def run() -> None:
        sys.argv = ["govern", *args]
        try:
            main()
        except SystemExit as stop:
            if stop.code not in (0, None):
                raise SystemExit(f"govern {' '.join(args)} exited with {stop.code}") from None

    return run


def _import_commands() -> None:
    """The modules the measured commands import lazily, imported before the measured part."""
    import govern.catalog.render  # noqa: F401
    import govern.classify.classify  # noqa: F401
    import govern.classify.report  # noqa: F401
    import govern.model.inventory  # noqa: F401
    import govern.sources.load  # noqa: F401
    import govern.sources.openapi  # noqa: F401
    import govern.verify.checks  # noqa: F401
    import govern.records.create  # noqa: F401
    # The commands' own modules (the command line imports each on first use) and what reading the
    # configuration and the records imports on first use: code, not input. The witness search and the
    # validator it confirms with are imported only once some change needs a witness: a run with changes
    # would otherwise count an import that a run without changes does not.
    # The `regex` engine that searches `patternProperties` patterns (and `orjson`) are code the same way: imported
    # on first use, by any case with a pattern.
    for module in ("govern.cli.extract", "govern.cli.diff", "govern.cli.verify", "govern.cli.record", "govern.extract",
                   "govern.reader", "govern.catalog.formats", "govern.sources.locate", "govern.records.history",
                   "govern.witness.search", "govern.witness.render", "govern.patterns", "regex", "orjson",
                   "jsonschema", "jsonschema.exceptions",
                   "ruamel.yaml", "ruamel.yaml.nodes", "ruamel.yaml.error", "tomllib" if sys.version_info >= (3, 11)
                   else "tomli"):
        try:
            importlib.import_module(module)
        except ImportError:  # a module an older checkout (measured with --govern) does not have
            pass
    _resident_code()


def _resident_code() -> None:
    """Page in the machine code of govern's compiled modules (see govern/compiled.py) before the measured part.

    Importing a Python module reads all its bytecode; an extension's machine code is mapped from its file and read
    into memory page by page as it first runs, which would count the code (about 2 MB of pages) in the measured
    part's peak. One byte of every page of their mappings is read here, so the peak counts what the input costs."""
    import ctypes

    govern = sys.modules.get("govern")
    if govern is None or not getattr(govern, "__file__", None):
        return
    folder = os.path.dirname(os.path.realpath(govern.__file__)) + os.sep
    page = os.sysconf("SC_PAGE_SIZE")
    with open("/proc/self/maps", encoding="ascii", errors="replace") as handle:
        for line in handle:
            fields = line.split(maxsplit=5)
            if len(fields) < 6 or not fields[5].strip().startswith(folder) or "r" not in fields[1]:
                continue
            start, end = (int(value, 16) for value in fields[0].split("-"))
            for address in range(start, end, page):
                ctypes.c_ubyte.from_address(address).value  # noqa: B018  (the read is the point)


def _pairs(pairs_file: str) -> list[dict]:
    """`govern diff OLD NEW --format json [OPTIONS]` of every pair in process, each timed on its own (CPU
    and wall clock), with its exit status (2: govern refuses a side, which the caller counts apart)."""
    import contextlib
    import io

    from govern.cli import main as govern_main

    _import_commands()
    with open(pairs_file, encoding="utf-8") as handle:
        pairs = json.load(handle)
    timed = []
    for name, old, new, *options in pairs:
        sys.argv = ["govern", "diff", old, new, "--format", "json", *options]
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                govern_main()
                status = 0
            except SystemExit as stop:
                status = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 2
        timed.append({"name": name, "cpu": time.process_time() - start_cpu,
                      "wall": time.perf_counter() - start_wall, "status": status})
    return timed


def main() -> int:
    result_path, kind, *args = sys.argv[1:]
    if kind == "pairs":
        if os.environ.get("GOVERN_BENCH_CHECKOUT"):
            _use_checkout(os.environ["GOVERN_BENCH_CHECKOUT"])
        timed = _pairs(args[0])
        with open(result_path, "w", encoding="utf-8") as handle:
            json.dump({"pairs": timed}, handle)
        return 0
    if kind == "compiled":
        if os.environ.get("GOVERN_BENCH_CHECKOUT"):
            _use_checkout(os.environ["GOVERN_BENCH_CHECKOUT"])
        try:
            from govern.compiled import summary
        except ImportError:  # a checkout from before govern compiled any module
            text = "no module compiled (this checkout has none to compile)"
        else:
            text = summary()
        with open(result_path, "w", encoding="utf-8") as handle:
            json.dump({"summary": text}, handle)
        return 0
    if kind == "govern":
        task = _govern(args)
    elif kind == "records":
        if os.environ.get("GOVERN_BENCH_CHECKOUT"):
            _use_checkout(os.environ["GOVERN_BENCH_CHECKOUT"])
        import govern.records.history  # noqa: F401  (code, not input: imported before the measured part)
        task = lambda: _records(args[0])  # noqa: E731
    else:
        task = lambda: _floor(args)  # noqa: E731
    start_rss = _status_bytes("VmRSS")
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    task()
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    peak = _status_bytes("VmHWM") - start_rss
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump({"wall": wall, "cpu": cpu, "peak": max(peak, 0)}, handle)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
