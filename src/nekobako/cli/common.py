"""What several sub-commands share: the checked `--lang` option, reading a record file and
saying why the system refused a file.

They exist so that no input, however odd (`--lang fr`, a record saved as UTF-16 by PowerShell's
`>`, a file that is not there), ends in a traceback: each is answered with one line in `--lang`'s
language that says what to do instead.
"""

from __future__ import annotations

import codecs
import errno
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from ..engine import BadRecord, NekobakoError
from ..i18n import LANGS, Message, text

_BOMS = (  # UTF-32 first: its little-endian mark begins with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

_OS_REASONS = {
    errno.ENOENT: "cli.os.missing",
    errno.EACCES: "cli.os.permission",
    errno.EPERM: "cli.os.permission",
    errno.ENOTDIR: "cli.os.not_directory",
    errno.EISDIR: "cli.os.directory",
    errno.EEXIST: "cli.os.exists",
    errno.ENOSPC: "cli.os.full",
    errno.EROFS: "cli.os.read_only",
}


def check_lang(value: str) -> str:
    """An unknown language is refused in English (the fallback), naming the ones there are."""
    if value not in LANGS:
        raise typer.BadParameter(text("cli.usage.lang", "en", value=value))
    return value


def lang_option(help: str = "cli.help.lang") -> Any:
    """`--lang`, refused at once (exit 2, usage error) unless it is en or ja."""
    return typer.Option("en", "--lang", help=help, callback=check_lang)


def argv_lang(args: Sequence[str]) -> str:
    """The `--lang` of a command line before it is parsed (so that a mistake in it is worded in
    that language); English when there is none or it is not one of ours."""
    lang = "en"
    for i, arg in enumerate(args):  # the last one counts, as for the parser
        if arg == "--lang":
            lang = args[i + 1] if i + 1 < len(args) else ""
        elif arg.startswith("--lang="):
            lang = arg.removeprefix("--lang=")
    return lang if lang in LANGS else "en"


def os_reason(exc: OSError) -> Message:
    """Why the system refused a file, in words (the usual reasons; else its number and text)."""
    key = _OS_REASONS.get(exc.errno or 0)
    if key:
        return Message(key)
    return Message("cli.os.other", errno=exc.errno, detail=exc.strerror or str(exc))


def print_error(console: Console, words: str, lang: str, label: str = "cli.error") -> None:
    """One line on stderr: `error: …` in `lang`, never cut in two by the terminal's width."""
    console.print(
        f"[red]{escape(text('cli.label', lang, label=text(label, lang)))}[/]{escape(words)}",
        highlight=False,
        soft_wrap=True,
    )


class RecordFileError(NekobakoError):
    """A record file that cannot be read as text."""


def decode_record(data: bytes, name: Message | str) -> str:
    """Record bytes as text: UTF-8, or UTF-8 / UTF-16 / UTF-32 with a byte-order mark."""
    codec = next((codec for bom, codec in _BOMS if data.startswith(bom)), "utf-8")
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        raise RecordFileError(
            Message(
                "cli.file.not_text",
                name=name,
                codec=codec.upper().removesuffix("-SIG"),
                byte=f"{data[exc.start]:02x}",
                offset=exc.start,
            )
        ) from None


def parse_json(raw: str) -> Any:
    """The record's JSON; `BadRecord` says where it stops being JSON."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise BadRecord(Message("cli.file.not_json", line=exc.lineno, column=exc.colno)) from None


def read_record(path: Path) -> str:
    """The text of a record file ('-' is standard input); `RecordFileError` says why not."""
    if str(path) == "-":
        return decode_record(sys.stdin.buffer.read(), Message("cli.file.stdin"))
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise RecordFileError(Message("cli.file.directory", path=str(path))) from None
    except FileNotFoundError:
        raise RecordFileError(Message("cli.file.missing", path=str(path))) from None
    except OSError as exc:
        raise RecordFileError(Message("cli.file.unreadable", path=str(path), reason=os_reason(exc))) from None
    return decode_record(data, str(path))
