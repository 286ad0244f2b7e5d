"""The full Chengdu fan table and its room options (docs/rules/sichuan.md §5.2–§5.4, 裁定 13, 裁定 24–28:
option ``full_fans``, default on; ``menqing_zhongzhang`` and ``tiandihu``, default off). Each fan is a test
with its value.

Hands are whole 14-tile hands with melds in brackets (``fans`` as in test_sichuan_hands); played hands use
the Sichuan junk hands, which only pass and throw what they draw."""

from __future__ import annotations

from dataclasses import replace

from engine import Act, Phase, State, parse_tiles
from engine.melds import Meld, MeldKind
from engine.state import evolve_seat
from engine.tiles import to_counts
from engine.variants.sichuan import best_fan

from .dealing import act, discard, discard_drawn, hand_names, last_settlement, paid
from .sichuan_helpers import J0, J1, J2, J3, SC, deal, fans

# ---------------------------------------------------------------- the full table (default on)


def test_full_table_is_on_by_default() -> None:
    """docs/rules/sichuan.md §5.2, 裁定 13: the full Chengdu table is a room option, on by default."""
    assert SC.make_options()["full_fans"] is True


def test_jingoudiao_is_2_fan() -> None:
    """docs/rules/sichuan.md §5.2, 裁定 26: 金钩钓 (four melds, waiting on the pair alone) 2 — it is an
    all-pungs hand, not 对对胡 1 on top."""
    assert fans("44s[111m][333m][666s][999s]", "4s") == {"jingoudiao": 2}


def test_jingoudiao_counts_its_kongs_as_gen() -> None:
    """docs/rules/sichuan.md §5.5, 裁定 24: a kong among the four melds of 金钩钓 is a 根."""
    assert fans("44s[1111m][333m][666s][999s]", "4s") == {"jingoudiao": 2, "gen": 1}


def test_jingoudiao_needs_four_exposed_melds() -> None:
    """docs/rules/sichuan.md §5.2, 裁定 24: 金钩钓 is four *exposed* melds; a concealed kong is not one, so
    the single wait beside it is 对对胡 with the kong's 根 (2 番, not 3) — but four kongs, concealed or not,
    are 十八罗汉."""
    assert fans("44s[(1111m)][333m][666s][999s]", "4s") == {"duiduihu": 1, "gen": 1}
    assert fans("44s[(1111m)][333m][666m][888m]", "4s") == {"duiduihu": 1, "gen": 1}
    assert fans("44s[1111m][3333m][6666s][(9999s)]", "4s") == {"shibaluohan": 6}


def test_jingoudiao_needs_every_set_melded() -> None:
    """金钩钓 is the single wait of four melds: with a concealed pung the hand is a plain 对对胡."""
    assert fans("44s999s[111m][333m][666s]", "4s") == {"duiduihu": 1}


def test_qingjingoudiao_is_4_fan() -> None:
    """docs/rules/sichuan.md §5.2: 清金钩钓 4 — one suit, four melds, a single wait."""
    assert fans("99m[111m][333m][666m][888m]", "9m") == {"qingjingoudiao": 4}


def test_daiyaojiu_is_2_fan() -> None:
    """docs/rules/sichuan.md §5.2: 带幺九 (every set and the pair hold a 1 or 9) 2 — 123m 789m 789s 111s
    99s."""
    assert fans("123m789m111s99s789s", "9s") == {"daiyaojiu": 2}
    assert fans("123m99s789s[111s][999m]", "9s") == {"daiyaojiu": 2}


def test_daiyaojiu_needs_a_terminal_in_every_set() -> None:
    """带幺九: one set without a 1 or 9 (234m), or a pair of 5s, and it is a plain hand."""
    assert fans("234m789m111s99s789s", "9s") == {"pinghu": 0}
    assert fans("123m789m111s55s789s", "5s") == {"pinghu": 0}
    assert fans("789s99s[111s][999m][555m]", "9s") == {"pinghu": 0}


def test_qingdaiyaojiu_is_4_fan() -> None:
    """docs/rules/sichuan.md §5.2, 裁定 26: 清带幺九 (清幺九) 4 — one suit, a terminal in every set: 123m
    789m×3 11m."""
    assert fans("123m789m789m789m11m", "1m") == {"qingdaiyaojiu": 4}


def test_jiangqidui_is_4_fan() -> None:
    """docs/rules/sichuan.md §5.2, 裁定 25: 将七对 (七对 of 2/5/8 only) 4. Two suits hold six kinds of 2/5/8,
    so the seven pairs hold a four: that four is in the fan (as 龙七对's), not a 根."""
    assert fans("2222m55m88m22s55s88s", "8s") == {"jiangqidui": 4}


