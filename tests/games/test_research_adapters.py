"""The research facade reaches a game's adapters through the registry."""

from __future__ import annotations

import pytest

from stammtisch.errors import StammtischError
from stammtisch.games import registry
from stammtisch.research import adapter, kinds


def test_adapters_by_game_and_kind() -> None:
    pytest.importorskip("numpy")
    assert kinds("mucken") == ["encoding", "openspiel", "pettingzoo"]
    encoding = adapter("mucken", "encoding")
    assert encoding.__name__ == "stammtisch.games.mucken.research.encoding"
    assert hasattr(encoding, "ActionCodec") and hasattr(encoding, "ObservationEncoder")


def test_unknown_game_or_kind_is_a_typed_error() -> None:
    with pytest.raises(registry.UnknownGameError):
        kinds("skat")
    with pytest.raises(StammtischError, match="no research adapter 'chess'"):
        adapter("mucken", "chess")
