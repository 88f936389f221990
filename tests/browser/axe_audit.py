"""axe-core (pinned in package.json, installed by `make js-tools`) run inside a page. The server's
Content-Security-Policy (`script-src 'self'`) refuses inline <script> tags, so the library is
evaluated through the DevTools protocol (`page.evaluate`), which the policy does not govern;
`inject` checks that it worked."""

from __future__ import annotations

from functools import cache
from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

# Every rule axe runs by default (WCAG 2.0/2.1/2.2 A and AA, best practices), plus the one the
# audit of issue 17 also found: the visible label of a control is part of its accessible name.
OPTIONS = {"rules": {"label-content-name-mismatch": {"enabled": True}}, "resultTypes": ["violations"]}


@cache
def source() -> str:
    if not AXE.is_file():
        raise RuntimeError(f"{AXE} is missing: run `make js-tools` (npm ci)")
    return AXE.read_text(encoding="utf-8")


def inject(page) -> None:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source() + "\n;undefined")
    assert page.evaluate("() => typeof window.axe?.run === 'function'"), "axe-core did not load in the page"


def violations(page) -> list[dict]:
    """axe's violations for the page as it is now: [{id, impact, help, targets: [...]}]."""
    inject(page)
    found = page.evaluate("async (options) => (await axe.run(document, options)).violations", OPTIONS)
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "targets": [
                f"{' '.join(map(str, n['target']))} — {n.get('failureSummary', '')[:160]}" for n in v["nodes"][:6]
            ],
        }
        for v in found
    ]


def describe(found: list[dict]) -> str:
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["targets"]) for v in found)
