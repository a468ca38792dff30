"""Migration 0003: a database from before it (revision 0002) with finished games is
brought to head; every existing game gets its own random public id and share token,
nothing else changes (the game_players rows survive on SQLite, where a table copy
would have cascaded), the old integer ids open nothing, and the downgrade goes back."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from stammtisch.engine import play_random
from stammtisch.games.mucken import MuckenRules, MuckenState
from stammtisch.games.mucken.record import record_of
from stammtisch.persistence.db import MIGRATIONS, Database
from stammtisch.server.auth import SESSION_COOKIE

NOW = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)


def _alembic(db: Database, revision: str, down: bool = False) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)


def _old_database(url: str) -> dict[str, Any]:
    """A database at revision 0002: Anna played two games at a private table and one at
    a public one (as stored before 0003: no public id, no share token)."""
    db = Database(url)
    _alembic(db, "0002")
    meta = sa.MetaData()
    meta.reflect(db.engine, only=["users", "game_tables", "games", "game_players"])
    users, tables, games, players = (meta.tables[n] for n in
                                     ("users", "game_tables", "games", "game_players"))
    assert "public_id" not in games.c
    rules = MuckenRules.preset("seefest")
    out: dict[str, Any] = {"games": {}}
    with db.engine.begin() as conn:
        for name in ("Anna", "Eve"):  # the keys come from the database (sequences move on)
            out[name] = conn.execute(users.insert().values(
                name=name, name_key=name.casefold(), is_guest=False, language="de",
                created_at=NOW)).inserted_primary_key[0]
        anna = out["Anna"]
        for tid, public in (("privtab", False), ("pubtab", True)):
            conn.execute(tables.insert().values(
                id=tid, name=tid, creator_id=anna, public=public, invite_code="inv" + tid,
                rules=rules.to_json(), settings={}, seats=[], first_dealer=0,
                status="finished", created_at=NOW, updated_at=NOW))
        for seed, (tid, n) in enumerate((("privtab", 1), ("privtab", 2), ("pubtab", 1))):
            state = play_random(MuckenState(rules, dealer=0), random.Random(seed))
            seats = [{"seat": 0, "name": "Anna", "kind": "human", "user_id": anna,
                      "bot": None}] + [
                {"seat": i, "name": f"Bot {i + 1}", "kind": "bot", "user_id": None,
                 "bot": "heuristic"} for i in (1, 2, 3)]
            gid = conn.execute(games.insert().values(
                table_id=tid, number=n, record=record_of(state), finished=True,
                result=state.result(), players=seats, created_at=NOW,
                finished_at=NOW)).inserted_primary_key[0]
            conn.execute(players.insert().values(game_id=gid, seat=0, user_id=anna))
            out["games"][gid] = {"table": tid, "hands": record_of(state)["hands"]}
    db.dispose()
    return out


def test_existing_games_get_tokens_and_keep_working(db_url: str,
                                                    start_server: Callable[..., Any]) -> None:
    old = _old_database(db_url)
    server = start_server(db_url)  # the app's start migrates to head
    engine = server.app.state.db.engine
    with engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT id, table_id, public_id, share_token FROM games ORDER BY id")).all()
        kept = conn.execute(sa.text("SELECT game_id, seat, user_id FROM game_players "
                                    "ORDER BY game_id")).all()
    assert [r[0] for r in rows] == list(old["games"])
    assert [tuple(r) for r in kept] == [(gid, 0, old["Anna"]) for gid in old["games"]]
    ids = [r[2] for r in rows]
    tokens = [r[3] for r in rows]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", i) for i in ids)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", t) for t in tokens)
    assert len(set(ids + tokens)) == 6

    # the unique index holds
    with engine.connect() as conn:
        insp = sa.inspect(conn)
        (index,) = [i for i in insp.get_indexes("games") if i["column_names"] == ["public_id"]]
        assert index["unique"]
        assert not {c["name"]: c for c in insp.get_columns("games")}["public_id"]["nullable"]

    # the server serves them by the new ids, with the access rules
    token, _ = server.store.create_session(old["Anna"])
    anna = {"cookie": f"{SESSION_COOKIE}={token}"}
    token, _ = server.store.create_session(old["Eve"])
    eve = {"cookie": f"{SESSION_COOKIE}={token}"}
    c = server.client
    history = c.get("/api/me/games", headers=anna).json()["games"]
    assert sorted(g["id"] for g in history) == sorted(ids)
    for (gid, tid, pid, share), info in zip(rows, old["games"].values(), strict=True):
        assert c.get(f"/api/games/{gid}", headers=anna).status_code == 404  # old id
        assert c.get(f"/api/games/{pid}", headers=anna).json()["record"]["hands"] == \
            info["hands"]
        public = tid == "pubtab"
        assert c.get(f"/api/games/{pid}").status_code == (200 if public else 404)
        assert c.get(f"/api/games/{pid}", headers=eve).status_code == (200 if public else 404)
        assert c.get(f"/api/games/{pid}", params={"share": share}).status_code == 200

    # a new game after the migration gets its tokens from the model
    new_id = server.store.save_game("pubtab", 2, {"game": "mucken"}, True, {}, [])
    assert server.store.game(new_id).public_id not in ids


def test_downgrade_and_upgrade_again(db_url: str) -> None:
    _old_database(db_url)
    db = Database(db_url)
    try:
        db.migrate()
        _alembic(db, "0002", down=True)
        with db.engine.connect() as conn:
            columns = {c["name"] for c in sa.inspect(conn).get_columns("games")}
            assert "public_id" not in columns and "share_token" not in columns
            assert conn.execute(sa.text("SELECT count(*) FROM game_players")).scalar() == 3
        db.migrate()
        with db.engine.connect() as conn:
            assert conn.execute(sa.text(
                "SELECT count(DISTINCT public_id) FROM games")).scalar() == 3
    finally:
        db.dispose()
