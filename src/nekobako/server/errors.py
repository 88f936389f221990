"""One error shape for the REST API: `{"error": message, "code": code}` with an HTTP status."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse


class ApiError(Exception):
    """A refused request; nothing was changed. `message` is meant for the player."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


async def api_error_handler(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message, "code": exc.code}, status_code=exc.status, headers=exc.headers)
