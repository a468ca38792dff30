"""The plain parts of a game that has none of its own: its terminal presenter
(``stammtisch play``) and its statistics for ``simulate`` and ``arena``.

It needs nothing but the engine contract and the plug-in: a seat's view is shown line by
line, its legal actions numbered; an answer is a number or an action's text; the result
is the typed result's JSON and every seat's return; the score sheet is the match's JSON.
A new game thus plays in the terminal and is judged from its first day (plain, in German
or English); its own presenter (:mod:`stammtisch.games.base.presenter`) and statistics
(:mod:`stammtisch.games.base.judging`) come when it wants them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from rich.markup import escape

from stammtisch.engine.core import Action, GameState, Rng
from stammtisch.errors import StammtischError
from stammtisch.games.base import judging
from stammtisch.games.base.presenter import BasePresenter

if TYPE_CHECKING:
    from stammtisch.games.base.plugin import GamePlugin

__all__ = ["PlainPresenter", "PlainStatistics"]

TEXTS = {
    "de": {"welcome": "{title} für {n} – Antworten: Nummer oder Aktion, ? Hilfe, z Zettel, "
                      "q Ende", "hand": "Spiel {n}", "actions": "Möglich", "turn": "{name}",
           "not_legal": "{text}: jetzt nicht möglich", "result": "Ergebnis",
           "returns": "Punkte", "sheet": "Zettel", "help": "Nummer oder Text einer Aktion; "
           "z Zettel; q Ende", "end": "Ende. Summe: {totals}"},
    "en": {"welcome": "{title} for {n} – answer with a number or an action, ? help, "
                      "z sheet, q quit", "hand": "Game {n}", "actions": "Possible",
           "turn": "{name}", "not_legal": "{text}: not possible now", "result": "Result",
           "returns": "Points", "sheet": "Sheet", "help": "the number or text of an action; "
           "z sheet; q quit", "end": "The end. Totals: {totals}"},
}


class PlainPresenter(BasePresenter[GameState]):
    """A presenter from the view and the actions' texts only (see the module)."""

    last_words = frozenset()
    bot_names: tuple[str, ...] = ("Bot 1", "Bot 2", "Bot 3", "Bot 4", "Bot 5", "Bot 6")
    max_seats = 6

    def __init__(self, plugin: GamePlugin) -> None:
        self.plugin = plugin

    def _(self, key: str, **params: Any) -> str:
        return TEXTS["de" if self.t.lang == "de" else "en"][key].format(**params)

    def parse_rules(self, preset: str, options: Sequence[str]) -> Any:
        return self.plugin.options.parse_text(preset, options)

    def new_match(self, rules: Any, first_dealer: int | None, limit: int | None,
                  players: int) -> Any:
        if self.plugin.new_match is None:
            raise StammtischError(f"{self.plugin.name}: no match to play")
        low, high = self.plugin.seats
        extra = {"players": players} if low != high else {}
        return self.plugin.new_match(rules, first_dealer or 0, limit, **extra)

    def welcome(self) -> None:
        self.out(self._("welcome", title=self.plugin.title.get(self.t.lang, self.plugin.name),
                        n=len(self.names)))

    def start_hand(self) -> GameState:
        state: GameState = self.shell.match.start_game(self.shell.shuffle_rng)
        self.out(f"[bold]{escape(self._('hand', n=self.shell.hand_no))}[/bold]")
        return state

    def context(self, state: GameState, seat: int) -> None:
        for key, value in state.view(seat).items():
            if value not in (None, [], {}):
                self.out(f"  {key}: {escape(json.dumps(value, ensure_ascii=False))}")
        actions = "  ".join(f"{i}) {a}" for i, a in enumerate(state.legal_actions(), 1))
        self.out(f"{self._('actions')}: {escape(actions)}")

    def prompt(self, state: GameState, seat: int) -> str:
        return f"{self._('turn', name=self.names[seat])}> "

    def help(self) -> None:
        self.out(self._("help"))

    def interpret(self, state: GameState, seat: int, text: str) -> tuple[Action | None, str]:
        legal = list(state.legal_actions())
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1], ""
        for action in legal:
            if str(action).lower() == text.lower():
                return action, ""
        return None, self._("not_legal", text=text)

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        state.apply(action)
        self.out(f"{escape(self.names[seat])}: {escape(str(action))}")

    def end_hand(self, state: GameState) -> None:
        result = state.final_result()
        self.shell.match.finish_game()
        if result is not None:
            self.out(f"{self._('result')}: {escape(json.dumps(result.to_json()))}")
        self.out(f"{self._('returns')}: " + ", ".join(
            f"{escape(self.names[s])} {r:+g}" for s, r in enumerate(state.returns())))

    def show_last(self, state: GameState, seat: int) -> None:
        self.context(state, seat)

    def show_sheet(self) -> None:
        self.out(f"{self._('sheet')}: {escape(json.dumps(self.shell.match.sheet.to_json()))}")

    def finale(self) -> None:
        totals = getattr(self.shell.match.sheet, "totals", None)
        self.out(self._("end", totals=escape(json.dumps(totals))))


class PlainStatistics(judging.Statistics):
    """``simulate`` and ``arena`` for a game with no statistics of its own: the judge's
    figures only — each lineup's returns in the game's unit and the margin with its CI."""

    def __init__(self, new_state: Callable[[Any, int, Rng | None], GameState] | None = None
                 ) -> None:
        super().__init__()
        self.new_state = new_state

    def tally(self, arena: bool) -> Self:
        return type(self)(self.new_state)

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        return None

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        return None

    def start(self, rules: Any, board: judging.Board, seats: int) -> GameState:
        assert self.new_state is not None
        return self.new_state(rules, board.dealer, None)

    def to_json(self, f: judging.Figures) -> dict[str, Any]:
        lineups = [{"bots": f.seatings[0][i::2], "returns": f.totals[i],
                    "per_game": f.totals[i] / f.games if f.games else 0.0} for i in (0, 1)]
        return f.pick("game a b deals games mean ci95 seed lineups seconds" if f.arena else
                      "game games deals seed bots seatings lineups margin ci95 seconds "
                      "games_per_s", {"lineups": lineups})

    def print_report(self, out: Mapping[str, Any], console: judging.Console,
                     rate: judging.Rate, arena: bool) -> None:
        console.print(f"[bold]{out['game']}[/bold]: {out['games']} games, {out['deals']} "
                      f"deals, seed {out['seed']}")
        for lu in out["lineups"]:
            console.print(f"  {'+'.join(lu['bots'])}: {lu['returns']:+g} "
                          f"({lu['per_game']:+.3f}/game)")
        head = (f"Mean difference {out['a']} − {out['b']}" if arena
                else "Margin of the first lineup")
        console.print(judging.verdict(head, out["mean"] if arena else out["margin"],
                                      "per game", out["ci95"]))
