"""Mucken's option schema: every :class:`MuckenRules` option with its type, range and the
seed sentence it comes from (docs/rules/mucken.md §12, "Option reference").

>>> OPTIONS.parse_text("seefest", ["bobbl_target=31", "games=muck,wenz,geier"]).games
('muck', 'wenz', 'geier')
>>> OPTIONS.parse_json("wikipedia", {"sie": "ja"})
Traceback (most recent call last):
...
stammtisch.errors.RulesError: sie='ja': must be true or false
"""

from __future__ import annotations

from stammtisch.games.base.options import Messages, OptionSpec, RulesSchema, Source, derive_options
from stammtisch.games.mucken.rules import GAME_KINDS, PRESETS, MuckenRules

__all__ = ["OPTIONS", "SOURCES"]

#: option -> (seed tag, the seed's sentence); "" where the option is a reading
SOURCES: dict[str, Source] = {
    "name": (None, ""),
    "deck": ("001", "Es wird mit dem kurzen Blatt gespielt."),
    "games": ("001", "Es wird „Wenz über Muck“ gespielt."),
    "levels": ("000", "Normalerweise gibt es zusätzlich zu den „einfachen“ Spielen auch noch "
                      "die Möglichkeit, ein Spiel zu erhöhen, indem man es schneider oder "
                      "schwarz ansagt (s.u.)."),
    "values": ("001", "Die Spiele werden folgendermaßen gewertet:"),
    "partner_overcall_new_round": (
        "000", "(auch der eigene Partner). In diesem Fall gilt das Spiel als abgenommen, und "
               "es beginnt eine neue Ansagerunde."),
    "doublings": ("001", "Ein Spiel mit „Kontra“ wird doppelt gewertet."),
    "kontra_uebernimmt": (
        "001", "Das „Kontra“ gebende Paar gibt an, dass die Gegner ihr angesagtes Spiel nicht "
               "gewinnen werden („übernimmt“ also)."),
    "no_game": ("001", "Wird nichts angesagt, dann wird ein „Pflichtmuck“ um einen Punkt "
                       "gespielt."),
    "pflichtmuck_value": (
        "000", "Unabhängig davon, ob das Spiel schneider oder auch schwarz gewonnen wurde, "
               "gibt es für dieses Spiel nur einen Punkt für die Gewinner."),
    "pflichtmuck_tie": (
        "001", "geht ein Pflichtmuck 60:60 aus, dann wird das Spiel nicht gewertet und keiner "
               "bekommt einen Punkt."),
    "tie_card": ("000", "oder dass das Paar verloren hat, das eine bestimmte Karte hatte "
                        "(z. B. den Eichel-Ober)."),
    "einwerfen_double": ("000", "Oft wird das folgende Spiel danach doppelt gewertet."),
    "muss_card": ("000", "Zumeist muss dann der Besitzer einer bestimmten Karte (z. B. des "
                         "Eichel-Obers) ein Spiel ansagen."),
    "muss_60_wins": (
        "000", "gilt das Spiel für das spielende Paar (wenn der Besitzer einer bestimmten "
               "Karte das Spiel ansagen muss) bereits mit 60 Augen als gewonnen und – für "
               "das gegnerische Paar – mit 30 Augen als schneiderfrei."),
    "ramsch_value": (None, ""),
    "ramsch_double": ("000", "Der Ramsch wird häufig doppelt gewertet."),
    "ramsch_stichzwang": (
        "000", "Beim Ramsch besteht häufig auch ein Stich-Zwang, d. h. ein Spieler, der die "
               "Wahl hat z. B. Fehlfarbe zuzugeben oder mit einem Trumpf zu stechen, muss "
               "dies tun."),
    "durchmarsch": ("000", "Eine aus dem Skat übernommene Sonderform ist der Durchmarsch, d. "
                           "h. ein Spieler macht alle Stiche und gewinnt das Spiel."),
    "ramsch_last_man": (
        "000", "Oft hat auch der letzte Mann die Möglichkeit, Ramsch anzusagen, falls die vor "
               "ihm sitzenden Spieler alle nichts angesagt haben."),
    "sie": ("000", "Das ist dann das höchstwertige Spiel, das zustande kommt, wenn ein "
                   "Spieler alle vier Ober und die zwei höchsten Unter erhält."),
    "sie_value": (None, ""),
    "cut_min": ("001", "Es müssen mindestens drei Karten abgehoben werden und liegen "
                       "bleiben."),
    "cut_min_left": ("001", "Es müssen mindestens drei Karten abgehoben werden und liegen "
                            "bleiben."),
    "cut_min_times": ("001", "Es wird mindestens einmal, höchstens zweimal abgehoben."),
    "cut_max_times": (
        "000", "Bei einem Muckturnier werden normalerweise ein Mal mindestens drei Karten "
               "abgehoben, wobei mindestens drei Karten liegen bleiben müssen"),
    "klopfen": ("000", "Sofern es so vereinbart ist, kann evtl. auch geklopft werden, d.h., "
                       "dass keine Karten abgehoben werden, sondern nur auf den "
                       "Kartenstapel geklopft wird."),
    "auskarten_pairs": ("000", "Der zweite Spieler, der eine passende Karte erhält, bildet "
                               "mit dem ersten ein Paar."),
    "bobbl_target": ("001", "Ein Bobbl wird gespielt, bis ein Paar durch das Gewinnen eines "
                            "Spiels mindestens 21 Punkte erreichen würde."),
    "haenger": ("000", "Zum Gewinnen des Hängers müssen zwei Bobbl gewonnen werden."),
}

_AT_LEAST_1 = {"minimum": 1}
#: a row of the score table: gewonnen, schneider, schwarz (``null``: impossible)
_ROW = OptionSpec("values", "list", length=3,
                  item=OptionSpec("values", "int", minimum=1, nullable=True),
                  why="needs three whole numbers (or null)")

#: Mucken's options (the order of ``MuckenRules``'s fields)
OPTIONS: RulesSchema[MuckenRules] = RulesSchema(
    game="mucken",
    build=MuckenRules.preset,
    presets=PRESETS,
    default_preset="seefest",
    options=derive_options(MuckenRules, SOURCES, refine={
        "games": {"item": OptionSpec("games", "choice", allowed=GAME_KINDS)},
        "values": {"kind": "mapping", "item": _ROW,
                   "entry_error": "{option}: {key!r} {why}"},
        "doublings": {"minimum": 0, "maximum": 4,
                      "why": "must be 0 (none) .. 4 (Kontra, Re, Sup, Hirsch)"},
        "pflichtmuck_value": _AT_LEAST_1,
        "ramsch_value": _AT_LEAST_1,
        "sie_value": _AT_LEAST_1,
        "cut_min": _AT_LEAST_1,
        "cut_min_left": _AT_LEAST_1,
        "cut_min_times": {"minimum": 0, "maximum": 5},
        "cut_max_times": {"minimum": 0, "maximum": 5},
        "bobbl_target": _AT_LEAST_1,
    }),
    messages=Messages(
        unknown="unknown Mucken rules option {key!r} (known: {known})",
        not_a_pair="--option {item!r}: expected key=value (e.g. bobbl_target=31)",
        text_bool="expected true/false (ja/nein, 1/0)",
        text_int="expected a whole number",
        checked_as_text=frozenset({"values"}),
    ),
)
