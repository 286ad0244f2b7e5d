"""The Sichuan room options and presets (docs/rules/sichuan.md §14): every option has its labels and defaults,
and a preset — one lobby choice — sets several options at once (血战换三张 = 血战到底 + 换三张)."""

from __future__ import annotations

import pytest

from engine import InvalidOption, Preset

from .sichuan_helpers import SC

DEFAULTS = {
    "mode": "xuezhan",  # docs/rules/sichuan.md §14.5: 血战到底, or 血流成河
    "swap": False,  # docs/rules/sichuan.md §14.6: 换三张 default off
    "dianganghua": "zimo",  # docs/rules/sichuan.md §14.12: 点杠花 paid as a self-draw (default)
    "full_fans": True,  # docs/rules/sichuan.md §14.13: the full Chengdu table, default on
    "menqing_zhongzhang": False,  # docs/rules/sichuan.md §14.14
    "tiandihu": False,  # docs/rules/sichuan.md §14.15
    "last_four": False,  # docs/rules/sichuan.md §14.16: an option, default off
    "cap": 3,  # docs/rules/sichuan.md §14.8: the cap, default 3 番
}


@pytest.mark.parametrize(("name", "default"), sorted(DEFAULTS.items()))
def test_defaults(name: str, default: object) -> None:
    """docs/rules/sichuan.md §14: each option's default."""
    assert SC.make_options()[name] == default


def test_every_option_reads_in_chinese_and_english() -> None:
    """docs/rules/sichuan.md §14: every option in the lobby and /rules — each has a label and each value a
    label, zh and en (booleans read 是/否, yes/no)."""
    for spec in SC.option_specs:
        assert spec.label("zh") and spec.label("en") and spec.label("zh") != spec.label("en")
        for value in spec.choices:
            zh, en = spec.value_label(value, "zh"), spec.value_label(value, "en")
            assert zh and en
            if isinstance(value, str):
                assert zh != value and en != value, (spec.name, value)  # never the raw id


def test_presets_are_the_apps_rooms() -> None:
    """docs/rules/sichuan.md §14.1–§14.4: the presets 血战到底, 血战换三张, 血流成河 (with 换三张, as the
    apps) and 三人两房."""
    by_id = {p.id: p for p in SC.presets}
    assert [p.label("zh") for p in SC.presets] == ["血战到底", "血战换三张", "血流成河", "三人两房"]
    assert by_id["xuezhan_swap"].options == {"mode": "xuezhan", "swap": True}
    assert by_id["xueliu"].options == {"mode": "xueliu", "swap": True}
    for p in SC.presets:
        SC.make_options(p.options)  # every preset is a valid room
        assert p.label("en") and p.seats in (3, 4)


def test_the_room_shows_which_preset_it_plays() -> None:
    """Preset.matches / Variant.preset_of: a room's options and seats name its preset, or none once an
    option of the preset is changed."""
    opts = SC.make_options({"swap": True})
    found = SC.preset_of(opts, 4)
    assert isinstance(found, Preset) and found.id == "xuezhan_swap"
    assert (
        SC.preset_of(SC.make_options(), 4) is not None and SC.preset_of(SC.make_options(), 4).id == "xuezhan"
    )
    assert SC.preset_of(opts, 3) is None  # 换三张 at three seats is no preset


def test_unknown_values_are_refused() -> None:
    with pytest.raises(InvalidOption):
        SC.make_options({"mode": "xueliuchenghe"})


def test_the_rules_page_lists_every_fan_and_option() -> None:
    """docs/rules/sichuan.md §5.1, §5.2, §14: the fan tables — every hand shape with its fan in a table row,
    and every room option by its id."""
    from pathlib import Path

    from engine.variants.sichuan import NAMES, SHAPE_FAN

    page = (Path(__file__).resolve().parent.parent / "docs" / "rules" / "sichuan.md").read_text("utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| ")]
    for name, fan in SHAPE_FAN.items():
        zh = NAMES[name][0]
        assert any(line.startswith(f"| {zh} ") and f"| {fan} |" in line for line in rows), zh
    for spec in SC.option_specs:
        assert f" {spec.name}：" in page, spec.name
