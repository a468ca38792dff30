"""Hints at every game's table (issue 19): Mulatschak in its card play (the search bot's
card with each legal card's value) and Mus in every phase a seat decides — the Mus round,
the discard, the lances — with the equity bot's word, from the asker's own view."""

from __future__ import annotations


def test_a_mus_hint_is_a_legal_word_on_my_turn(sqlite_server):
    server = sqlite_server
    anna = server.guest("Anna")
    tid = anna.create_table(game="mus", bots="fill", allow_hints=True)["id"]
    phases = set()
    with anna.connect(tid) as a:
        def my_turn_or_over(x):
            v = x.get("view")
            return bool(v and (x["table"]["between_games"] or v["phase"] == "end"
                               or (v["to_act"] == 0 and v["legal"])))

        m = a.until(my_turn_or_over, "Anna's turn", timeout=30)
        for _ in range(6):
            if not my_turn_or_over(m):
                m = a.until(my_turn_or_over, "Anna's turn or the end of the hand", timeout=30)
            v = m["view"]
            if m["table"]["between_games"] or v["phase"] == "end":
                break
            a.send({"type": "hint", "version": m["version"]})
            hint = a.recv_type("hint", timeout=30)
            assert hint["version"] == m["version"]
            assert hint["card"] in v["legal"], (hint, v["legal"])
            assert hint["values"] == {}
            phases.add(v["phase"])
            # nothing of the others' cards in the answer
            dealt = server.on_loop(lambda: [[str(c) for c in h]
                                            for h in server.runtime(tid).game.hands])
            others = {c for s in (1, 2, 3) for c in dealt[s]} - set(v["hand"])
            assert server.leaks(a.raw[-1], others) == []
            a.act(hint["card"], m["version"])
            m = a.until(lambda x, n=m["version"]: x["version"] > n, "the word said")
    assert phases & {"mus", "discard", "lances"}


def test_a_mus_table_without_hints_refuses_them(sqlite_server):
    anna = sqlite_server.guest("Anna")
    tid = anna.create_table(game="mus", bots="fill")["id"]
    with anna.connect(tid) as a:
        m = a.until_turn(0, timeout=30)
        a.send({"type": "hint", "version": m["version"]})
        assert a.error()["code"] == "hints_disabled"


def test_a_mulatschak_hint_in_the_card_play(sqlite_server):
    server = sqlite_server
    anna = server.guest("Anna")
    tid = anna.create_table(game="mulatschak", bots="fill", allow_hints=True)["id"]
    with anna.connect(tid) as a:
        for _ in range(400):
            m = a.until_turn(0, timeout=60)
            v = m["view"]
            if v["phase"] == "play":
                break
            legal = v["legal"]
            word = next((w for w in ("weiter", "mit", "behalte", "nimm") if w in legal), legal[0])
            a.act(word, m["version"])
            a.until(lambda x, n=m["version"]: x["version"] > n, "the word said")
        else:
            raise AssertionError("Anna never played a card")
        a.send({"type": "hint", "version": m["version"]})
        hint = a.recv_type("hint", timeout=60)
        assert hint["card"] in v["legal"]
        assert set(hint["values"]) <= set(v["legal"])
