"""web/delta.js applies the server's patches exactly as server/deltas.py does: random JSON pairs
and their patches from Python, applied by node (the browser's JavaScript, without a browser), and
the old value never changed (issue 17)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from nekobako.server.deltas import apply, diff

DELTA_JS = Path(__file__).resolve().parents[2] / "src" / "nekobako" / "web" / "delta.js"


def value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, -3, 2.5])  # no 1.0: JavaScript has one number type
    if kind == 3:
        return rng.choice(["", "a", "猫", "play 3 red"])
    if kind in (4, 5):
        return [value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice("abcde"): value(rng, depth + 1) for _ in range(rng.randrange(5))}


def mutate(rng: random.Random, v):
    if isinstance(v, list) and v and rng.random() < 0.7:
        out = [mutate(rng, x) if rng.random() < 0.3 else x for x in v]
        return (
            out + [value(rng, 2) for _ in range(rng.randrange(3))]
            if rng.random() < 0.5
            else out[: rng.randrange(len(out) + 1)]
        )
    if isinstance(v, dict) and rng.random() < 0.7:
        out = {k: (mutate(rng, x) if rng.random() < 0.4 else x) for k, x in v.items() if rng.random() < 0.85}
        if rng.random() < 0.4:
            out[rng.choice("fgh")] = value(rng, 2)
        return out
    return value(rng) if rng.random() < 0.5 else v


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_delta_js_matches_the_python_patches():
    rng = random.Random(17)
    cases = []
    for _ in range(400):
        old = value(rng)
        new = mutate(rng, old)
        patch = diff(old, new)
        assert apply(old, patch) == new
        cases.append({"old": old, "patch": patch, "new": new})
    script = (
        f"import {{ applyPatch }} from {json.dumps(DELTA_JS.as_uri())};\n"
        "let text = '';\n"
        "process.stdin.on('data', (d) => (text += d));\n"
        "process.stdin.on('end', () => {\n"
        "  const out = JSON.parse(text).map((c) => {\n"
        "    const before = JSON.stringify(c.old);\n"
        "    const got = applyPatch(c.old, c.patch);\n"
        "    return { got: got === undefined ? null : got, untouched: JSON.stringify(c.old) === before };\n"
        "  });\n"
        "  process.stdout.write(JSON.stringify(out));\n"
        "});\n"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    for case, result in zip(cases, results, strict=True):
        assert result["untouched"], case
        assert json.dumps(result["got"], sort_keys=True) == json.dumps(case["new"], sort_keys=True), case
