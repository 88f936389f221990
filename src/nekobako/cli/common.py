"""What several sub-commands share: the checked `--lang` option and reading a record file.

Both exist so that no input, however odd (`--lang fr`, a record saved as UTF-16 by PowerShell's
`>`), ends in a traceback: each is answered with one line that says what to do instead.
"""

from __future__ import annotations

import codecs
import sys
from pathlib import Path
from typing import Any

import typer

from ..engine import NekobakoError

LANGS = ("en", "ja")

_BOMS = (  # UTF-32 first: its little-endian mark begins with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def check_lang(value: str) -> str:
    if value not in LANGS:
        raise typer.BadParameter(f"language must be en or ja, not {value!r} / 言語は en か ja を指定してください")
    return value


def lang_option(help: str = "en or ja.") -> Any:
    """`--lang`, refused at once (exit 2, usage error) unless it is en or ja."""
    return typer.Option("en", "--lang", help=help, callback=check_lang)


class RecordFileError(NekobakoError):
    """A record file that cannot be read as text."""


def decode_record(data: bytes, name: str) -> str:
    """Record bytes as text: UTF-8, or UTF-8 / UTF-16 / UTF-32 with a byte-order mark."""
    codec = next((codec for bom, codec in _BOMS if data.startswith(bom)), "utf-8")
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        raise RecordFileError(
            f"{name} is not {codec.upper()} text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save the record as UTF-8 / 記録は UTF-8 で保存してください"
        ) from None


def read_record(path: Path) -> str:
    """The text of a record file ('-' is standard input); `RecordFileError` says why not."""
    if str(path) == "-":
        return decode_record(sys.stdin.buffer.read(), "standard input")
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise RecordFileError(f"{path} is a directory, not a record file") from None
    except OSError as exc:
        raise RecordFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_record(data, str(path))
