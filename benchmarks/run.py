"""Benchmarks of govern against targets, each next to a standard-library floor measured in the same run.

    python benchmarks/run.py [--quick] [--repeat N] [--cache DIR] [--govern DIR]

For every case the same inputs are timed two ways, alternately, each run in a fresh process
(benchmarks/_child.py): the govern command, and the floor, which reads, parses (json) and SHA-256-hashes
the same files with the standard library; for the record cases the floor reads and parses every change
record (front matter is YAML, which the standard library cannot parse, so it uses govern's record reader). Figures are medians of the runs; ratios compare CPU seconds
(user + system) of the measured parts, which a machine shared with other work disturbs far less than wall
clock. Beside each ratio, the lowest and highest of its rounds' own ratios (each govern run against the floor run
that followed it): a ratio target whose rounds fall on both sides of its limit is marked so, as its verdict then
tells the host's noise as much as govern's cost. Peak memory is the growth of the resident set during the command.
Figures that a target compares with
each other (a case's sizes, for the growth target; `diff` and `diff --witness`) are taken in turns, round after
round, so that a host whose speed drifts slows each of them alike.

Cases: `extract` of generated schemas with many named types, acyclic and one large recursive component;
`diff` between such a schema and its next release, and the same with `--witness`; `diff` of hostile shapes whose
full comparison is the product of the two graphs (a reference of the recursive component retargeted, a ring of
types whose content model is the type itself, each gaining a property), `diff --roots all` of the recursive
component with one type changed (every type a root), names added beside as many patterns
(`patternProperties`) and patterns beside as many names, a root reached through a chain of aliases whose object
changes, and a ring of equal types but one whose extra property is renamed; `verify` and `record new`
over generated histories of change records on many roots; the real GitHub REST description, two releases, and
real schema pairs (CloudFormation resources of two cfn-lint releases, Kubernetes types of two versions), each
skipped with a message unless fetched into the cache folder (see benchmarks/README.md); start-up and `verify`
of this repository.
Sizes are ten times apart (--quick stops one size earlier and repeats less). Generated inputs are cached
under the cache folder (default benchmarks/.cache, ignored by git).

`--govern DIR` measures another checkout of govern (for before and after figures) with the same harness.
Exit status: 0 when every target holds, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent
sys.path.insert(0, str(HERE))

import generators  # noqa: E402

GITHUB_VERSIONS = ("22.0.0", "23.0.2")  # @octokit/openapi releases (npm), pinned
GITHUB_FILE = "package/generated/api.github.com.json"
CFN_LINT_VERSIONS = ("1.40.0", "1.58.0")  # cfn-lint releases (PyPI), pinned: CloudFormation resource schemas
CFN_SCHEMAS = "cfnlint/data/schemas/providers"
CFN_REGION = "us-east-1"
KUBERNETES_VALIDATE_VERSION = "1.37.0"  # kubernetes-validate (PyPI), pinned: it ships several Kubernetes versions
KUBERNETES_VERSIONS = ("1.28.0", "1.37.0")
KUBERNETES_SCHEMAS = "kubernetes_validate/kubernetes-json-schema/v{version}-local"
KUBERNETES_NAMED = {"deployment": "deployment-apps-v1.json", "pod": "pod-v1.json", "job": "job-batch-v1.json",
                    "the whole set": "all.json"}
REAL_PAIR_LIMIT = 2.0  # seconds: no real schema pair above this


@dataclass
class Measure:
    wall: float
    cpu: float
    peak: int


@dataclass
class Row:
    case: str
    size: str
    govern: Measure
    floor: Measure | None
    input_bytes: int
    notes: str = ""
    # Each round's ratio: its govern run against the floor run that followed it (see `spread`); a round whose floor
    # took no measurable CPU time has none.
    round_ratios: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        return self.govern.cpu / self.floor.cpu if self.floor and self.floor.cpu > 0 else None

    def spread(self) -> str:
        """The lowest and highest of the rounds' ratios, for the reader: the ratio of the medians is the figure
        judged, and where the rounds fall on both sides of a limit, the verdict is the host's as much as govern's."""
        if len(self.round_ratios) < 2:
            return ""
        return f"rounds {min(self.round_ratios):.2f}x to {max(self.round_ratios):.2f}x"

    def straddles(self, limit: float) -> bool:
        """Whether some rounds measured within `limit` and others beyond it."""
        return bool(self.round_ratios) and min(self.round_ratios) <= limit < max(self.round_ratios)


@dataclass
class Target:
    name: str
    limit: str
    measured: str
    holds: bool | None  # None: not measured in this run (the reason in `measured`)
    straddles: bool = False  # rounds of the run measured on both sides of the limit (see Row.straddles)


@dataclass
class Step:
    """One case at one size: the govern command's arguments and folder, what its floor reads (`floor_files`, or
    another kind of floor run and its arguments), and what to do before each govern run."""
    case: str
    size: str
    args: list[str]
    floor_files: list[Path]
    cwd: Path
    prepare: Callable[[], None] | None = None
    notes: str = ""
    floor: tuple[str, list[str]] | None = None


@dataclass
class Harness:
    python: str
    govern_dir: Path
    repeat: int
    cache: Path
    rows: list[Row] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    compiled: str = ""  # how many of govern's modules run compiled (see compiled_summary)

    # --- running ---------------------------------------------------------------------------------------

    def _child(self, kind: str, args: list[str], cwd: Path) -> Measure:
        with tempfile.TemporaryDirectory() as folder:
            result = Path(folder) / "result.json"
            env = dict(os.environ, GOVERN_BENCH_CHECKOUT=str(self.govern_dir), PYTHONHASHSEED="0")
            completed = subprocess.run([self.python, str(HERE / "_child.py"), str(result), kind, *args], cwd=cwd,
                                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if completed.returncode != 0:
                raise SystemExit(f"benchmark run failed: {kind} {' '.join(args)}\n{completed.stderr}")
            data = json.loads(result.read_text())
        return Measure(data["wall"], data["cpu"], data["peak"])

    def compiled_summary(self) -> str:
        """How many of the measured govern's modules run compiled (see govern/compiled.py), as its children see it."""
        with tempfile.TemporaryDirectory() as folder:
            result = Path(folder) / "result.json"
            env = dict(os.environ, GOVERN_BENCH_CHECKOUT=str(self.govern_dir))
            completed = subprocess.run([self.python, str(HERE / "_child.py"), str(result), "compiled"], env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if completed.returncode != 0:
                raise SystemExit(f"benchmark run failed: compiled\n{completed.stderr}")
            return json.loads(result.read_text())["summary"]

    def run_pairs(self, listing: Path, cwd: Path) -> list[dict]:
        with tempfile.TemporaryDirectory() as folder:
            result = Path(folder) / "result.json"
            env = dict(os.environ, GOVERN_BENCH_CHECKOUT=str(self.govern_dir), PYTHONHASHSEED="0")
            completed = subprocess.run([self.python, str(HERE / "_child.py"), str(result), "pairs", str(listing)],
                                       cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if completed.returncode != 0:
                raise SystemExit(f"benchmark run failed: pairs\n{completed.stderr}")
            return json.loads(result.read_text())["pairs"]

    def measure(self, case: str, size: str, args: list[str], floor_files: list[Path], cwd: Path,
                prepare=None, notes: str = "", floor: tuple[str, list[str]] | None = None) -> Row:
        """Median of `repeat` runs of `govern ARGS` and of the floor, alternating. The floor reads, parses and
        hashes `floor_files`, unless `floor` names another kind of floor run and its arguments."""
        return self.measure_together([Step(case, size, args, floor_files, cwd, prepare, notes, floor)])[0]

    def measure_together(self, steps: list[Step]) -> list[Row]:
        """Figures that targets compare with each other (a case at its sizes; `diff` and `diff --witness`), taken
        in turns: each of `repeat` rounds runs every step once (its govern run followed by its floor), and each
        step's figures are the medians of its runs.

        Taken one after the other, a step would be timed minutes after the one it is compared with, and a host
        whose speed drifts meanwhile (a VM's neighbours) would show as growth or overhead; taken in turns, a
        slow stretch falls on each step alike."""
        if len(steps) > 1:
            print(f"  ({len(steps)} figures taken in turns, {self.repeat} rounds)", flush=True)
        runs: list[list[Measure]] = [[] for _ in steps]
        floors: list[list[Measure]] = [[] for _ in steps]
        for _ in range(self.repeat):
            for step, govern_runs, floor_runs in zip(steps, runs, floors):
                floor_kind, floor_args = step.floor or ("floor", [str(path) for path in step.floor_files])
                if step.prepare is not None:
                    step.prepare()
                govern_runs.append(self._child("govern", step.args, step.cwd))
                floor_runs.append(self._child(floor_kind, floor_args, step.cwd))
        rows = [Row(step.case, step.size, _median(govern_runs), _median(floor_runs),
                    sum(path.stat().st_size for path in step.floor_files), step.notes,
                    [run.cpu / floor.cpu for run, floor in zip(govern_runs, floor_runs) if floor.cpu > 0])
                for step, govern_runs, floor_runs in zip(steps, runs, floors)]
        self.rows += rows
        cases = list(dict.fromkeys(row.case for row in rows))
        for row in sorted(rows, key=lambda row: cases.index(row.case)):  # a case's sizes together, in their order
            print(f"  {row.case:<28} {row.size:<22} {_seconds(row.govern.cpu):>9} cpu {_seconds(row.govern.wall):>9} wall  "
                  f"floor {_seconds(row.floor.cpu):>9}  ratio {row.ratio:6.1f}x  peak {_megabytes(row.govern.peak)}"
                  f"{'  (' + row.spread() + ')' if row.spread() else ''}", flush=True)
        return rows

    def process(self, args: list[str], cwd: Path) -> float:
        """Median CPU seconds (user + system) of a whole process, start-up included, with the installed govern.

        As after an installation, Python's bytecode caches are used: a first run writes them where they are
        missing (also when PYTHONDONTWRITEBYTECODE is set in the environment, which would otherwise make
        every run compile every module of govern from source) and is not counted."""
        import resource

        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([self.python, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        timings = []
        for _ in range(max(self.repeat, 5)):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([self.python, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            timings.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        return statistics.median(timings)

    def target(self, name: str, limit: str, measured: str, holds: bool | None, straddles: bool = False) -> None:
        self.targets.append(Target(name, limit, measured, holds, straddles))

    def ratio_target(self, name: str, row: Row, limit: float) -> None:
        """A target on a row's ratio (the ratio of its medians), with the spread of its rounds beside it."""
        spread = row.spread()
        self.target(name, f"<= {limit:g}x", f"{row.ratio:.1f}x" + (f" ({spread})" if spread else ""),
                    row.ratio <= limit, row.straddles(limit))


def _median(measures: list[Measure]) -> Measure:
    return Measure(statistics.median(m.wall for m in measures), statistics.median(m.cpu for m in measures),
                   int(statistics.median(m.peak for m in measures)))


def _seconds(value: float) -> str:
    return f"{value:.3f}s" if value < 10 else f"{value:.1f}s"


def _megabytes(value: int) -> str:
    return f"{value / 1e6:.1f} MB"


# --- cases ---------------------------------------------------------------------------------------------


def bench_types(harness: Harness, sizes: list[int]) -> None:
    print("extract and diff of generated schemas (one root; diff against its baseline record)", flush=True)
    for recursive in (False, True):
        label = "recursive" if recursive else "acyclic"
        steps = []
        for size in sizes:
            folder = harness.cache / f"types-{label}-{size}"
            if not (folder / ".complete").is_file():
                print(f"  (generating {size} {label} types and their baseline record, once)", flush=True)
                document = generators.named_types(size, recursive=recursive)
                generators.release_project(folder, document, generators.changed(document))
                (folder / ".complete").write_text("", encoding="utf-8")
            source = folder / "schemas" / "bench.schema.json"
            snapshot = next((folder / "records").glob("*.schema.json"))
            generated = folder / "schemas" / "inventory.json"
            steps += [Step(f"extract {label}", f"{size} types", ["extract"], [source], folder,
                           prepare=lambda generated=generated: generated.unlink(missing_ok=True)),
                      Step(f"diff {label}", f"{size} types", ["diff", "--format", "json"], [snapshot, source], folder),
                      Step(f"witness {label}", f"{size} types", ["diff", "--format", "json", "--witness"],
                           [snapshot, source], folder)]
        harness.measure_together(steps)


HOSTILE_CASES = ("diff retargeted", "diff content-model ring", "diff many roots", "diff many patterns",
                 "diff alias chain", "diff ring of equals", "diff ring read by a union")


def bench_hostile(harness: Harness, sizes: list[int]) -> None:
    """Shapes whose full comparison is the product of the two graphs: the walk's limits keep them linear. And
    every type of a recursive component a root, where each root's own walk would enter every pair of the
    component: past what their own walks may enter in all, the roots are walked together. And names added beside
    many patterns (and patterns beside many names), each asked of each other: the patterns are searched together.
    And a chain of aliases, which every reader follows to its end: each follows it once. And a ring of equal types
    but one, told apart one member per refinement round: past the hashed rounds, refined by its split history. And
    that ring read by a union of every member, which the split history looks at again for what changed in it."""
    print("diff of hostile shapes (two schema files; the full comparison would be quadratic)", flush=True)

    def retargeted(size: int) -> tuple[dict, dict]:
        # one reference of a large recursive component retargeted: pairs of types of different names
        document = generators.named_types(size, recursive=True)
        return document, generators.retargeted(document)

    def ring(size: int) -> tuple[dict, dict]:
        # every type's added property asks a question about a pair of members, inside the last one's
        return generators.ring_of_content_models(size), generators.ring_of_content_models(size, extra=True)

    def many_roots(size: int) -> tuple[dict, dict]:
        # one type of the component gains a property: every member's digest changes, and every root reaches it
        document = generators.named_types(size, recursive=True)
        return document, generators.one_changed(document)

    def many_patterns(size: int) -> tuple[dict, dict]:
        # names added beside as many patterns, and patterns beside as many names: each asked of each other
        return generators.patterns_and_names(size), generators.patterns_and_names(size, added=True)

    def ring_of_equals(size: int) -> tuple[dict, dict]:
        # equal types but one, told apart one member per refinement round: the one's extra property renamed
        return generators.ring_of_equals(size, "x"), generators.ring_of_equals(size, "y")

    def ring_read_by_a_union(size: int) -> tuple[dict, dict]:
        # the ring of equals, one member holding a union of the whole ring: a node that reads every member
        return generators.ring_with_wide_union(size, "x"), generators.ring_with_wide_union(size, "y")

    def alias_chain(size: int) -> tuple[dict, dict]:
        # the root reaches its object through as many aliases: every reader follows the chain to its end
        return generators.alias_chain(size), generators.alias_chain(size, extended=True)

    # case: how to make its two sides, the options of the diff, its folder in the cache, what its size counts
    shapes = {HOSTILE_CASES[0]: (retargeted, [], "retargeted", "types"),
              HOSTILE_CASES[1]: (ring, [], "content-model", "types"),
              HOSTILE_CASES[2]: (many_roots, ["--roots", "all"], "many", "types"),
              HOSTILE_CASES[3]: (many_patterns, [], "patterns", "patterns, names"),
              HOSTILE_CASES[4]: (alias_chain, [], "aliases", "aliases"),
              HOSTILE_CASES[5]: (ring_of_equals, [], "equals", "types"),
              HOSTILE_CASES[6]: (ring_read_by_a_union, [], "union-ring", "types")}
    for case, (make, options, slug, unit) in shapes.items():
        steps = []
        for size in sizes:
            folder = harness.cache / f"hostile-{slug}-{size}"
            old, new = folder / "old.json", folder / "new.json"
            if not (folder / ".complete").is_file():
                print(f"  (generating {case.split(maxsplit=1)[1]} of {size} {unit}, once)", flush=True)
                before, after = make(size)
                generators.write_json(old, before)
                generators.write_json(new, after)
                (folder / ".complete").write_text("", encoding="utf-8")
            steps.append(Step(case, f"{size} {unit}", ["diff", "--format", "json", *options, old.name, new.name], [old, new],
                              folder))
        harness.measure_together(steps)


def _history(harness: Harness, roots: int, records: int) -> Path:
    folder = harness.cache / f"history-{roots}-{records}"
    if not (folder / ".complete").is_file():
        print(f"  (generating a history of {records} records over {roots} roots, once)", flush=True)
        generators.history_project(folder, roots, records)
        (folder / ".complete").write_text("", encoding="utf-8")
    return folder


def bench_records(harness: Harness, sizes: list[tuple[int, int]]) -> None:
    print("verify and record new over histories of change records", flush=True)
    verify, record_new = [], []
    with tempfile.TemporaryDirectory() as scratch:
        prose = Path(scratch) / "prose.yaml"
        prose.write_text(json.dumps(generators.PROSE), encoding="utf-8")
        for roots, records in sizes:
            folder = _history(harness, roots, records)
            record_files = sorted((folder / "records").iterdir())
            verify.append(Step("verify", f"{records} records/{roots} roots", ["verify"], record_files, folder,
                               floor=("records", [str(folder)]), notes="floor: reading and parsing every record"))
            work = Path(scratch) / f"project-{roots}-{records}"

            def fresh_copy(folder: Path = folder, work: Path = work, roots: int = roots, records: int = records) -> None:
                if work.exists():
                    shutil.rmtree(work)
                shutil.copytree(folder, work)
                generators.pending_change(work, roots, records)

            record_new.append(Step("record new", f"{records} records/{roots} roots",
                                   ["record", "new", "bench-next", "--prose", str(prose), "--date", "2026-01-02"],
                                   record_files, work, prepare=fresh_copy, floor=("records", [str(folder)]),
                                   notes="in a fresh copy with one pending change; floor: reading and parsing every "
                                         "record"))
        harness.measure_together(verify)
        harness.measure_together(record_new)


def bench_github(harness: Harness, cache: Path) -> Row | None:
    print("the GitHub REST description, two releases", flush=True)
    old, new = (cache / "github" / version / GITHUB_FILE for version in GITHUB_VERSIONS)
    if not (old.is_file() and new.is_file()):
        print(f"  skipped: {old} and {new} are absent; fetch them as benchmarks/README.md shows", flush=True)
        return None
    row = harness.measure("diff github", f"{GITHUB_VERSIONS[0]} -> {GITHUB_VERSIONS[1]}",
                          ["diff", str(old), str(new), "--format", "json"], [old, new], cache)
    extract = harness.measure("digests github (both)", "two releases", ["digests", str(old), str(new)], [old, new], cache)
    harness.target("real OpenAPI diff (GitHub REST, two releases) under 10 s", "< 10 s cpu",
                   f"{row.govern.cpu:.1f} s cpu ({row.govern.wall:.1f} s wall)", row.govern.cpu < 10)
    harness.target("real OpenAPI diff within 5x of extracting both sides", "<= 5x",
                   f"{row.govern.cpu / extract.govern.cpu:.1f}x", row.govern.cpu <= 5 * extract.govern.cpu)
    return row


def cfn_resources(folder: Path) -> dict[str, Path]:
    """CloudFormation type name -> resource schema of one region, in either layout cfn-lint has shipped:
    providers/<region>/*.json (older releases) or providers/<region>.json naming files in resources/."""
    region = folder / CFN_SCHEMAS
    index = region / f"{CFN_REGION}.json"
    if index.is_file():
        names = json.loads(index.read_text(encoding="utf-8"))
        return {name: folder / "cfnlint/data/schemas/resources" / f"{digest}.json" for name, digest in names.items()}
    found = {}
    for path in sorted((region / CFN_REGION.replace("-", "_")).glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(document, dict) and isinstance(document.get("typeName"), str):
            found[document["typeName"]] = path
    return found


def real_pairs(cache: Path) -> tuple[list[tuple[str, Path, Path]], list[str]]:
    """(name, old, new) of every real pair in the cache folder, and what is missing (see benchmarks/README.md)."""
    pairs, missing = [], []
    old, new = (cache / "cfn-lint" / version for version in CFN_LINT_VERSIONS)
    if (old / CFN_SCHEMAS).is_dir() and (new / CFN_SCHEMAS).is_dir():
        before, after = cfn_resources(old), cfn_resources(new)
        pairs += [(f"cfn {name}", before[name], after[name]) for name in sorted(before.keys() & after.keys())
                  if before[name].is_file() and after[name].is_file()]
    else:
        missing.append(f"cfn-lint {' and '.join(CFN_LINT_VERSIONS)} (looked for in {cache / 'cfn-lint'})")
    unpacked = cache / "kubernetes" / KUBERNETES_VALIDATE_VERSION
    old, new = (unpacked / KUBERNETES_SCHEMAS.format(version=version) for version in KUBERNETES_VERSIONS)
    if old.is_dir() and new.is_dir():
        named = set(KUBERNETES_NAMED.values())
        pairs += [(f"kubernetes {label}", old / file, new / file) for label, file in KUBERNETES_NAMED.items()]
        pairs += [(f"kubernetes {path.stem}", path, new / path.name) for path in sorted(old.glob("*.json"))
                  if path.name not in named and not path.name.startswith("_") and (new / path.name).is_file()]
    else:
        missing.append(f"kubernetes-validate {KUBERNETES_VALIDATE_VERSION} (looked for in {unpacked})")
    return pairs, missing


def _pair_options(name: str) -> list[str]:
    # CloudFormation resource schemas extend draft-07; some declare CloudFormation's own meta-schema as
    # `$schema`, which govern reads only when told the dialect.
    return ["--dialect", "draft-07"] if name.startswith("cfn ") else []


def bench_real_pairs(harness: Harness, cache: Path, quick: bool) -> None:
    """Every real pair once, in one process (each pair timed on its own), then the slowest again in fresh
    processes, median of `repeat` runs: the target is judged on those."""
    print("real schema pairs: CloudFormation resources (two cfn-lint releases), Kubernetes types "
          f"({' vs '.join(KUBERNETES_VERSIONS)})", flush=True)
    pairs, missing = real_pairs(cache)
    for what in missing:
        print(f"  skipped: {what} not found; fetch it as benchmarks/README.md shows", flush=True)
    if not pairs:
        harness.target(f"no real schema pair above {REAL_PAIR_LIMIT:.0f} s", f"<= {REAL_PAIR_LIMIT:.0f} s cpu",
                       "skipped: no real pairs in the cache folder", None)
        return
    if quick:  # every tenth pair, and the named Kubernetes pairs
        pairs = [pair for index, pair in enumerate(pairs) if index % 10 == 0 or pair[0].startswith("kubernetes ")
                 and pair[1].name in KUBERNETES_NAMED.values()]
    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / "pairs.json"
        listing.write_text(json.dumps([[name, str(old), str(new), *_pair_options(name)] for name, old, new in pairs]),
                           encoding="utf-8")
        timed = harness.run_pairs(listing, cache)
    refused = [entry for entry in timed if entry["status"] == 2]
    compared = [entry for entry in timed if entry["status"] != 2]
    for family in ("cfn", "kubernetes"):
        cpus = sorted(entry["cpu"] for entry in compared if entry["name"].startswith(family + " "))
        if cpus:
            print(f"  {family:<11} {len(cpus):>5} pairs  median {_seconds(statistics.median(cpus))} cpu  "
                  f"worst {_seconds(cpus[-1])} cpu", flush=True)
    if refused:
        print(f"  {len(refused)} pairs refused (exit 2: a side govern cannot read, e.g. an unknown $schema): "
              + ", ".join(entry["name"] for entry in refused[:5]) + (" ..." if len(refused) > 5 else ""), flush=True)
    by_name = {name: (old, new) for name, old, new in pairs}
    slowest = sorted(compared, key=lambda entry: -entry["cpu"])[:3]
    named = [entry for entry in compared if entry["name"] in {f"kubernetes {label}" for label in KUBERNETES_NAMED}]
    for entry in slowest + [entry for entry in named if entry not in slowest]:
        old, new = by_name[entry["name"]]
        harness.measure(f"real pair: {entry['name']}", "one pair",
                        ["diff", str(old), str(new), "--format", "json", *_pair_options(entry["name"])], [old, new], cache)
    rows = [_row(harness, f"real pair: {entry['name']}", "one pair") for entry in slowest]
    worst = max(rows, key=lambda row: row.govern.cpu)
    median = statistics.median(entry["cpu"] for entry in compared)
    sample = " (quick run: every tenth pair)" if quick else ""
    harness.target(f"no real schema pair above {REAL_PAIR_LIMIT:.0f} s ({len(compared)} pairs{sample})",
                   f"<= {REAL_PAIR_LIMIT:.0f} s cpu",
                   f"worst {worst.govern.cpu:.2f} s cpu ({worst.case.removeprefix('real pair: ')}), median "
                   f"{median:.2f} s", worst.govern.cpu <= REAL_PAIR_LIMIT)
    for label in KUBERNETES_NAMED:
        row = _row(harness, f"real pair: kubernetes {label}", "one pair")
        if row is not None:
            harness.target(f"Kubernetes {label} {' vs '.join(KUBERNETES_VERSIONS)} under {REAL_PAIR_LIMIT:.0f} s",
                           f"<= {REAL_PAIR_LIMIT:.0f} s cpu", f"{row.govern.cpu:.2f} s cpu ({row.govern.wall:.2f} s wall)",
                           row.govern.cpu <= REAL_PAIR_LIMIT)


def bench_startup(harness: Harness) -> None:
    print("start-up, and verify of this repository (whole processes, CPU seconds)", flush=True)
    # The program as users run it: the installed console script (which ends its process without tearing the
    # interpreter down, see govern.cli.run), or `python -m govern` where it is not installed.
    script = Path(harness.python).parent / "govern"
    program = [str(script)] if script.is_file() else ["-m", "govern"]
    python = harness.process(["-c", "pass"], REPOSITORY)
    version = harness.process([*program, "--version"], REPOSITORY)
    verify = harness.process([*program, "verify"], REPOSITORY)
    print(f"  python -c pass {python:.3f}s   govern --version {version:.3f}s   govern verify {verify:.3f}s", flush=True)
    harness.target("`govern --version` within 3x of `python -c pass`", "<= 3x", f"{version / python:.1f}x",
                   version <= 3 * python)
    harness.target("`govern verify` on this repository within 10x of `python -c pass`", "<= 10x",
                   f"{verify / python:.1f}x", verify <= 10 * python)


# --- targets -------------------------------------------------------------------------------------------


def _row(harness: Harness, case: str, size: str) -> Row | None:
    return next((row for row in harness.rows if row.case == case and row.size == size), None)


def judge(harness: Harness, type_sizes: list[int], history_sizes: list[tuple[int, int]], full: bool) -> None:
    largest = type_sizes[-1]
    note = "" if full else f" (quick run: {largest} types; the target is stated for 10000)"
    for case in ("extract acyclic", "extract recursive", "diff acyclic", "diff recursive"):
        row = _row(harness, case, f"{largest} types")
        harness.ratio_target(f"`{case.split()[0]}` of {largest} named types, {case.split()[1]}, within 5x the floor{note}",
                             row, 5)
    roots, records = history_sizes[-1]
    row = _row(harness, "verify", f"{records} records/{roots} roots")
    note = "" if full else " (quick run; the target is stated for 1000 records over 100 roots)"
    harness.ratio_target(f"`verify` of {records} records over {roots} roots within 3x the floor{note}", row, 3)
    worst, where = 0.0, ""
    for case in sorted({row.case for row in harness.rows}):
        series = [row for row in harness.rows if row.case == case]
        for smaller, larger in zip(series, series[1:]):
            if larger.input_bytes < 5 * smaller.input_bytes:
                continue  # not a tenfold step (e.g. the real-world pair)
            growth = larger.govern.cpu / max(smaller.govern.cpu, 1e-9)
            if growth > worst:
                # (the floor's own growth over the same step, for the reader: past the host's last-level cache,
                # parsing alone grows faster than its input)
                floor = f"; the floor grew {larger.floor.cpu / smaller.floor.cpu:.1f}x" \
                    if larger.floor and smaller.floor and smaller.floor.cpu > 0 else ""
                worst, where = growth, f"{case}: {smaller.size} -> {larger.size}{floor}"
    harness.target("ten times the input costs at most twelve times the time, at every size", "<= 12x",
                   f"worst {worst:.1f}x ({where})", worst <= 12)
    # The hostile shapes are judged apart: their input is terse (a ring's type is 200 bytes) or their report is
    # many times their input (a retargeted component's misaligned pairs differ everywhere).
    for label, hostile in (("", False), (", hostile shapes", True)):
        big = [row for row in harness.rows
               if row.input_bytes >= 1_000_000 and (row.case in HOSTILE_CASES) == hostile]
        if big:
            worst_row = max(big, key=lambda row: row.govern.peak / row.input_bytes)
            factor = worst_row.govern.peak / worst_row.input_bytes
            harness.target(f"peak memory at most 10x the input size (inputs of 1 MB and more{label})", "<= 10x",
                           f"worst {factor:.1f}x ({worst_row.case}, {worst_row.size})", factor <= 10)
        elif not hostile:
            harness.target("peak memory at most 10x the input size", "<= 10x",
                           "no input of 1 MB or more in this run", None)


def judge_witness(harness: Harness, type_sizes: list[int], full: bool) -> None:
    """Witness documents cost at most as much again as the diff they annotate."""
    largest = type_sizes[-1]
    note = "" if full else f" (quick run: {largest} types; the target is stated for 10000)"
    for label in ("acyclic", "recursive"):
        plain = _row(harness, f"diff {label}", f"{largest} types")
        witnessed = _row(harness, f"witness {label}", f"{largest} types")
        overhead = witnessed.govern.cpu / max(plain.govern.cpu, 1e-9)
        harness.target(f"`diff --witness` of {largest} named types, {label}, within 2x of `diff`{note}", "<= 2x",
                       f"{overhead:.2f}x", overhead <= 2)


def report(harness: Harness) -> bool:
    print("\ntargets", flush=True)
    ok = True
    for target in harness.targets:
        verdict = "skipped" if target.holds is None else "holds" if target.holds else "FAILS"
        ok = ok and target.holds is not False
        aside = "; its rounds fell on both sides of the limit" if target.straddles else ""
        print(f"  [{verdict:>7}] {target.name}: {target.measured} (target {target.limit}{aside})", flush=True)
    return ok


def write_json_report(harness: Harness, path: Path, options) -> None:
    document = {
        "machine": {"platform": platform.platform(), "python": platform.python_version(),
                    "processor": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
                    "load": os.getloadavg()},
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "govern": str(harness.govern_dir), "compiled": harness.compiled, "quick": options.quick,
        "repeat": harness.repeat,
        "rows": [{"case": r.case, "size": r.size, "input_bytes": r.input_bytes,
                  "govern": vars(r.govern), "floor": vars(r.floor) if r.floor else None, "ratio": r.ratio,
                  "round_ratios": r.round_ratios, "notes": r.notes} for r in harness.rows],
        "targets": [vars(t) for t in harness.targets],
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer repeats (about a minute)")
    parser.add_argument("--repeat", type=int, default=None, help="runs per measurement (default 5, quick 3)")
    parser.add_argument("--cache", type=Path, default=HERE / ".cache",
                        help="generated inputs and fetched real-world files (default benchmarks/.cache)")
    parser.add_argument("--govern", type=Path, default=REPOSITORY, help="the govern checkout to measure")
    parser.add_argument("--json", type=Path, default=None, help="also write every figure to this JSON file")
    parser.add_argument("--only", choices=["types", "hostile", "records", "github", "pairs", "startup"],
                        action="append",
                        help="run only these groups (repeatable); targets of the others are not judged")
    options = parser.parse_args()
    options.cache.mkdir(parents=True, exist_ok=True)
    harness = Harness(sys.executable, options.govern.resolve(), options.repeat or (3 if options.quick else 5),
                      options.cache.resolve())
    type_sizes = [100, 1000] if options.quick else [100, 1000, 10000]
    history_sizes = [(1, 10), (10, 100)] if options.quick else [(1, 10), (10, 100), (100, 1000)]
    groups = options.only or ["types", "hostile", "records", "github", "pairs", "startup"]
    harness.compiled = compiled = harness.compiled_summary()
    print(f"govern at {harness.govern_dir} ({compiled}); {harness.repeat} runs per figure; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cpus", flush=True)
    counts = compiled.split()[:3]  # "12 of 12 modules compiled" (a checkout from before has nothing to compile)
    if len(counts) == 3 and counts[0].isdigit() and counts[0] != counts[2]:
        print("  note: figures of modules run from their Python source; `pip install -e .` where a C compiler is at "
              "hand compiles them (see the README)", flush=True)
    if "types" in groups:
        bench_types(harness, type_sizes)
    if "hostile" in groups:
        bench_hostile(harness, type_sizes)
    if "records" in groups:
        bench_records(harness, history_sizes)
    if "github" in groups:
        if bench_github(harness, harness.cache) is None:
            harness.target("real OpenAPI diff (GitHub REST, two releases) under 10 s", "< 10 s",
                           "skipped: the two releases are not in the cache folder", None)
    if "pairs" in groups:
        bench_real_pairs(harness, harness.cache, options.quick)
    if "startup" in groups and harness.govern_dir == REPOSITORY:
        bench_startup(harness)  # whole processes: they run the installed govern, so only for this checkout
    if "types" in groups:
        judge_witness(harness, type_sizes, not options.quick)
    if "types" in groups and "records" in groups:
        judge(harness, type_sizes, history_sizes, not options.quick)
    ok = report(harness)
    if options.json:
        write_json_report(harness, options.json, options)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
