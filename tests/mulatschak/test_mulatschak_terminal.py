"""``stammtisch play --game mulatschak [--players N]``: the terminal session (driven by a
read function and by piped stdin through the real command)."""

from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from stammtisch.cards import Card
from stammtisch.cli import play_session
from stammtisch.cli.main import app
from stammtisch.cli.play_session import PlaySession
from stammtisch.games.mulatschak.presenter import MulatschakPresenter, normalize, parse_rules
from stammtisch.games.mulatschak.rules import MulatschakRules

parse_humans = MulatschakPresenter().parse_humans


def default_bot_name() -> str:
    return play_session.default_bot_name("mulatschak")

ENV = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"}
#: one answer per phase that is always legal for a human who never bids
CYCLE = "1\nweiter\nmit\nbehalte\nnimm\n1\n"


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100, force_terminal=False, color_system=None), buf


class Player:
    """A read function that answers like a person: a random legal word (lower case,
    card lists as typed), now and then a command, a typo or an empty line."""

    def __init__(self, seed: int, muli: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.session: PlaySession | None = None
        self.muli = muli
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        assert self.session is not None
        if "Muli" in prompt:
            return "muli" if self.rng.random() < self.muli else ""
        if "(y/n)" in prompt or "(j/n)" in prompt:
            return "n"
        roll = self.rng.random()
        if roll < 0.03:
            return self.rng.choice(["?", "z", "l", "", "xx", "q", "tausche E7 E7", "99"])
        state = self.session.state
        assert state is not None
        legal = list(state.legal_actions())
        return str(self.rng.choice(legal)).lower()


def run_session(seed: int, players: int, lang: str = "en", *, muli: float = 0.0,
                humans: tuple[int, ...] = (0,), **kw: object) -> tuple[PlaySession, str, Player]:
    con, buf = console()
    reader = Player(seed, muli)
    session = PlaySession("mulatschak", MulatschakRules(), console=con, read=reader,
                          humans=humans, bot="random", shuffle_rng=random.Random(seed),
                          bot_rng=random.Random(seed + 1), lang=lang, players=players,
                          **kw)  # type: ignore[arg-type]
    reader.session = session
    assert session.run() == 0
    return session, buf.getvalue(), reader


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_a_whole_match_through_the_session(seed: int, players: int) -> None:
    session, out, _ = run_session(seed, players, muli=0.05)
    assert session.match.is_over()
    sheet = session.match.sheet.to_json()
    assert "wins with" in out or "share the win" in out or "You win" in out
    assert "Score column" in out and f"{players} players" in out
    assert "Traceback" not in out
    for h in sheet["hands"]:
        assert f"Result of hand {h['number']}:" in out
    if any(h["folded"] for h in sheet["hands"]):
        assert "Zusammengefallen" in out


def test_german_texts() -> None:
    _, out, _ = run_session(7, 4, lang="de")
    assert "Deine Karten:" in out and "Punkteliste" in out and "Ergebnis von Hand 1" in out
    assert "Your cards" not in out


def test_the_human_sees_only_its_own_cards_before_play() -> None:
    """Up to the first prompts of every seed: the human's hand and the cards shown face
    up, never a card of another hand."""
    for seed in range(12):
        check_first_prompts(seed)


def check_first_prompts(seed: int) -> None:
    con, buf = console()
    checked: list[bool] = []
    holder: list[PlaySession] = []

    def read(prompt: str) -> str:
        state = holder[0].state
        assert state is not None
        tokens = set(re.findall(r"\b[EGHS](?:A|K|O|U|10|9|8|7|6)\b", buf.getvalue()))
        public = {str(c) for c in state.shown}
        if state.revealed is not None:
            public.add(str(state.revealed))
        others = {str(c) for s in range(1, 4) for c in state.hands[s]}
        assert not (tokens - public) & others
        checked.append(True)
        if len(checked) > 3:
            raise EOFError
        return ""

    session = PlaySession("mulatschak", MulatschakRules(), console=con, read=read,
                          bot="random", shuffle_rng=random.Random(seed),
                          bot_rng=random.Random(4), lang="en")
    holder.append(session)
    session.run()
    assert checked or "Zusammengefallen" in buf.getvalue()


def test_a_muli_out_of_turn_by_the_human() -> None:
    for seed in range(40):
        session, out, reader = run_session(seed, 4, muli=1.0, first_dealer=0)
        first = session.match.sheet.hands[0]
        if first["folded"]:
            continue
        # seat 1 speaks first; the human (seat 0, the dealer) was offered Muli at once
        assert any("Muli out of turn?" in p for p in reader.prompts)
        assert "You say out of turn: Muli!" in out
        assert first["bidder"] == 0 and first["bid"] == 5 and first["muli"]
        assert first["home"] == []  # a Muli: everybody plays
        return
    pytest.fail("no unfolded first hand in 40 seeds")


def test_hotseat_names_whose_turn_it_is() -> None:
    _, out, _ = run_session(11, 3, humans=(0, 1, 2))
    assert "Player 1's turn" in out or "Player 2's turn" in out
    assert "Cards of Player" in out and "Your cards" not in out


def test_helpers() -> None:
    assert normalize("tausche e7 g8") == "tausche E7 G8"
    assert normalize("Trumpf h") == "trumpf H" and normalize("weli") == "S6"
    assert normalize("Brücke") == "bruecke" and normalize("BEI MIR") == "bei mir"
    assert parse_humans("0,5") == frozenset({0, 5})
    with pytest.raises(ValueError):
        parse_humans("6")
    assert parse_rules("salzburg", ["muli_broken=breaker", "klopfen=nein"]).klopfen is False
    assert default_bot_name() in ("heuristic", "random")
    with pytest.raises(ValueError, match="humans"):
        PlaySession("mulatschak", MulatschakRules(), console=console()[0], read=input,
                    humans=(3,), players=3)
    with pytest.raises(ValueError, match="players"):
        PlaySession("mulatschak", MulatschakRules(), console=console()[0], read=input,
                    players=7)


def test_interpret_shortcuts() -> None:
    con, _ = console()
    session = PlaySession("mulatschak", MulatschakRules(), console=con, read=input,
                          humans=(0, 1, 2, 3), shuffle_rng=random.Random(2), lang="en")
    state = session.match.start_game(random.Random(2))
    seat = state.current_player
    action, _ = session.interpret(state, seat, "7")
    assert str(action) == "abheben 7"
    action, _ = session.interpret(state, seat, "kl")
    assert str(action) == "klopfen"
    action, why = session.interpret(state, seat, "abheben 40")
    assert action is None and "abheben 1–32" in why
    action, why = session.interpret(state, seat, "blah")
    assert action is None and "not a word of Mulatschak" in why
    state.push("abheben 7")
    if state.phase == "bidding":
        action, _ = session.interpret(state, state.current_player, "w")
        assert str(action) == "weiter"
        action, _ = session.interpret(state, state.current_player, "2")
        assert str(action) == "2"


# -- the real command ----------------------------------------------------------------


def play(*args: str, input: str = CYCLE * 1500) -> tuple[int, str]:
    result = CliRunner(env=ENV).invoke(app, ["play", "--game", "mulatschak", *args],
                                       input=input)
    return result.exit_code, result.output


@pytest.mark.parametrize("players", [2, 3, 6])
def test_players_option_plays_a_match(players: int) -> None:
    code, out = play("--players", str(players), "--seed", "4", "--bots", "random",
                     "--lang", "en")
    assert code == 0, out
    assert "Traceback" not in out
    assert f"{players} players" in out and "Result of hand 1" in out
    names = ["You", "Schorsch", "Kunni", "Babett", "Resi", "Sepp"][:players]
    assert re.search(r"Scores: " + ", ".join(f"{n} -?\\d+" for n in names) + r"\n", out)
    assert "Score column" in out
    # English: only the game terms stay German
    assert not re.search(r"\b(Deine|Karten|Stand|Geber|Ergebnis|Ansage|nicht|und)\b", out)


def test_default_four_players_and_end_of_input() -> None:
    code, out = play("--seed", "1", "--bots", "random", "--lang", "en", input="1\n")
    assert code == 0 and "4 players" in out and "End of input" in out


@pytest.mark.parametrize("value", ["1", "7", "0"])
def test_bad_players_for_mulatschak(value: str) -> None:
    code, out = play("--players", value, "--lang", "en", input="")
    assert code == 2 and "Traceback" not in out
    assert f"--players {value}: mulatschak is played by 2 to 6" in out


@pytest.mark.parametrize("game", ["schafkopf", "mucken"])
def test_players_for_a_four_seat_game(game: str) -> None:
    runner = CliRunner(env=ENV)
    result = runner.invoke(app, ["play", "--game", game, "--players", "3", "--lang", "en"],
                           input="")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"--players 3: {game} is always played by 4" in result.output
    assert len(result.output.strip().splitlines()) == 1
    ok = runner.invoke(app, ["play", "--game", game, "--players", "4", "--seed", "1",
                             "--bots", "random", "--lang", "en"], input="")
    assert ok.exit_code == 0 and "Traceback" not in ok.output


def test_players_not_a_number() -> None:
    code, out = play("--players", "drei", input="")
    assert code == 2 and "Traceback" not in out


def test_seats_beyond_the_players() -> None:
    code, out = play("--players", "3", "--humans", "0,4", "--lang", "en", input="")
    assert code == 2 and "Traceback" not in out and "3 players" in out
    code, out = play("--players", "3", "--first-dealer", "3", "--lang", "en", input="")
    assert code == 2 and "Traceback" not in out
    code, out = play("--players", "6", "--first-dealer", "5", "--seed", "2", "--bots",
                     "random", "--lang", "en", input="")
    assert code == 0 and "Dealer: Sepp" in out


def test_bad_rules_option() -> None:
    code, out = play("-o", "klopfen=vielleicht", "--lang", "en", input="")
    assert code == 2 and "klopfen" in out and "Traceback" not in out


def test_the_cut_card_is_shown() -> None:
    code, out = play("--seed", "9", "--bots", "random", "--lang", "en", input=CYCLE * 200)
    assert code == 0
    assert re.search(r"(cuts \d+ cards: [EGHS]\w+ is shown|klopfen: the bottom card is)",
                     out)
    assert isinstance(Card.parse("S6"), Card)
