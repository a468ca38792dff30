"""Who may see a finished game (issue 8, item 2).

Games are addressed by an opaque public id; a game of a private table is visible only
to the table's members (its creator, whoever sits there, whoever played there) and to
whoever presents the game's share token.  Everyone else gets the very answer an unknown
id gets (404 ``no_game``), so nothing about the game — not even that it exists — leaks.

The matrix: every game-exposing route × table visibility × viewer, each cell its own
test, against SQLite and PostgreSQL.  The games are played once per database (a
module-scoped "world": Carl creates a public and a private table without sitting down,
Anna and Bob play one game at each with two bots), the cells only read.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from stammtisch.server import Settings, create_app


def _conftest() -> Any:
    """tests/server/conftest.py (its Server, Player and Conn helpers): the world below is
    module-scoped, so it cannot use the function-scoped ``start_server`` fixture."""
    for module in list(sys.modules.values()):
        if all(hasattr(module, a) for a in ("Server", "Conn", "play_game", "_reset_pg_schema")):
            return module
    raise RuntimeError("tests/server/conftest.py is not loaded")


VIEWERS = ["anonymous", "member", "non_member", "creator", "share_token", "wrong_share_token",
           "non_member_with_share_token"]
ROUTES = ["detail", "record", "analysis", "share", "replay_page"]
VISIBILITIES = ["public", "private"]

#: who gets the game (200); everybody else gets 404
SEES = {
    "public": set(VIEWERS),
    "private": {"member", "creator", "share_token", "non_member_with_share_token"},
}


@dataclass
class Game:
    visibility: str
    table_id: str
    public_id: str
    share_token: str
    internal_id: int
    result: dict[str, Any]
    dealt: list[list[str]]


@dataclass
class World:
    server: Any
    players: dict[str, Any]
    games: dict[str, Game] = field(default_factory=dict)
    raw_ws: list[str] = field(default_factory=list)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[World]:
    helpers = _conftest()
    pg_name = None
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('visibility') / 'db.sqlite3'}"
    else:
        # a database of its own (the function-scoped fixtures reset the shared one);
        # the name pattern lets conftest drop it should this process be killed
        try:
            admin = psycopg.connect(helpers.PG_ADMIN_URL, autocommit=True, connect_timeout=3)
        except psycopg.Error as e:
            pytest.skip(f"PostgreSQL not reachable at {helpers.PG_HOST}: {e}")
        pg_name = f"stammtisch_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        with admin:
            admin.execute(f'CREATE DATABASE "{pg_name}"')
        url = f"postgresql://root@{helpers.PG_HOST}/{pg_name}"
    app = create_app(Settings(database_url=url, bot_delay=0, auto_next_delay=3600, seed=7))
    client = TestClient(app)
    client.__enter__()
    try:
        server = helpers.Server(client, url)
        carl, anna, bob, eve = (server.guest(n) for n in ("Carl", "Anna", "Bob", "Eve"))
        world = World(server, {"creator": carl, "member": bob, "anna": anna,
                               "non_member": eve})
        for visibility in VISIBILITIES:
            t = carl.create_table(public=visibility == "public", seat=None, bots=[2, 3])
            tid, invite = t["id"], t["invite_code"]
            assert anna.join(tid, 0, invite).status_code == 200
            assert bob.join(tid, 1, invite).status_code == 200
            ends: dict[int, dict[str, Any]] = {}
            with anna.connect(tid, invite) as a, bob.connect(tid, invite) as b:
                helpers.parallel(
                    lambda a=a, ends=ends: ends.__setitem__(0, a.play_game(0, random.Random(1))),
                    lambda b=b, ends=ends: ends.__setitem__(1, b.play_game(1, random.Random(2))))
                world.raw_ws += a.raw + b.raw
            (row,) = server.store.games_of_table(tid)
            assert row.finished
            world.games[visibility] = Game(visibility, tid, row.public_id, row.share_token,
                                           row.id, ends[0]["view"]["result"],
                                           ends[0]["view"]["dealt"])
        yield world
    finally:
        client.__exit__(None, None, None)
        if pg_name is not None:
            with psycopg.connect(helpers.PG_ADMIN_URL, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{pg_name}" WITH (FORCE)')


def _path(route: str, public_id: str) -> str:
    return {"detail": f"/api/games/{public_id}", "record": f"/api/games/{public_id}/record",
            "analysis": f"/api/games/{public_id}/analysis",
            "share": f"/api/games/{public_id}/share",
            "replay_page": f"/replay/{public_id}"}[route]


def _get(world: World, viewer: str, path: str, share: str | None = None) -> Any:
    params = {"share": share} if share is not None else None
    if viewer == "anonymous":
        return world.server.client.get(path, params=params)
    return world.players[viewer].get(path, params=params)


def _request(world: World, route: str, game: Game, viewer: str) -> Any:
    other = world.games["public" if game.visibility == "private" else "private"]
    share = {"share_token": game.share_token, "non_member_with_share_token": game.share_token,
             "wrong_share_token": other.share_token}.get(viewer)
    who = {"share_token": "anonymous", "wrong_share_token": "anonymous",
           "non_member_with_share_token": "non_member"}.get(viewer, viewer)
    return _get(world, who, _path(route, game.public_id), share)


def _unknown_id() -> str:
    """A well-formed public id that belongs to no game."""
    import secrets
    return secrets.token_urlsafe(12)


def _secrets_of(game: Game) -> list[str]:
    """What must not appear in a 404: anything that tells the game apart."""
    return [game.public_id, game.share_token, game.table_id, "Anna", "Bob", "Carl",
            json.dumps(game.dealt[0])[1:-1]]


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("route", ROUTES)
def test_who_sees_a_finished_game(world: World, route: str, visibility: str,
                                  viewer: str) -> None:
    game = world.games[visibility]
    r = _request(world, route, game, viewer)
    if viewer not in SEES[visibility]:
        # exactly what an id of no game gets: status, body and headers
        ref = _get(world, "anonymous", _path(route, _unknown_id()))
        assert r.status_code == ref.status_code == 404, r.text[:300]
        assert r.content == ref.content
        assert sorted(k for k in r.headers if k != "date") == sorted(
            k for k in ref.headers if k != "date")
        if route != "replay_page":
            assert r.json() == {"code": "no_game", "message": "no such finished game"}
            for secret in _secrets_of(game):
                assert secret not in r.text
        assert not any(game.public_id in v or game.share_token in v
                       for v in r.headers.values())
        return
    assert r.status_code == 200, r.text[:300]
    assert "user_id" not in r.text
    if route == "detail":
        d = r.json()
        assert d["id"] == game.public_id and d["number"] == 1
        assert d["public"] is (visibility == "public")
        assert d["result"] == game.result and d["record"]["hands"] == game.dealt
        assert "log" not in d["record"]
        assert [p["name"] for p in d["players"]] == ["Anna", "Bob", "Bot 3", "Bot 4"]
        assert all(set(p) == {"seat", "name", "kind", "bot"} for p in d["players"])
        assert d["share_url"] == _share_url(game)
    elif route == "record":
        assert r.json()["hands"] == game.dealt
        assert r.headers["content-disposition"] == (
            f'attachment; filename="mucken-{game.table_id}-1.json"')
    elif route == "analysis":
        d = r.json()
        assert d["id"] == game.public_id and d["plays"]
    elif route == "share":
        assert r.json() == {"id": game.public_id, "public": visibility == "public",
                            "url": _share_url(game)}
    else:
        assert r.headers["content-type"].startswith("text/html")
        assert r.headers["referrer-policy"] == "same-origin"
    # a private game's answers stay out of shared caches (the URL may hold the token)
    if visibility == "private":
        assert r.headers["cache-control"] == "private, no-store"
    else:
        assert "no-store" not in r.headers.get("cache-control", "")


def _share_url(game: Game) -> str:
    if game.visibility == "public":
        return f"/replay/{game.public_id}"
    return f"/replay/{game.public_id}?share={game.share_token}"


def test_the_share_url_opens_a_private_game_for_anybody(world: World) -> None:
    game = world.games["private"]
    url = world.players["member"].get(f"/api/games/{game.public_id}/share").json()["url"]
    assert world.server.client.get(url).status_code == 200  # the page, anonymous
    share = re.fullmatch(rf"/replay/{re.escape(game.public_id)}\?share=([\w-]+)", url)
    assert share is not None and share[1] == game.share_token
    r = world.server.client.get(f"/api/games/{game.public_id}", params={"share": share[1]})
    assert r.status_code == 200 and r.json()["record"]["hands"] == game.dealt


@pytest.mark.parametrize("viewer", ["anonymous", "member", "non_member", "creator", "anna"])
def test_history_lists_opaque_ids_and_share_links_of_ones_own_games(world: World,
                                                                    viewer: str) -> None:
    r = _get(world, viewer, "/api/me/games")
    if viewer == "anonymous":
        assert r.status_code == 401
        return
    assert r.status_code == 200
    games = r.json()["games"]
    if viewer in ("non_member", "creator"):  # the history lists the games one played
        assert games == []
        return
    assert "user_id" not in r.text
    by_table = {g["table_id"]: g for g in games}
    assert len(games) == 2
    for visibility, game in world.games.items():
        g = by_table[game.table_id]
        assert g["id"] == game.public_id and g["public"] is (visibility == "public")
        assert g["share_url"] == _share_url(game)
        assert g["result"] == game.result
        assert all(set(p) == {"seat", "name", "kind", "bot"} for p in g["players"])


def test_ids_are_opaque_and_the_old_sequential_ids_are_gone(world: World) -> None:
    games = list(world.games.values())
    ids = [g.public_id for g in games]
    tokens = [g.share_token for g in games]
    # token_urlsafe: 16 characters = 96 random bits; share tokens 22 characters = 128 bits
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", i) for i in ids)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", t) for t in tokens)
    assert len(set(ids + tokens)) == len(ids) + len(tokens)
    assert not any(i.isdigit() for i in ids)
    # the integer keys (and their neighbours) open nothing, for anybody, on any route
    for n in sorted({g.internal_id for g in games} | set(range(0, 6))):
        for route in ROUTES:
            for viewer in ("anonymous", "member", "creator"):
                r = _get(world, viewer, _path(route, str(n)))
                assert r.status_code == 404, (route, viewer, n)


@pytest.mark.parametrize("bad", ["%00", "a%00b", "x" * 33, "%C3%BC" * 5, "..%2F..%2Fetc",
                                 "-1", "9" * 40, "%20"])
def test_malformed_ids_and_share_tokens_are_404_never_500(world: World, bad: str) -> None:
    game = world.games["private"]
    for route in ROUTES:
        r = world.server.client.get(_path(route, bad))
        assert r.status_code == 404, (route, bad, r.status_code)
        r = world.server.client.get(_path(route, game.public_id) + f"?share={bad}")
        assert r.status_code == 404, (route, bad, r.status_code)


def test_table_messages_name_no_game_id_or_share_token(world: World) -> None:
    """The table's state messages (websocket and GET /api/tables/{id}) list no past
    games: nothing there to keep from anybody."""
    texts = world.raw_ws + [world.server.client.get(f"/api/tables/{g.table_id}").text
                            for g in world.games.values() if g.visibility == "public"]
    for g in world.games.values():
        assert not any(g.public_id in t or g.share_token in t for t in texts)


def test_a_running_game_is_seen_by_nobody(server: Any) -> None:
    """Until it is over a game's record holds every hand: no route serves it, not to
    its own players, not with its share token."""
    anna = server.guest("Anna")
    t = anna.create_table(public=False, bots="fill")
    with anna.connect(t["id"], t["invite_code"]) as a:
        a.until_turn(0)
        (row,) = server.store.games_of_table(t["id"])
        assert not row.finished
        for route in ROUTES:
            for share in (None, row.share_token):
                r = anna.get(_path(route, row.public_id),
                             params={"share": share} if share else None)
                assert r.status_code == 404, route
                assert row.share_token not in r.text


def test_new_games_get_fresh_random_ids() -> None:
    from stammtisch.persistence.models import new_game_public_id, new_share_token

    ids = {new_game_public_id() for _ in range(2000)}
    assert len(ids) == 2000 and all(len(i) == 16 for i in ids)
    assert {len(new_share_token()) for _ in range(50)} == {22}


def test_members_of_a_private_table(server: Any) -> None:
    """Members: the creator, whoever sits at the table now, and whoever played any game
    there — also a game other than the one asked for.  Nobody else, and a share token
    opens only its own game."""
    carl, dave, frank, eve, anna = (server.guest(n) for n in
                                    ("Carl", "Dave", "Frank", "Eve", "Anna"))

    def seat(p: Any) -> dict[str, Any]:
        return {"kind": "human", "user_id": p.id, "name": p.name}

    bot = {"kind": "bot", "user_id": None, "name": "Bot"}
    server.store.create_table(
        id="members1", name="Hinterzimmer", creator_id=carl.id, public=False,
        invite_code="x" * 16, rules={}, settings={}, seats=[seat(frank), bot, bot, bot],
        first_dealer=0, status="playing")
    ids = []
    for number, player in ((1, dave), (2, anna)):
        players = [{"seat": 0, "name": player.name, "kind": "human", "user_id": player.id,
                    "bot": None}] + [{"seat": i, "name": "Bot", "kind": "bot",
                                      "user_id": None, "bot": "heuristic"} for i in (1, 2, 3)]
        gid = server.store.save_game("members1", number, {"game": "mucken", "hands": []},
                                     True, {"score": number}, players)
        ids.append(server.store.game(gid))
    first, second = ids
    expected = {carl: 200, dave: 200, frank: 200, anna: 200, eve: 404}
    for viewer, status in expected.items():
        for g in (first, second):
            assert viewer.get(f"/api/games/{g.public_id}").status_code == status, viewer.name
    # a share token opens its own game only
    assert eve.get(f"/api/games/{second.public_id}",
                   params={"share": second.share_token}).status_code == 200
    assert eve.get(f"/api/games/{first.public_id}",
                   params={"share": second.share_token}).status_code == 404
    # the history lists only the games one played
    assert [g["id"] for g in dave.get("/api/me/games").json()["games"]] == [first.public_id]
    assert frank.get("/api/me/games").json() == {"games": []}
