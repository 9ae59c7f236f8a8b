"""What reading and normalizing the real schemas in the cache folder produces, written down to compare later.

    python benchmarks/normalization_check.py write FILE [--cache DIR]    (record the current results)
    python benchmarks/normalization_check.py compare FILE [--cache DIR]  (exit 1 when anything differs)

A change to reading or normalizing sources must leave every real schema's reading the same. For each file
of the real sets this harness uses (see benchmarks/README.md: both GitHub REST releases, every CloudFormation
resource schema of both cfn-lint releases, every Kubernetes schema of both versions, plain and strict), it
records the lines `govern digests FILE` prints (each root with its digest), and a SHA-256 of the whole
normalized graph as Python spells it (`repr` of every named type and root, the locations, notes and format
version), which also covers what digests leave out (descriptions, where alternatives and operands were
written) and so what reports and the inventory show. A file govern refuses is recorded with its messages.
Sets missing from the cache folder are skipped with a message (and then missing from the comparison too).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import (  # noqa: E402  (the benchmark's own pinned locations of the real sets)
    CFN_LINT_VERSIONS, GITHUB_FILE, GITHUB_VERSIONS, KUBERNETES_SCHEMAS, KUBERNETES_VALIDATE_VERSION,
    KUBERNETES_VERSIONS, cfn_resources,
)


def real_files(cache: Path) -> list[tuple[str, Path, str | None]]:
    """(label, file, dialect) of every real schema in the cache folder."""
    files: list[tuple[str, Path, str | None]] = []
    for version in GITHUB_VERSIONS:
        path = cache / "github" / version / GITHUB_FILE
        if path.is_file():
            files.append((f"github {version}", path, None))
        else:
            print(f"skipped: {path} is absent", file=sys.stderr)
    for version in CFN_LINT_VERSIONS:
        folder = cache / "cfn-lint" / version
        if not folder.is_dir():
            print(f"skipped: {folder} is absent", file=sys.stderr)
            continue
        # CloudFormation resource schemas extend draft-07 (some declare CloudFormation's own meta-schema).
        files += [(f"cfn {version} {name}", path, "draft-07") for name, path in sorted(cfn_resources(folder).items())
                  if path.is_file()]
    unpacked = cache / "kubernetes" / KUBERNETES_VALIDATE_VERSION
    for version in KUBERNETES_VERSIONS:
        for suffix in ("", "-strict"):
            folder = unpacked / (KUBERNETES_SCHEMAS.format(version=version) + suffix)
            if not folder.is_dir():
                print(f"skipped: {folder} is absent", file=sys.stderr)
                continue
            files += [(f"kubernetes {folder.name} {path.name}", path, None) for path in sorted(folder.glob("*.json"))]
    return files


def reading(path: Path, dialect: str | None) -> list[str]:
    """What govern makes of one file: its roots' digests and a hash of its whole normalized graph, or its
    messages when it refuses the file."""
    from govern.errors import InputError
    from govern.model.inventory import build_inventory
    from govern.sources.load import load_spec

    try:
        graph = load_spec(str(path), Path.cwd(), dialect=dialect)
    except InputError as error:
        return [f"refused: {problem}" for problem in error.problems]
    inventory = build_inventory([graph])
    lines = [f"{root.id}  {root.digest}" for root in inventory.roots.values()]
    whole = repr((sorted(graph.types.items()), sorted(graph.roots.items()), sorted(graph.locations.items()),
                  graph.notes, graph.format_version, graph.origin, sorted(graph.event_roots.items())))
    lines.append(f"graph {hashlib.sha256(whole.encode('utf-8')).hexdigest()}")
    return lines


def readings(cache: Path) -> dict[str, list[str]]:
    found = {}
    for label, path, dialect in real_files(cache):
        found[label] = reading(path, dialect)
    return found


def _text(found: dict[str, list[str]]) -> str:
    return "".join(f"{label}\t{line}\n" for label, lines in found.items() for line in lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("write", "compare"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--cache", type=Path, default=HERE / ".cache")
    options = parser.parse_args()
    from govern.process import own_the_collector

    own_the_collector()  # the collector as the command line runs it
    start = time.process_time()
    text = _text(readings(options.cache))
    print(f"{text.count(chr(10))} lines from the real schemas in {time.process_time() - start:.1f} s cpu",
          file=sys.stderr)
    if options.action == "write":
        options.file.write_text(text, encoding="utf-8")
        return 0
    recorded = options.file.read_text(encoding="utf-8").splitlines()
    now = text.splitlines()
    if recorded == now:
        print("the same", file=sys.stderr)
        return 0
    import difflib

    sys.stdout.writelines(line + "\n" for line in list(difflib.unified_diff(recorded, now, "recorded", "now",
                                                                              lineterm=""))[:200])
    return 1


if __name__ == "__main__":
    sys.exit(main())
