"""Account keys: UTS #39 skeletons from Unicode's confusables data, folded with case."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from nekobako.store import confusables
from nekobako.store.accounts import KEY_LENGTH, account_for_login, account_key, create_user
from nekobako.store.database import open_database
from nekobako.store.schema import users


def test_the_vendored_data_is_unicodes_whole_file() -> None:
    mapping = confusables.prototypes()
    assert len(mapping) == 6565  # "# total: 6565" at the end of confusables.txt 17.0.0
    assert mapping["m"] == "rn" and mapping["0"] == "O" and mapping["I"] == "l" and mapping["カ"] == "力"


def test_skeleton_is_uts39s() -> None:
    # NFD first: é is e + U+0301, each mapped, then NFD again
    assert confusables.skeleton("rn") == confusables.skeleton("m") == "rn"
    assert confusables.skeleton("é") == unicodedata.normalize("NFD", "é")
    assert confusables.skeleton("一") == confusables.skeleton("ー")
    assert confusables.skeleton("a") != confusables.skeleton("o")


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30))
def test_a_skeleton_is_its_own_skeleton(text: str) -> None:
    once = confusables.skeleton(text)
    assert confusables.skeleton(once) == once


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789カ力ロ口ー一", max_size=24))
def test_case_never_makes_a_different_account(name: str) -> None:
    assert account_key(name) == account_key(name.upper()) == account_key(name.lower())


def test_long_keys_fit_their_column() -> None:
    key = account_key("꽦" * 24)  # each Hangul syllable has a skeleton of six characters
    assert len(key) == KEY_LENGTH and key.startswith("#")
    assert key != account_key("꽦" * 23 + "가")


def test_accounts_keyed_before_skeletons_still_log_in(tmp_path) -> None:
    engine = open_database(f"sqlite:///{tmp_path / 'old.db'}")
    old = create_user(engine, "Zoë", "hash")
    with engine.begin() as conn:  # as the hand-written table of look-alikes keyed it
        conn.execute(users.update().where(users.c.id == old["id"]).values(account_key="zoë"))
    found = account_for_login(engine, "Zoë")
    assert found is not None and found[0]["id"] == old["id"]
    assert account_for_login(engine, "Zoe") is None
    engine.dispose()
