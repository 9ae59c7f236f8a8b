"""Extraction speed against the cost of merely parsing and hashing the same input.

Generates a JSON Schema with N named types (objects with a few properties, references between them,
enums and arrays), then times: (a) json.loads + sha256 of the text (the floor), (b) the full extraction
(adapter, normalization, per-type digests). Prints both and their ratio; the target is a ratio below 5.

    python benchmarks/extract_bench.py [--types 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path


def generate(types: int, seed: int = 7) -> dict:
    rng = random.Random(seed)
    defs = {}
    for index in range(types):
        properties = {
            "id": {"type": "string", "minLength": 1},
            "count": {"type": "integer", "minimum": 0, "maximum": rng.randint(1, 1000)},
            "state": {"enum": ["open", "closed", f"s{index % 17}"]},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
        }
        if index:
            properties["parent"] = {"$ref": f"#/$defs/T{rng.randrange(index)}"}
        if index > 1:
            properties["children"] = {"type": "array", "items": {"$ref": f"#/$defs/T{rng.randrange(index)}"}}
        defs[f"T{index}"] = {"type": "object", "properties": properties, "required": ["id", "state"]}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs, "$ref": f"#/$defs/T{types - 1}"}


def best(function, repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return min(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--types", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from govern.model.inventory import build_inventory
    from govern.sources.jsonschema import load_jsonschema

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.schema.json"
        text = json.dumps(generate(options.types), indent=2)
        path.write_text(text)
        floor = best(lambda: (json.loads(path.read_text()), hashlib.sha256(text.encode()).hexdigest()), options.repeat)

        def extract():
            graph = load_jsonschema("bench", path, {"Root": ("#", "record")}, Path(folder))
            build_inventory([graph])

        full = best(extract, options.repeat)
    print(f"types={options.types} bytes={len(text)}")
    print(f"parse+hash: {floor * 1000:.1f} ms")
    print(f"extract:    {full * 1000:.1f} ms")
    print(f"ratio:      {full / floor:.1f}x (target < 5x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
