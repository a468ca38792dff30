"""How the UI names the bots: a strength name and a short description in German,
English and Spanish (issue 19: the Spanish page of a Mus table) for each registered bot
(``GET /api/presets`` → ``bot_info``), instead of the
internal names (``pimc-fast``, ``ismcts-200ms`` …)."""

from __future__ import annotations

from typing import Any

#: internal name -> (strength 1..5, {lang: (name, description)})
_KNOWN: dict[str, tuple[int, dict[str, tuple[str, str]]]] = {
    "random": (1, {
        "de": ("Anfänger", "Spielt irgendeine erlaubte Karte und sagt selten an."),
        "en": ("Beginner", "Plays any legal card and rarely calls a game."),
        "es": ("Principiante", "Juega cualquier carta permitida y rara vez canta."),
    }),
    "heuristic": (2, {
        "de": ("Stammgast", "Spielt nach Faustregeln – schnell und ordentlich."),
        "en": ("Regular", "Plays by rules of thumb – quick and sound."),
        "es": ("Parroquiano", "Juega con reglas prácticas – rápido y con sensatez."),
    }),
    "pimc-fast": (3, {
        "de": ("Fortgeschritten", "Rechnet ein paar mögliche Kartenverteilungen durch."),
        "en": ("Advanced", "Works through a few possible deals of the hidden cards."),
        "es": ("Avanzado", "Calcula unos cuantos repartos posibles de las cartas ocultas."),
    }),
    "pimc": (4, {
        "de": ("Könner", "Rechnet viele mögliche Kartenverteilungen durch."),
        "en": ("Expert", "Works through many possible deals of the hidden cards."),
        "es": ("Experto", "Calcula muchos repartos posibles de las cartas ocultas."),
    }),
    "pimc-strong": (5, {
        "de": ("Meister", "Rechnet sehr viele Verteilungen durch und denkt dafür länger."),
        "en": ("Master", "Works through a great many deals and takes longer to think."),
        "es": ("Maestro", "Calcula muchísimos repartos y piensa más tiempo."),
    }),
    # the strongest Mulatschak bot: a search over the possible deals
    "search": (4, {
        "de": ("Könner", "Rechnet für jede Karte die möglichen Verteilungen durch."),
        "en": ("Expert", "Works through the possible deals for every card."),
        "es": ("Experto", "Calcula los repartos posibles para cada carta."),
    }),
    # the strongest Mus bot: plays its hands and bluffs now and then
    "bluff": (4, {
        "de": ("Schlitzohr", "Spielt seine Karten gut und blufft ab und zu."),
        "en": ("Sly fox", "Plays its cards well and bluffs now and then."),
        "es": ("Pícaro", "Juega bien sus cartas y de vez en cuando echa un farol."),
    }),
}

_ISMCTS = (4, {
    "de": ("Forscher", "Monte-Carlo-Baumsuche aus dem Forschungsteil (Bedenkzeit {t})."),
    "en": ("Researcher", "Monte Carlo tree search from the research part ({t} per move)."),
    "es": ("Investigador",
           "Búsqueda de Monte Carlo de la parte de investigación ({t} por jugada)."),
})


def bot_info(name: str) -> dict[str, Any]:
    """``{"strength", "name": {"de", "en", "es"}, "description": {"de", "en", "es"}}``."""
    if name in _KNOWN:
        strength, texts = _KNOWN[name]
        think = ""
    elif name.startswith("ismcts"):
        strength, texts = _ISMCTS
        think = name.partition("-")[2] or "—"
    else:
        strength, texts = 3, {"de": (name, "Ein weiterer Bot."), "en": (name, "Another bot."),
                              "es": (name, "Otro bot.")}
        think = ""
    return {"strength": strength,
            "name": {lang: n for lang, (n, _) in texts.items()},
            "description": {lang: d.replace("{t}", think) for lang, (_, d) in texts.items()}}


def bots_info(names: list[str]) -> dict[str, dict[str, Any]]:
    return {n: bot_info(n) for n in names}
