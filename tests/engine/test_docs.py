"""The Python examples in docs/engine.md and the README run as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "engine.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
README_BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("code", BLOCKS + README_BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS + README_BLOCKS))])
def test_engine_doc_example_runs(code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    printed = out.getvalue()
    for comment in re.findall(r"# (\[.*\]|[\d.]+%|shut [\d ]+|roll)$", code, flags=re.M):
        assert comment.strip() in printed, f"docs promise {comment!r}"


def test_there_are_examples():
    assert len(BLOCKS) >= 2 and README_BLOCKS
