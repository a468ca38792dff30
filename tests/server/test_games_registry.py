"""The server reaches games through the registry: presets per game, tables keep their game,
the lobby lists it, unknown or table-less games are refused."""

from __future__ import annotations


def test_presets_list_every_game(server):
    out = server.client.get("/api/presets").json()
    games = out["games"]
    assert {"mucken", "schafkopf"} <= set(games)
    m = games["mucken"]
    assert m["title"] == {"de": "Mucken", "en": "Mucken"} and m["seats"] == [4, 4]
    assert m["default_preset"] == "seefest" and m["tables"] is True
    assert m["ui_module"] == "table.js"
    # the keys the table form reads are Mucken's, unchanged
    assert out["presets"] == m["presets"] and out["bots"] == m["bots"]
    assert out["default_bot"] == m["default_bot"] == "heuristic"
    assert "heuristic" in out["bots"] and "random" in out["bots"]
    assert games["schafkopf"]["tables"] is True
    assert games["schafkopf"]["ui_module"] == "table_schafkopf.js"
    assert "standard" in games["schafkopf"]["presets"]


def test_tables_keep_their_game_and_the_lobby_lists_it(server):
    anna = server.guest("Anna")
    tid = anna.create_table(bots=[2, 3])["id"]
    explicit = anna.create_table(game="mucken", preset="wikipedia")["id"]
    info = anna.get(f"/api/tables/{tid}").json()
    assert info["game"] == "mucken" and info["rules"] == "seefest"
    assert anna.get(f"/api/tables/{explicit}").json()["rules"] == "wikipedia"
    lobby = {t["id"]: t for t in server.client.get("/api/tables").json()["tables"]}
    assert lobby[tid]["game"] == "mucken" and lobby[explicit]["game"] == "mucken"
    # Mucken tables store no game key: the rows of older tables read the same
    assert "game" not in server.store.table(tid).settings


def test_unknown_and_tableless_games_are_refused(server):
    anna = server.guest("Anna")
    r = anna.post("/api/tables", json={"game": "skat", "turn_timer": 0})
    assert r.status_code == 422 and r.json()["code"] == "unknown_game"
    assert "unknown game 'skat'" in r.json()["message"]
    from dataclasses import replace

    from stammtisch.games import registry
    registry.register(replace(registry.get("schafkopf"), name="tableless", new_match=None))
    try:
        r = anna.post("/api/tables", json={"game": "tableless", "turn_timer": 0})
    finally:
        registry.unregister("tableless")
    assert r.status_code == 422 and "no online tables yet" in r.json()["message"]
    r = anna.post("/api/tables", json={"preset": "standard", "turn_timer": 0})
    assert r.status_code == 422 and "unknown Mucken preset 'standard'" in r.text
    assert server.tables.lobby_list() == []  # nothing was created
