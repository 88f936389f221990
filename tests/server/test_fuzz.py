"""The REST API fuzzed from its own OpenAPI document (Schemathesis, every phase: examples,
coverage, fuzzing and stateful, following the links from `POST /api/tables` to the table routes).
It must find nothing: no 500, no response outside the document, and no request the document
allows that the server refuses (or the reverse). The session survives the fuzzer's `logout`
calls (`fuzz_hooks.py` makes a fresh guest on a 401). Bounded: a few examples per operation
and a time budget.

The run is reproducible from its seed alone and leaves nothing behind: Schemathesis's crash cache
and example database are off (a cache in the repository was rewritten by every run), and the
cases an earlier cache held are explicit examples below (`FOUND`)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import jsonschema_rs  # Schemathesis's own validator (a dependency of it)
import pytest
from server_harness import running

HERE = Path(__file__).resolve().parent
UNLIMITED = [
    f"--limit={name}=100000"
    for name in ("open_tables", "guests_per_hour", "signups_per_hour", "strong_bot_tables", "server_strong_bot_tables")
]


def test_the_api_holds_to_its_document(sqlite_url, tmp_path) -> None:
    with running(sqlite_url, tmp_path, *UNLIMITED) as server:
        env = dict(os.environ, NEKOBAKO_FUZZ_BASE=server.base, SCHEMATHESIS_HOOKS="fuzz_hooks")
        env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
        config = tmp_path / "schemathesis.toml"
        config.write_text("[cache]\nenabled = false\n", encoding="utf-8")  # no crash files anywhere
        run = subprocess.run(
            [
                *(sys.executable, "-m", "schemathesis.cli", "--config-file", str(config)),
                *("run", f"{server.base}/api/openapi.json"),
                *("--checks", "all", "--max-examples", "8", "--max-time", "100", "--seed", "18"),
                *("--generation-database", "none", "--generation-codec", "utf-8"),
                *("--request-timeout", "20", "--no-color"),
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
        report = run.stdout[-6000:] + run.stderr[-2000:]
        assert run.returncode == 0, report
        # warnings (operations the fuzzer could not reach with data) are allowed; failures are not
        assert re.search(r"\d+ (failures?|errors?)\b", report) is None, report
        assert "Scenarios:" in report and " passed" in report
        assert "Traceback" not in server.log_path.read_text()
        assert not (tmp_path / ".schemathesis").exists()  # no crash cache, even in the scratch folder


# The cases a Schemathesis cache once held (crash files, committed by mistake), as explicit
# examples: each was a failure when it was found, so each must now get the answer the document
# promises. (method, path, query, JSON body text or None, status, error code)
FOUND: list[tuple[str, str, dict[str, str], str | None, int, str | None]] = [
    # positive_data_acceptance: the document allowed these inputs and the server refused them;
    # now the document refuses them as the server does
    ("GET", "/api/ratings", {"game": ""}, None, 400, "unknown_game"),
    ("GET", "/api/tables", {"status": ""}, None, 400, "bad_request"),
    ("POST", "/api/auth/guest", {}, '{"name": ""}', 400, "bad_request"),
    ("POST", "/api/auth/login", {}, None, 400, "bad_request"),
    (
        "POST",
        "/api/auth/signup",
        {},
        '{"P\\u00f3\\udaea\\udda3\\uda6e\\ude4d": [null, true], "\\u0092\\u00b1": [[17179869185]], '
        '"\\ud814\\udd563\\u00b1d\\u0092R\\u931aR*": {"?-\\u00bc\\u00dd\\u0013\\u009d": []}, '
        '"name": "\\u0002\\u00f3\\ud98c\\udd9f\\u00a9\\u001b[\\u00f1\\u00f7\\u00ad", "password": "fuzzing-password"}',
        400,
        "bad_request",
    ),
    # not_a_server_error, content_type_conformance: a 500 in plain text; a refusal in JSON now
    ("POST", "/api/auth/login", {}, '{"name": "00", "password": "fuzzing-password"}', 401, "bad_credentials"),
]


def _schema(doc: dict[str, Any], schema: dict[str, Any]) -> jsonschema_rs.Draft202012Validator:
    """A validator for one schema of the document, its `$ref`s resolved in the document."""
    return jsonschema_rs.Draft202012Validator({**schema, "components": doc["components"]})


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("found")
    with (
        running(f"sqlite:///{tmp / 'nekobako.db'}", tmp, *UNLIMITED) as server,
        httpx.Client(base_url=server.base, timeout=20) as client,
    ):
        assert client.post("/api/auth/guest", json={"name": "found cases"}).status_code == 201
        yield client, client.get("/api/openapi.json").json()


@pytest.mark.parametrize(("method", "path", "query", "body", "status", "code"), FOUND)
def test_cases_the_fuzzer_once_found(api, method, path, query, body, status, code) -> None:
    client, doc = api
    operation = doc["paths"][path][method.lower()]
    headers = {"Content-Type": "application/json"} if body is not None else {}
    answer = client.request(method, path, params=query, content=body, headers=headers)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()["code"] == code
    documented = {p["name"]: p["schema"] for p in operation.get("parameters") or ()}
    valid = all(_schema(doc, documented[name]).is_valid(value) for name, value in query.items())
    if body is None:
        valid = valid and not operation["requestBody"]["required"]
    else:
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        valid = valid and _schema(doc, schema).is_valid(json.loads(body))
    # a refusal of the data is one the document makes too; wrong credentials are not about the data
    assert valid == (status == 401)


def test_options_answers_with_every_method_of_the_path(api) -> None:
    """allow_header_conformance: `OPTIONS /api/tables` answered `Allow: HEAD, GET`, not POST."""
    client, doc = api
    answer = client.options("/api/tables")
    assert answer.status_code == 405
    allowed = {m.strip() for m in answer.headers["allow"].split(",")}
    assert {m.upper() for m in doc["paths"]["/api/tables"]} <= allowed
