from jxbot.i18n import has, t
from jxbot.rules import names
from jxbot.rules.contract import FAN_CODES, TAI_CODES


def test_every_item_has_a_chinese_and_an_english_label():
    for code in TAI_CODES + FAN_CODES:
        assert has(f"item.{code}"), code
        zh, en = t(f"item.{code}", "zh"), t(f"item.{code}", "en")
        assert zh != en and zh != f"item.{code}" and en != f"item.{code}"
    assert names.item_name("full_flush") == "清一色"
    assert names.item_name("full_flush", "en") == "Full flush"
    assert names.item_name("all_honors") == "字一色"


def test_reasons_are_explained_in_both_languages():
    for why in ("no_shape", "no_pattern"):
        assert "reason." not in t(f"reason.{why}", "zh")
        assert "reason." not in t(f"reason.{why}", "en")
