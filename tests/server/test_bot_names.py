"""The bot picker's names (issue 9, item 14): /api/presets gives every bot a strength
name and a short description in German and English; internal names are keys only."""

from __future__ import annotations


def test_presets_name_and_describe_every_bot_in_both_languages(sqlite_server):
    data = sqlite_server.client.get("/api/presets").json()
    info = data["bot_info"]
    assert set(info) == set(data["bots"]) and data["default_bot"] in info
    for key, b in info.items():
        for lang in ("de", "en"):
            assert b["name"][lang] and b["name"][lang] != key, (key, lang)
            assert b["description"][lang].endswith("."), (key, lang)
        assert 1 <= b["strength"] <= 5
    assert info["heuristic"]["name"] == {"de": "Stammgast", "en": "Regular"}
    strengths = [info[k]["strength"] for k in data["bots"]]
    assert strengths == sorted(strengths)  # the picker lists them weakest first
