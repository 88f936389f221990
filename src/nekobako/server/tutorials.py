"""`POST /api/tutorials/{game}`: the tutorial driver, applied for the browser's tutorial page.

Stateless: the page sends the steps it has done (kept in its own storage, so it resumes) and, to
try one, a move; the answer is the learner's view, the step's lesson and, for a refused try, why.
The driver decides everything (nekobako.tutorial); the server only carries its answers, and
stores nothing: a tutorial is no table.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..engine import UnknownGame
from ..i18n import Message
from ..tutorial import Tutorial, TutorialNotFound, load
from .errors import ApiError, request_lang
from .requests import read_body
from .wire import MAX_ACTION, TutorialTry


async def tutorial_step(request: Request) -> JSONResponse:
    try:
        script = load(request.path_params["game"])
    except (UnknownGame, TutorialNotFound) as exc:
        raise ApiError(404, "not_found", exc.message) from None
    steps = len(script.steps)
    out_of_range = Message("error.whole_number", name="step", low=0, high=steps)
    refusals = {"step": out_of_range, "move": Message("tutorial.move_text", n=MAX_ACTION)}
    body = await read_body(request, TutorialTry, refusals, required=False)
    step, move = int(body.step), body.move  # a string of digits as well (a page's address holds one)
    if step > steps:  # a whole number the document allows, past this tutorial
        raise ApiError(409, "conflict", out_of_range)
    tutorial = Tutorial(script, step)  # a few dozen actions replayed: well under a millisecond
    refused = tutorial.attempt(move) if move is not None else None
    answer: dict[str, Any] = {
        "game": script.game,
        "seat": script.seat,
        "lesson": tutorial.lesson().to_json(),
        "view": tutorial.view(),
        "refused": None,
    }
    if refused is not None:
        answer["refused"] = {**refused.to_json(), "error": refused.text(request_lang(request))}
    return JSONResponse(answer)


routes = [Route("/api/tutorials/{game}", tutorial_step, methods=["POST"])]
