"""`POST /api/tutorials/{game}` against a real server: the driver's lesson and the learner's view
after the steps done, a try played or refused with why (in the reader's language), bad requests
refused, and the tutorial page served."""

from __future__ import annotations

import httpx
import pytest

from nekobako.tutorial import load


@pytest.fixture
def base(sqlite_server) -> str:
    return sqlite_server.base


def post(base: str, game: str, body: dict, lang: str = "en") -> httpx.Response:
    return httpx.post(f"{base}/api/tutorials/{game}", json=body, headers={"Accept-Language": lang})


def test_a_step_a_refusal_and_a_move(base: str) -> None:
    script = load("catbox")
    first = post(base, "catbox", {}).json()
    assert first["lesson"]["step"] == 0 and first["lesson"]["expected"] == "discard 2"
    assert first["seat"] == 0 and first["view"]["seat"] == 0 and "hand" in first["view"]
    lead = post(base, "catbox", {"step": 2, "move": "play 5 red"}, "ja").json()
    assert lead["refused"]["key"] == "catbox.refusal.red_not_broken" and "赤" in lead["refused"]["error"]
    assert lead["lesson"]["step"] == 2  # nothing changed
    other = post(base, "catbox", {"step": 2, "move": "play 4 blue"}).json()
    assert other["refused"]["key"] == "tutorial.other_move"
    played = post(base, "catbox", {"step": 2, "move": "play 5 blue"}).json()
    assert played["refused"] is None and played["lesson"]["step"] == 3
    assert played["lesson"]["text"]["key"] == script.steps[3].text
    end = post(base, "catbox", {"step": len(script.steps)}).json()
    assert end["lesson"]["over"] and end["lesson"]["expected"] is None


BAD = [
    ("chess", {}, 404),
    ("catbox", {"step": 99}, 409),  # a step the document allows, past this tutorial's end
    ("catbox", {"step": -1}, 400),
    ("catbox", {"step": True}, 400),
    ("catbox", {"move": 3}, 400),
    ("catbox", {"move": "x" * 201}, 400),
]


def test_bad_requests_are_refused_with_words(base: str) -> None:
    for game, body, status in BAD:  # one server for all (a server per case costs seconds of CI)
        answer = post(base, game, body)
        assert answer.status_code == status and answer.json()["error"] and answer.json()["key"], (game, body)


def test_the_page_and_the_lobby_know_the_tutorials(base: str) -> None:
    page = httpx.get(f"{base}/tutorial/shutbox")
    assert page.status_code == 200 and "tutorial.js" in page.text and "games/shutbox.js" in page.text
    games = {g["name"]: g for g in httpx.get(f"{base}/api/games").json()["games"]}
    assert games["shutbox"]["tutorial"] and games["catbox"]["tutorial"]
