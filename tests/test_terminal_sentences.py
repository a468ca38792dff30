"""The terminal's sentences are grammatical (issue 19): the single human is "du"/"you" in
the case and person the sentence needs ("Stich 1 an dich", "du bist der Partner", "Du hast
die höchste Ansage", "von dir"), and counts take the singular or the plural
("1 Karte", "2 Karten"; ``key.one`` in the shared i18n files, chosen by ``{n}``)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from stammtisch.cli.main import app
from stammtisch.i18n import Translator

ENV: dict[str, str | None] = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8",
                              "COLUMNS": "100", "NO_COLOR": "1"}


def play(*args: str, answers: str = "1\n" * 3000) -> str:
    result = CliRunner(env=ENV).invoke(app, ["play", *args], input=answers)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


@pytest.mark.parametrize(("lang", "key", "n", "text"), [
    ("de", "play.mu.discards", 1, "Hans legt 1 Karte verdeckt ab."),
    ("de", "play.mu.discards", 2, "Hans legt 2 Karten verdeckt ab."),
    ("en", "play.mu.discards", 1, "Hans discards 1 card face down."),
    ("en", "play.mu.discards", 3, "Hans discards 3 cards face down."),
    ("de", "play.cuts", 1, "Hans hebt 1 Karte ab."),
    ("de", "play.cuts", 7, "Hans hebt 7 Karten ab."),
    ("de", "play.mu.tauscht", 1, "Hans: tausche — 1 Karte verdeckt weg."),
    ("en", "play.mu.tauscht", 0, "Hans: tausche — 0 cards away face down."),
])
def test_counts_take_the_singular_or_the_plural(lang: str, key: str, n: int, text: str) -> None:
    assert Translator(lang)(key, name="Hans", n=n) == text


def test_a_singular_form_exists_only_beside_its_plural() -> None:
    for lang in ("de", "en"):
        texts = Translator(lang).texts
        for key in texts:
            if key.endswith(".one"):
                assert key[:-4] in texts, key


@pytest.mark.parametrize("lang", ["de", "en"])
def test_schafkopf_speaks_to_the_single_human_in_the_right_case(lang: str) -> None:
    out = play("--game", "schafkopf", "--seed", "3", "--bots", "random", "--lang", lang)
    if lang == "de":
        assert "an dich" in out
        assert not re.search(r"\ban Du\b|\bDu ist\b|\bDu hat\b", out)
    else:
        assert "to you" in out
        assert not re.search(r"\bto You\b|\bYou is\b|\bYou has\b", out)


def test_schafkopf_names_the_single_human_as_partner_with_du() -> None:
    # seed 2 with the default bot: the human is the called partner (golden
    # schafkopf_default_bot_*)
    de = play("--game", "schafkopf", "--seed", "2", "--lang", "de")
    en = play("--game", "schafkopf", "--seed", "2", "--lang", "en")
    assert "ist gefallen: du bist der Partner." in de and "Du ist der Partner" not in de
    assert "has been played: you are the partner." in en and "You is the partner" not in en


@pytest.mark.parametrize("lang", ["de", "en"])
def test_mulatschak_says_du_and_counts_its_tricks(lang: str) -> None:
    out = play("--game", "mulatschak", "--seed", "9", "--bots", "random", "--lang", lang)
    assert "(e)" not in out and "(n)" not in out and "(s)" not in out
    if lang == "de":
        assert not re.search(r"\bDu (hat|spielt|ist)\b", out)
    else:
        assert not re.search(r"\bYou (has|is|plays)\b", out)


def test_mulatschak_outcome_counts_tricks_in_the_right_number() -> None:
    de, en = Translator("de"), Translator("en")
    made = {"bid": "1 Stich", "trump": "E", "name": "Hans"}
    assert de("play.mu.outcome.made", n=1, **made).endswith("mit 1 Stich geschafft")
    assert de("play.mu.outcome.made", n=3, **made).endswith("mit 3 Stichen geschafft")
    assert de("play.mu.outcome.fell.du", n=0, **made) == (
        "Du hast 1 Stich in E angesagt und bist mit 0 Stichen gefallen")
    assert en("play.mu.outcome.made", n=1, **made).endswith("made it with 1 trick")


def test_mulatschak_typist_bids_muli_in_the_second_person() -> None:
    # the golden t_mulatschak_4_de: the human holds the highest bid (Muli)
    from pathlib import Path
    golden = (Path(__file__).parent / "golden" / "terminal" / "t_mulatschak_4_de.txt").read_text()
    plain = re.sub(r"\x1b\[[0-9;]*m", "", golden)
    assert "Du hast die höchste Ansage: Muli" in plain
    assert "Du spielst Muli in S · Stich 1" in plain
    assert "Du hat" not in plain and "Du spielt" not in plain


@pytest.mark.parametrize("lang", ["de", "en"])
def test_mucken_declarer_after_von_is_dir(lang: str) -> None:
    golden = (__import__("pathlib").Path(__file__).parent / "golden" / "terminal"
              / f"t_mucken_wiki_{lang}.txt").read_text()
    plain = re.sub(r"\x1b\[[0-9;]*m", "", golden)
    assert ("von dir" if lang == "de" else "by you") in plain
    assert "von Du" not in plain and "by You" not in plain


def test_schafkopf_money_in_euros_in_the_terminal() -> None:
    assert Translator("de").euros(240) == "+2,40 €"
    assert Translator("de").euros(-123456) == "-1.234,56 €"
    assert Translator("en").euros(240) == "+€2.40"
    assert Translator("en").euros(0) == "€0.00"
    out = play("--game", "schafkopf", "--seed", "3", "--bots", "random", "--lang", "de")
    payments = [line for line in out.splitlines() if line.startswith("Zahlungen:")]
    assert payments and all(re.fullmatch(
        r"Zahlungen: (\w+ [+-]?\d+,\d\d €(, )?)+", line) for line in payments), payments
    assert "in Cent" not in out
