"""The page speaks one language, the one it shows: the server's refusals (REST and WebSocket) are
worded from their keys in the page's language, even when the browser itself prefers another, and
an option error is said once, beside the form."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser_ui import (
    add_bot,
    catbox_turn,
    catopomp_turn,
    create_table,
    enter_as_guest,
    shutbox_turn,
    start,
    take_turn,
)

from nekobako.i18n import text
from worded import english_words

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _japanese_page(new_page):
    """A browser that prefers English, switched to Japanese by the person."""
    page = new_page(locale="en-US")
    page.goto("/")
    page.evaluate("localStorage.setItem('nekobako.lang', 'ja')")
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    return page


def test_a_server_refusal_reads_in_the_pages_language(new_page, page_errors):
    page_errors.expect(r"status of 401 .*/api/auth/login", "a wrong password is sent on purpose; the server refuses it")
    page = _japanese_page(new_page)
    page.fill("#acc-name", "nobody-here")
    page.fill("#acc-password", "wrong password")
    page.click("[data-testid=login-form] button[value=login]")
    page.wait_for_selector(".toast.show.error")
    words = page.inner_text(".toast.show.error")
    assert "名前またはパスワードが違います" in words
    assert "wrong" not in words.lower() and "/" not in words  # never both languages joined


def test_an_option_error_is_said_once_beside_the_form(new_page, page_errors):
    page_errors.expect(r"status of 400 .*/api/tables\)", "an option the engine refuses is sent on purpose")
    page = _japanese_page(new_page)
    enter_as_guest(page, "Nao")
    page.select_option("#create-game", "catbox")
    page.select_option("#create-seats", "2")
    page.select_option("#opt-side", label="紫")  # purple: refused at 2 players
    page.click("[data-testid=create-form] button[type=submit]")
    page.wait_for_function("() => document.querySelector('.form-error').innerText.length > 0")
    assert page.inner_text(".form-error") == "2人プレイでは紫の面は使えません（白の面を使います）。"
    assert page.locator(".toast.show.error").count() == 0
    assert "#/table/" not in page.url


def test_a_websocket_refusal_is_worded_from_its_key(new_page):
    page = _japanese_page(new_page)
    said = page.evaluate(
        """async () => {
        const i18n = await import('/static/i18n.js');
        const refused = {type: 'refused', code: 'illegal', reason: 'Tile 7 is already shut.',
                         key: 'shutbox.refusal.tile_shut', params: {tile: 7}};
        const reason = {key: 'engine.refusal.not_your_turn', params: {}};
        const nested = {key: 'engine.record.refused', params: {index: 3, entry: '0: roll', reason}};
        return [i18n.say(refused), i18n.say(nested), i18n.CLOSE.NO_TABLE, i18n.CLOSE.LOGGED_OUT];
      }"""
    )
    assert said == [
        "タイル7はすでに倒れています。",
        "記録の3番目の行動「0: roll」は受け付けられません：あなたの番ではありません。",
        4404,
        4401,
    ]


def test_a_notice_is_worded_from_its_key_for_its_reader(new_page):
    """The server's notices reach the log in the page's language, "you" for the reader's own seat,
    whatever language the server chose for its own `text`."""
    from datetime import UTC, datetime

    from nekobako.server.notices import notice_json
    from nekobako.store.games import NoticeRow

    data = {"name": "Bo", "bot": "greedy", "count": 1, "limit": 3}
    sent = [
        notice_json(NoticeRow("timeout", seat, 4, data, datetime(2026, 12, 1, tzinfo=UTC)), "en") for seat in (0, 1)
    ]
    page = _japanese_page(new_page)
    log = page.evaluate(
        """async (notices) => {
        const w = await import('/static/words.js');
        const view = {seat: 0, history: [], events: []};
        return w.buildLog(view, {name: 'shutbox'}, ['Nao', 'Bo'], {describeAction: () => null}, notices)
          .map((entry) => entry.text);
      }""",
        sent,
    )
    assert log == [
        "あなたは時間切れのため、貪欲ボットがこの手番だけ代わりに打ちました（連続1/3回）。",
        "席1（Bo）は時間切れのため、貪欲ボットがこの手番だけ代わりに打ちました（連続1/3回）。",
    ]


def test_the_browser_words_every_event_as_python_does(new_page):
    """One rule, two runtimes: web/words.js and nekobako.i18n.events give the same words for events
    of played games, in both languages, for the person concerned, another player and a spectator."""
    from nekobako.engine import get_game
    from wording_samples import NAMES, samples

    cases = []
    for game, players, event in samples(per_kind=2, games=2):
        seat = event.seat if event.seat is not None and 0 <= event.seat < players else None
        for viewer in {None, 0, 1 % players} | ({seat} if seat is not None else set()):
            names = NAMES[:players]
            py = {lang: get_game(game).describe(event, lang, names, viewer) for lang in ("en", "ja")}
            cases.append({"game": game, "event": event.to_json(), "names": names, "viewer": viewer, "py": py})
    page = new_page()
    page.goto("/")
    js = page.evaluate(
        """async (cases) => {
        const w = await import('/static/words.js');
        const i18n = await import('/static/i18n.js');
        const out = [];
        for (const lang of ['en', 'ja']) {
          await i18n.setLang(lang);
          for (const c of cases) out.push(w.describeEvent(c.event, {name: c.game}, c.names, c.viewer));
        }
        await i18n.setLang('en');
        return out;
      }""",
        cases,
    )
    expected = [c["py"]["en"] for c in cases] + [c["py"]["ja"] for c in cases]
    assert len(cases) > 60
    assert [(e, j) for e, j in zip(expected, js, strict=True) if e != j] == []


# What the page shows a person, text and the words of attributes a screen reader or a tooltip says.
SHOWN = """() => {
  const words = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
    for (const name of ['aria-label', 'title', 'placeholder', 'alt'])
      if (el.hasAttribute(name)) words.push(el.getAttribute(name));
  return words.join('\\n');
}"""
NAMES = ["Nao", "nekobako"]  # a person and the site
TURNS = {"shutbox": shutbox_turn, "catbox": catbox_turn, "catopomp": catopomp_turn}


# An ASCII , . ( ) : ! ? touching Japanese text (Japanese writes 、。（）：！？): "9 (既定)", "減点合計: 12".
HALF_WIDTH = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff][ ]?[,.()!?:]|[,.()!?:][ ]?[\u3040-\u30ff\u4e00-\u9fff]")


def _english_shown(page) -> set[str]:
    shown = page.evaluate(SHOWN)
    assert len(shown) > 300 and "ルール" in shown, shown[:300]  # a page in words, not an empty one
    found = english_words(shown, NAMES)
    found |= {shown[max(0, m.start() - 8) : m.end() + 8] for m in HALF_WIDTH.finditer(shown)}
    return found


def test_the_japanese_lobby_and_tables_show_no_english_words(new_page):
    """In the Japanese interface, every word shown is Japanese (names and notation aside) and its
    punctuation full-width (`HALF_WIDTH`: "Nao（あなた）", "タイル数（既定）"): the
    lobby with every game's options (research options opened), and a table of each game with a bot
    from its start through some turns — prompts, the board, the log with the table's notices."""
    page = _japanese_page(new_page)
    enter_as_guest(page, NAMES[0])
    for game in TURNS:
        page.select_option("#create-game", game)
        page.wait_for_selector(f"#create-game option[value={game}]:checked", state="attached")
        if page.locator("[data-testid=advanced-options] summary").count():
            page.click("[data-testid=advanced-options] summary")
        assert not _english_shown(page), (game, _english_shown(page))
    for game, turn in TURNS.items():
        page.goto("/")
        table = create_table(page, game, 2)
        add_bot(page, 1, "random")
        start(page)
        assert "ゲームが始まりました。" in page.inner_text("[data-testid=log]")  # a table notice, in Japanese
        for _ in range(6):
            take_turn(page, turn)
            page.wait_for_timeout(150)
            found = _english_shown(page)
            assert not found, (game, table, found)
    page.goto("/")
    page.wait_for_selector("li[data-table]")
    assert not _english_shown(page), _english_shown(page)


def test_a_failed_language_switch_is_said_in_the_pages_language(new_page, page_errors):
    """The other language's words did not come: the page says so with the words it has."""
    page_errors.expect(r"status of 503 .*/api/catalogue", "the other language's words are made to fail (route below)")
    page = new_page(locale="ja-JP")
    page.route("**/api/catalogue?lang=en", lambda route: route.fulfill(status=503, body="down"))
    page.goto("/")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    page.click("#lang-switch")
    page.wait_for_selector(".toast.show.error")
    assert page.inner_text(".toast.show.error") == text("app.catalogueFailed", "ja")
    assert page.evaluate("document.documentElement.lang") == "ja"
