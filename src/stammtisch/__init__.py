"""stammtisch — the Wirtshaus card games (Mucken, Muckturniere, Schafkopf, Mulatschak, Mus).

Layering: cards → engine → games → bots/analysis → tournament → persistence → server/cli.
"""

__version__ = "0.1.0"
