"""The bot picker's names (issue 9, item 14): /api/presets gives every bot a strength
name and a short description in German and English; internal names are keys only."""

from __future__ import annotations


def test_presets_name_and_describe_every_bot_in_both_languages(sqlite_server):
    data = sqlite_server.client.get("/api/presets").json()
    info = data["bot_info"]
    assert set(info) == set(data["bots"]) and data["default_bot"] in info
    for key, b in info.items():
        for lang in ("de", "en", "es"):
            assert b["name"][lang] and b["name"][lang] != key, (key, lang)
            assert b["description"][lang].endswith("."), (key, lang)
        assert 1 <= b["strength"] <= 5
    assert info["heuristic"]["name"] == {"de": "Stammgast", "en": "Regular", "es": "Parroquiano"}
    strengths = [info[k]["strength"] for k in data["bots"]]
    assert strengths == sorted(strengths)  # the picker lists them weakest first


def test_every_games_bots_have_a_level_name_in_three_languages(sqlite_server):
    # issue 19: the strongest Mulatschak and Mus bots are not just "Bot" (or their key),
    # and a Spanish page names the levels in Spanish
    games = sqlite_server.client.get("/api/presets").json()["games"]
    for game, g in games.items():
        for key in g["bots"]:
            b = g["bot_info"][key]
            for lang in ("de", "en", "es"):
                assert b["name"][lang] and b["name"][lang] not in (key, "Bot"), (game, key, lang)
    assert games["mulatschak"]["bot_info"]["search"]["name"]["de"] == "Könner"
    assert games["mus"]["bot_info"]["bluff"]["name"]["es"] == "Pícaro"
    assert games["mus"]["bot_info"]["heuristic"]["name"]["es"] == "Parroquiano"
