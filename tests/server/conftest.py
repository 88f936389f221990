"""Fixtures for the server tests: a real server process per test, on a temp SQLite file or on a
fresh PostgreSQL database (created for the test, dropped afterwards)."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_harness import ServerProcess

POSTGRES_URL = os.environ.get("NEKOBAKO_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
SKIP_POSTGRES = os.environ.get("NEKOBAKO_SKIP_POSTGRES") == "1"


def _admin_engine():
    url = make_url(POSTGRES_URL)
    return create_engine(
        url.set(database="postgres"), isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5}
    )


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh database on the local PostgreSQL server for one test, dropped afterwards."""
    if SKIP_POSTGRES:
        pytest.skip("NEKOBAKO_SKIP_POSTGRES=1")
    name = f"nekobako_test_{secrets.token_hex(6)}"
    engine = _admin_engine()
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        engine.dispose()
        pytest.fail(
            f"PostgreSQL at {make_url(POSTGRES_URL).render_as_string(hide_password=True)} is unreachable: {exc}\n"
            "start it, point NEKOBAKO_TEST_POSTGRES_URL at one, or set NEKOBAKO_SKIP_POSTGRES=1",
            pytrace=False,
        )
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'nekobako.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'nekobako.db'}"


def _server(url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(url, tmp_path / f"server-{secrets.token_hex(3)}.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server on SQLite and (a second run of the test) on PostgreSQL."""
    yield from _server(database_url, tmp_path)


@pytest.fixture
def sqlite_server(sqlite_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server on SQLite only, for tests whose database does not matter."""
    yield from _server(sqlite_url, tmp_path)
