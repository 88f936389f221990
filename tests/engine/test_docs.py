"""The examples in docs/engine.md run as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_engine_doc_example_runs(code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    printed = out.getvalue()
    for comment in re.findall(r"# (\[.*\]|[\d.]+%|shut [\d ]+|roll)$", code, flags=re.M):
        assert comment.strip() in printed, f"docs promise {comment!r}"


def test_there_are_examples():
    assert len(BLOCKS) >= 2
