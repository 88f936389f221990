"""One check for an error a person reads: it carries the expected stable key (what a client or test
names), and it words itself fully in English and in Japanese (no placeholder left unfilled, no
English left in the Japanese except notation and the values it quotes)."""

from __future__ import annotations

import re

from nekobako.engine import NekobakoError

# English a Japanese reader meets as it is: the language switch's own name; names of formats, keys,
# algorithms and protocol fields; notation (what a player types, quoted in a reason: "spare F").
# Names of people come in through placeholders and are taken out before the check.
NOT_TRANSLATED = {"English", "ISMCTS", "JSON", "Home", "End", "KiB", "Unicode", "ud", "udfff"}
NOT_TRANSLATED |= {"Content", "Type", "application", "json", "kind", "none", "fill", "true", "false"}
NOT_TRANSLATED |= {"shutbox", "greedy", "turn", "realtime", "seats", "free", "status", "actions", "options", "seed"}
NOT_TRANSLATED |= {"play", "discard", "predict", "start", "deal", "reveal", "hidden", "red", "roll", "dice", "shut"}
NOT_TRANSLATED |= {"hell", "bury", "pass", "give", "keep", "spare", "swap"}
# protocol fields and query parameters
NOT_TRANSLATED |= {"action", "move", "type", "seq", "chat", "sync", "ping", "text", "bank", "seconds", "lang"}
# the terminal's notation: commands, words typed at its prompt, bot parameters and their values, the
# Python API a researcher writes (`package.module:Class`, `choose(view, legal, rng)`), codes and formats
NOT_TRANSLATED |= {
    "nekobako",
    "replay",
    "rules",
    "reports",
    "tutorial",
    "all",
    "help",
    "board",
    "log",
    "quit",
    "en",
    "ja",
    "UTF",
}
NOT_TRANSLATED |= {"ismcts", "iterations", "exploration", "horizon", "kernel", "round", "game", "mod", "PettingZoo"}
NOT_TRANSLATED |= {"package", "module", "Class", "BotSpec", "choose", "view", "legal", "rng"}
NOT_TRANSLATED |= {"Ray", "ray", "pip", "install", "HOST", "PORT"}  # `simulate --ray`: the tool, its install
NOT_TRANSLATED |= {"learned", "weights", "python", "bots", "train"}  # the learned level, its file, its training command
# the -h pages only: the usage line's placeholders, value types and ranges, defaults, formats,
# addresses and the tools they name (kept apart: in a game's text "total" or "open" is English)
HELP_NOTATION = {"OPTIONS", "COMMAND", "ARGS", "bool", "str", "int", "float", "list", "path", "range", "x"}
HELP_NOTATION |= {"random", "total", "count", "digits", "any", "max", "sum", "never", "sqlite", "SQLite"}
HELP_NOTATION |= {"postgresql", "PostgreSQL", "user", "host", "db", "https", "Secure", "Forwarded"}
HELP_NOTATION |= {"NAME", "open", "tables", "docs", "server", "md", "Ctrl", "TCP", "RL", "PAGER", "less"}
HELP_NOTATION |= {"score", "scoring", "K", "records", "catbox", "catopomp", "serve", "solve", "simulate", "bench"}


def english_words(
    japanese: str, names: list[str] | tuple[str, ...] = (), notation: frozenset[str] | set[str] = frozenset()
) -> set[str]:
    """Words of two or more Latin letters left in a Japanese text once names, the untranslated
    words above and the caller's own `notation` are taken out (placeholders `{x}` too)."""
    for name in names:
        japanese = japanese.replace(name, "")
    bare = re.sub(r"\{\w+\}|--[\w-]+", "", japanese)  # placeholders and command-line options
    return set(re.findall(r"[A-Za-z]{2,}", bare)) - NOT_TRANSLATED - notation


def assert_worded(error: NekobakoError | BaseException, key: str) -> None:
    assert isinstance(error, NekobakoError), error
    assert error.code == key, f"{error.code} ({error}) is not {key}"
    en, ja = error.text("en"), error.text("ja")
    for text in (en, ja):
        assert text and not re.search(r"\{\w+\}", text), text
    assert en != ja, f"{key}: the Japanese is the English"
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja), f"{key}: {ja!r} is not Japanese"
