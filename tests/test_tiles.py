import pytest

from jxbot.rules import Meld, MeldKind, format_tiles, parse_tiles, tile_name


def test_notation_round_trips_in_written_order():
    tiles = parse_tiles("123m456p77z9s1m")
    assert tiles == [0, 1, 2, 12, 13, 14, 33, 33, 26, 0]
    assert parse_tiles(format_tiles(tiles)) == tiles


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("123", "no suit letter"), ("12x", "unexpected 'x' at position 2"), ("8z", "honors are 1z–7z"),
     ("05m", "no red fives"), ("m", "has no digits")],
)
def test_bad_notation_says_what_and_where(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_tiles(text)


def test_tile_names_in_both_languages():
    assert tile_name(4) == "5万"
    assert tile_name(27) == "东"
    assert tile_name(31, "en") == "White"


def test_meld_rejects_a_broken_chow():
    with pytest.raises(ValueError):
        Meld.chow("124m")
    m = Meld.pung("777z", from_seat=2)
    assert m.kind is MeldKind.PUNG and m.is_pung_like and m.from_seat == 2
    assert Meld.from_json(m.to_json()) == m
