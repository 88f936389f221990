"""Schemathesis hooks for `test_fuzz.py`: a session the fuzzer keeps even when it calls
`logout` — on a 401 the provider is asked again and makes a fresh guest."""

from __future__ import annotations

import os
import secrets
from typing import Any

import httpx
import schemathesis


@schemathesis.auth(refresh_interval=600, retry_on=[401])
class GuestSession:
    def get(self, case: Any, context: Any) -> str:
        base = os.environ["NEKOBAKO_FUZZ_BASE"]
        # a fresh name each time: the fuzzer may have registered any name it tried
        name = f"fuzz guest {secrets.token_hex(4)}"
        answer = httpx.post(f"{base}/api/auth/guest", json={"name": name}, timeout=10)
        answer.raise_for_status()
        return answer.cookies["nekobako_session"]

    def set(self, case: Any, data: str, context: Any) -> None:
        case.cookies = {**(case.cookies or {}), "nekobako_session": data}
