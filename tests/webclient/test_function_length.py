"""No function of the browser client runs past 150 lines (issue 31): the table and lobby pages were
each one closure of about 650 lines holding state, drawing and socket handling; they are now a
reducer, drawing functions and socket handlers in modules of their own (docs/web.md), and this
keeps them so.

The spans are found by a small scanner of the JavaScript (strings, template literals, comments
and regular expressions skipped; a block is a function's body when `=>` or a parameter list that
follows no `if`/`for`/`while`/`switch`/`catch` opens it), checked here on a tricky sample, and,
where Biome is installed, against Biome's own `noExcessiveLinesPerFunction`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "nekobako" / "web"
MOST = 150  # lines of code in a function's body: blank lines and comment lines left out, as Biome counts
CONTROL = {"if", "for", "while", "switch", "catch", "with"}
# after one of these (or nothing), a `/` begins a regular expression rather than dividing
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
REGEX_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await"}


def _skip_string(src: str, i: int, quote: str) -> int:
    i += 1
    while src[i] != quote:
        i += 2 if src[i] == "\\" else 1
    return i + 1


def _skip_regex(src: str, i: int) -> int:
    i += 1
    in_class = False
    while True:
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            return i + 1
        i += 1


def function_spans(src: str) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of every function body in `src` (lines from 1)."""
    spans: list[tuple[str, int, int]] = []
    # open blocks: (is a function, its name, line) or "template" for a `${` inside a template literal
    stack: list[tuple[bool, str, int] | str] = []
    code: list[tuple[int, str]] = []  # significant characters seen, with their offsets
    i = 0
    line_at = [0]  # offsets where lines start
    for m in re.finditer("\n", src):
        line_at.append(m.end())

    def line(offset: int) -> int:
        lo, hi = 0, len(line_at)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if line_at[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1

    def word_before(end: int) -> str:
        m = re.search(r"([A-Za-z_$][\w$]*)\s*$", src[max(0, end - 200) : end])
        return m.group(1) if m else ""

    def opens_function(at: int) -> tuple[bool, str]:
        start = max(0, at - 4000)  # a signature is shorter than that
        before = src[start:at].rstrip()
        if before.endswith("=>"):
            m = re.search(r"(?:const|let|var)?\s*([\w$]+)\s*=\s*(?:async\s*)?(?:\([^()]*\)|[\w$]+)\s*=>$", before)
            return True, m.group(1) if m else "(arrow)"
        if not before.endswith(")"):
            return False, ""
        depth = 0
        for j in range(len(before) - 1, -1, -1):  # the parameter list's `(`
            if before[j] == ")":
                depth += 1
            elif before[j] == "(":
                depth -= 1
                if depth == 0:
                    name = word_before(start + j)
                    if name in CONTROL:
                        return False, ""
                    return True, name if name and name != "function" else "(function)"
        return False, ""

    def template(i: int) -> int:
        """From a backtick (or after a `${ … }`), to the end of the template or its next `${`."""
        while True:
            c = src[i]
            if c == "\\":
                i += 2
            elif c == "`":
                return i + 1
            elif c == "$" and src[i + 1] == "{":
                stack.append("template")
                return i + 2
            else:
                i += 1

    while i < len(src):
        c = src[i]
        if c in " \t\r\n":
            i += 1
        elif src.startswith("//", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
        elif src.startswith("/*", i):
            i = src.index("*/", i) + 2
        elif c in "\"'":
            i = _skip_string(src, i, c)
            code.append((i - 1, "s"))
        elif c == "`":
            i = template(i + 1)
            code.append((i - 1, "s"))
        elif c == "/":
            prev = code[-1][1] if code else ""
            if not code or prev in REGEX_AFTER or word_before(i) in REGEX_WORDS:
                i = _skip_regex(src, i)
                code.append((i - 1, "r"))
            else:
                code.append((i, c))
                i += 1
        elif c == "{":
            is_function, name = opens_function(i)
            stack.append((is_function, name, line(i)))
            code.append((i, c))
            i += 1
        elif c == "}":
            top = stack.pop()
            if top == "template":
                i = template(i + 1)
                code.append((i - 1, "s"))
                continue
            assert not isinstance(top, str)
            is_function, name, first = top
            if is_function:
                spans.append((name, first, line(i)))
            code.append((i, c))
            i += 1
        else:
            code.append((i, c))
            i += 1
    assert not stack, "unbalanced braces"
    return spans


def code_lines(lines: list[str], first: int, last: int) -> int:
    """The lines of code between a body's braces (lines from 1): no blank line, no comment line."""
    body = (text.strip() for text in lines[first : last - 1])
    return sum(1 for text in body if text and not text.startswith(("//", "/*", "*")))


def longest() -> list[tuple[int, str]]:
    """(lines of code, "file:line name") of every function of the client, longest first."""
    out = []
    for path in sorted(WEB.rglob("*.js")):
        src = path.read_text(encoding="utf-8")
        lines = src.splitlines()
        for name, first, last in function_spans(src):
            out.append((code_lines(lines, first, last), f"{path.relative_to(WEB)}:{first} {name}"))
    return sorted(out, reverse=True)


def _key(where: str) -> str:
    return f"{where.split(':', 1)[0]} {where.split(' ', 1)[1]}"


def test_no_client_function_is_longer_than_150_lines():
    found = longest()
    assert len(found) > 300, "the scanner found too few functions to be trusted"
    too_long = [f"{where}: {n} lines" for n, where in found if n > MOST]
    assert not too_long, "split these into smaller functions (docs/web.md):\n" + "\n".join(too_long)


def test_the_scanner_measures_what_it_should():
    sample = """const re = /\\{[}]/g; // a { in a comment
function outer(a) {
  if (a) {
    const s = "}" + '{' + `${a ? `{${"}"}` : "x"}}`;
  }
  const inner = (x) => {
    return x / 2 / 1;
  };
  return inner;
}
class C {
  method(b) {
    switch (b) {
      default:
        return { b };
    }
  }
}
const arrow = async () => {
  /* } */
};
for (const k of []) {
}
"""
    assert function_spans(sample) == [("inner", 6, 8), ("outer", 2, 10), ("method", 12, 17), ("arrow", 19, 21)]


def test_the_longest_functions_are_found():
    """The pages' `mount` and the games' `render` are where they were; a scanner that lost its way
    in some file would miss them."""
    names = {_key(where) for _, where in longest()}
    assert {"table.js mount", "lobby.js mount", "games/catbox.js render", "games/common.js describer"} <= names


def _biome() -> str | None:
    local = ROOT / "node_modules" / ".bin" / "biome"
    return str(local) if local.exists() else shutil.which("biome")


def test_biome_agrees(tmp_path: Path):
    """At a lower limit, where some functions are too long, whatever Biome finds too long the scanner
    finds too long as well (Biome counts a little fewer lines: not every line of a call spread over
    lines)."""
    biome = _biome()
    if biome is None:
        pytest.skip("Biome is not installed (npm ci)")
    low = 100
    rule = {"level": "error", "options": {"maxLines": low}}
    config = {"linter": {"rules": {"complexity": {"noExcessiveLinesPerFunction": rule}}}}
    (tmp_path / "biome.json").write_text(json.dumps(config))
    run = subprocess.run(
        [biome, "lint", f"--config-path={tmp_path}", "--only=complexity/noExcessiveLinesPerFunction", str(WEB)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    said = run.stdout + run.stderr
    told = re.findall(r"^(\S+\.js):(\d+):\d+ lint/complexity/noExcessiveLinesPerFunction", said, re.M)
    theirs = {f"{(ROOT / name).resolve().relative_to(WEB)}:{number}" for name, number in told}
    ours = {where.split(" ", 1)[0] for n, where in longest() if n > low}
    assert theirs, said
    assert theirs <= ours, said
