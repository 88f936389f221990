"""The client puts brackets and colons around translated words through `i18n.js` (`paren`,
`colon`, `sentences`), never as literal ASCII marks: a literal " (" shows half-width brackets in Japanese
("+2 (かたまり 2)"), which only a browser test that happens to reach that screen would catch."""

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "nekobako" / "web"
# " (${…", "${who}: ", " (", "): ", and two sentences joined by a space ("${base} ${t(…"):
# Japanese writes no space after 。 (i18n.js `sentences`)
LITERAL = re.compile(r"` \(\$\{|\$\{[^}]*\}: `|\" \(\"|\"\): \"|`\$\{\w+\} \$\{t\(")


def test_no_client_module_writes_brackets_or_colons_around_words_itself():
    found = [
        f"{path.relative_to(WEB)}:{number}: {line.strip()}"
        for path in sorted(WEB.rglob("*.js"))
        if path.name != "i18n.js"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if LITERAL.search(line)
    ]
    assert not found, "\n".join(found)
