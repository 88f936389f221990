"""Accounts over real HTTP: argon2 passwords, guests, cookie sessions, rate-limited logins."""

from __future__ import annotations

from argon2 import PasswordHasher
from server_harness import Client, clients
from sqlalchemy import create_engine, select

from nekobako.store.database import normalize_url
from nekobako.store.schema import users


def _stored_hash(database_url: str, user_id: int) -> str:
    engine = create_engine(normalize_url(database_url))
    try:
        with engine.connect() as conn:
            return conn.execute(select(users.c.password_hash).where(users.c.id == user_id)).scalar_one()
    finally:
        engine.dispose()


def test_signup_login_logout_and_guests(server) -> None:
    with clients(server, 3) as (alice, again, visitor):
        response = alice.post("/api/auth/signup", {"name": "Alice", "password": "correct horse"})
        assert response.status_code == 201
        user = response.json()
        assert user["name"] == "Alice" and user["guest"] is False
        cookie = response.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "nekobako_session=" in cookie
        assert alice.ok(alice.get("/api/auth/me")) == user
        stored = _stored_hash(server.database_url, user["id"])  # argon2id, salted, never the password
        assert stored.startswith("$argon2id$") and "correct horse" not in stored
        assert PasswordHasher().verify(stored, "correct horse")

        # names are unique ignoring case, for accounts and for guests alike
        taken = again.post("/api/auth/signup", {"name": "alice", "password": "another one"})
        assert taken.status_code == 409 and taken.json()["code"] == "conflict"
        assert again.post("/api/auth/guest", {"name": "ALICE"}).status_code == 409
        assert again.get("/api/auth/me").status_code == 401

        wrong = again.post("/api/auth/login", {"name": "alice", "password": "wrong password"})
        assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"
        assert (
            again.ok(again.post("/api/auth/login", {"name": "ALICE", "password": "correct horse"}))["id"] == user["id"]
        )
        assert again.ok(again.get("/api/auth/me"))["id"] == user["id"]

        assert alice.ok(alice.post("/api/auth/logout")) == {"ok": True}
        assert alice.get("/api/auth/me").status_code == 401
        assert again.get("/api/auth/me").status_code == 200  # another session of the same account

        guest = visitor.guest("  Neko   chan ")
        assert guest == {"id": guest["id"], "name": "Neko chan", "guest": True}
        other = Client(server)
        assert other.guest("Neko chan")["id"] != guest["id"]  # guests may share names
        other.close()
        assert visitor.post("/api/auth/login", {"name": "Neko chan", "password": "anything!"}).status_code == 401


def test_bad_account_requests_are_refused(sqlite_server) -> None:
    with clients(sqlite_server, 1) as (client,):
        for body, code in [
            ({"name": "bob", "password": "short"}, "bad_request"),
            ({"name": "", "password": "long enough"}, "bad_request"),
            ({"name": "x" * 25, "password": "long enough"}, "bad_request"),
            ({"name": "bad\x07name", "password": "long enough"}, "bad_request"),
            ({"name": 5, "password": "long enough"}, "bad_request"),
            ({"name": "bob"}, "bad_request"),
        ]:
            response = client.post("/api/auth/signup", body)
            assert response.status_code == 400 and response.json()["code"] == code, body
        for raw in [b"not json", b"[1, 2]", b""]:
            response = client.http.post("/api/auth/signup", content=raw, headers={"content-type": "application/json"})
            assert response.status_code == 400 and response.json()["error"]
        too_big = client.http.post("/api/auth/signup", content=b"x" * 100_000)
        assert too_big.status_code == 413 and too_big.json()["code"] == "bad_request"
        unknown = client.get("/api/nothing/here")
        assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
        form = client.http.post("/api/auth/guest", content=b'{"name": "csrf"}', headers={"content-type": "text/plain"})
        assert form.status_code == 415
        assert client.get("/api/auth/me").status_code == 401


def test_login_attempts_are_rate_limited(sqlite_server) -> None:
    with clients(sqlite_server, 2) as (owner, attacker):
        owner.signup("carol", "the real password")
        for _ in range(5):
            assert attacker.post("/api/auth/login", {"name": "carol", "password": "guess guess"}).status_code == 401
        limited = attacker.post("/api/auth/login", {"name": "carol", "password": "the real password"})
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
        assert 1 <= int(limited.headers["retry-after"]) <= 61
        # other names from the same address are limited too (the address is counted)
        assert attacker.post("/api/auth/login", {"name": "dave", "password": "whatever1"}).status_code == 429