def test_jiangqidui_counts_a_second_four_as_gen() -> None:
    """docs/rules/sichuan.md §5.5, 裁定 25: a further four of a kind is a 根: 将七对 4 + 1."""
    assert fans("2222m5555m88m22s55s", "5s") == {"jiangqidui": 4, "gen": 1}


def test_shibaluohan_is_6_fan() -> None:
    """docs/rules/sichuan.md §5.2, 裁定 24: 十八罗汉 (four kongs + a pair wait) 6; its four kongs are in its
    fan, no 根 — as the apps price it (金钩钓 2 + 4 根 = 6)."""
    assert fans("44s[1111m][3333m][6666s][(9999s)]", "4s") == {"shibaluohan": 6}


def test_qingshibaluohan_is_8_fan() -> None:
    """docs/rules/sichuan.md §5.2, 裁定 24: 十八罗汉 of one suit, 清十八罗汉 8 (清金钩钓 4 + 4 根, as the apps
    price it)."""
    assert fans("44m[1111m][3333m][6666m][(9999m)]", "4m") == {"qingshibaluohan": 8}


def test_a_hand_scores_its_best_reading_under_the_full_table() -> None:
    """docs/rules/sichuan.md 裁定 10, 裁定 26: a hand that reads several ways scores its best reading — 将对
    (3) beats 金钩钓 (2) on the same four melds of 2/5/8; 十八罗汉 of 2/5/8 reads as 将对 + 4 根 (7)."""
    assert fans("55s[222m][555m][888s][222s]", "5s") == {"jiangdui": 3}
    assert fans("55s[2222m][5555m][8888s][2222s]", "5s") == {"jiangdui": 3, "gen": 4}


def test_the_full_table_off_keeps_the_basic_one() -> None:
    """docs/rules/sichuan.md §5.2, §14.13: the extra fans are an option: without it 金钩钓 is 对对胡, 带幺九
    平胡, 将七对 龙七对, 十八罗汉 对对胡 + 4 根."""
    off = {"full_fans": False}
    assert fans("44s[111m][333m][666s][999s]", "4s", options=off) == {"duiduihu": 1}
    assert fans("123m789m111s99s789s", "9s", options=off) == {"pinghu": 0}
    assert fans("2222m55m88m22s55s88s", "8s", options=off) == {"longqidui": 3}
    assert fans("44s[1111m][3333m][6666s][(9999s)]", "4s", options=off) == {"duiduihu": 1, "gen": 4}


def melded(state: State, seat: int, concealed: str, pungs: str) -> State:
    """``state`` with ``seat`` holding ``concealed`` and a pung of each tile of ``pungs`` (fed by seat 0)."""
    melds = tuple(Meld(MeldKind.PUNG, t, 0) for t in parse_tiles(pungs))
    seats = list(state.seats)
    seats[seat] = evolve_seat(seats[seat], counts=to_counts(parse_tiles(concealed)), melds=melds)
    return replace(state, seats=tuple(seats))


def test_a_golden_hook_is_paid_as_2_fan() -> None:
    """docs/rules/sichuan.md §6.1: a win pays 底分 × 2^fan: 金钩钓 won on a discard pays 4. Seat 1 has punged
    four times and waits on 4s alone."""
    state = melded(deal([J0 + "4s", J3, J1, J2]), 1, "4s", "1m3m6s9s")
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["jingoudiao"]
    assert settlement.deltas == (-4, 4, 0, 0)


def test_chadajiao_pays_a_ready_golden_hook_its_2_fan() -> None:
    """docs/rules/sichuan.md §12.3: 查大叫 pays each ready player his best possible hand — 金钩钓 (2) is his
    hand: 4."""
    state = melded(deal([J0 + "3p", J3, J1, J2]), 1, "4s", "1m3m6s9s")
    assert best_fan(state, 1) == 2


# ---------------------------------------------------------------- 门清 and 中张 (option, default off)


MENQING = "234m456m678m345s66s"  # concealed, no 1 or 9: 平胡


def test_menqing_zhongzhang_is_off_by_default() -> None:
    """docs/rules/sichuan.md §5.3, 裁定 13: 门清中张 is a room option, off by default."""
    assert SC.make_options()["menqing_zhongzhang"] is False
    assert fans(MENQING, "6s") == {"pinghu": 0}


def test_menqing_and_zhongzhang_are_plus_1_each() -> None:
    """docs/rules/sichuan.md §5.3: 门清 (no pung or exposed kong) +1, 中张 (no 1/9) +1."""
    on = {"menqing_zhongzhang": True}
    assert fans(MENQING, "6s", options=on) == {"pinghu": 0, "menqing": 1, "zhongzhang": 1}


def test_menqing_allows_a_concealed_kong_but_no_pung() -> None:
    """docs/rules/sichuan.md §5.3: a concealed kong keeps the hand 门清; a pung or an exposed kong does
    not."""
    on = {"menqing_zhongzhang": True}
    got = fans("234m456m345s66s[(7777m)]", "6s", options=on)
    assert got == {"pinghu": 0, "gen": 1, "menqing": 1, "zhongzhang": 1}
    assert fans("234m456m345s66s[777m]", "6s", options=on) == {"pinghu": 0, "zhongzhang": 1}
    assert fans("234m456m345s66s[7777m]", "6s", options=on) == {"pinghu": 0, "gen": 1, "zhongzhang": 1}


def test_zhongzhang_needs_no_terminal_anywhere() -> None:
    """docs/rules/sichuan.md §5.3, 裁定 27: a 9 in a meld or a 1 in the hand and there is no 中张."""
    on = {"menqing_zhongzhang": True}
    assert fans("123m456m678m345s66s", "6s", options=on) == {"pinghu": 0, "menqing": 1}
    assert fans("234m456m345s66s[999m]", "6s", options=on) == {"pinghu": 0}


def test_seven_pairs_are_menqing() -> None:
    """docs/rules/sichuan.md 裁定 27: seven pairs are always concealed and take 门清's +1."""
    on = {"menqing_zhongzhang": True}
    assert fans("11m33m55m77s99s22s44s", "4s", options=on) == {"qidui": 2, "menqing": 1}


# ---------------------------------------------------------------- 天胡 / 地胡 (option, default off)

TIANHU = "123m456m789m234s55s"  # complete as dealt
PINGHU = "123m456m789m23s55s"  # waits 1s/4s


def test_tiandihu_is_off_by_default() -> None:
    """docs/rules/sichuan.md §5.4, 裁定 13: the 天地胡 option is off by default: a win on the dealt tiles is
    just its hand."""
    assert SC.make_options()["tiandihu"] is False
    state = deal([TIANHU, J0, J1, J2])
    state = act(state, 0, Act.WIN)
    assert hand_names(last_settlement(state), 0) == ["pinghu", "zimo_jiadi"]


def test_tianhu_is_paid_at_the_cap() -> None:
    """docs/rules/sichuan.md §5.4, 裁定 28: 天胡 is paid at the cap (封顶). The dealer wins on his dealt 14
    tiles: 8 (cap 3 番) + 1 自摸加底 from each."""
    state = deal([TIANHU, J0, J1, J2], tiandihu=True)
    state = act(state, 0, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 0) == ["pinghu", "tianhu", "zimo_jiadi"]
    assert paid(settlement) == {1: 9, 2: 9, 3: 9}


def test_dihu_on_the_dealers_first_discard() -> None:
    """docs/rules/sichuan.md 裁定 28: 地胡 is a non-dealer's win with his first tile — here the dealer's
    first discard: paid at the cap, 8, by the dealer."""
    state = deal([J0 + "4s", PINGHU, J1, J2], tiandihu=True)
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["dihu", "pinghu"]
    assert settlement.deltas == (-8, 8, 0, 0)


def test_dihu_on_the_first_own_draw() -> None:
    """docs/rules/sichuan.md 裁定 28: 地胡 — a non-dealer self-draws on his first draw, nobody has punged or
    konged: the cap, 8, + 1 自摸加底 from each."""
    state = deal([J0 + "3p", PINGHU, J1, J2], draws="4s", tiandihu=True)
    state = discard(state, 0, "3p")
    assert state.current == 1
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["dihu", "pinghu", "zimo_jiadi"]
    assert paid(settlement) == {0: 9, 2: 9, 3: 9}


def test_no_dihu_after_the_first_go_around() -> None:
    """docs/rules/sichuan.md 裁定 28: 地胡 is the first tile only: seat 1 self-draws on his second draw — an
    ordinary 平胡."""
    state = deal([J0 + "3p", PINGHU, J1, J2], draws="6p7p8p9p4s", tiandihu=True)
    state = discard(state, 0, "3p")
    for _ in range(4):
        state = discard_drawn(state)
    assert state.current == 1 and state.phase == Phase.TURN
    state = act(state, 1, Act.WIN)
    assert hand_names(last_settlement(state), 1) == ["pinghu", "zimo_jiadi"]
