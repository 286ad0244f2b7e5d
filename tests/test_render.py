"""bot.render: views built from an Observation only; nothing of another seat's concealed hand leaks."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from bot import ai
from bot.text import render, views
from engine import (
    Act,
    Action,
    Event,
    EventKind,
    KongMode,
    Meld,
    Observation,
    Phase,
    SettleKind,
    State,
    apply,
    arranged_hand,
    get_variant,
    new_hand,
    observe,
    observe_public,
    to_act,
)
from engine.melds import MeldKind
from engine.state import Op, Part, Payment, Settlement
from engine.tiles import parse_tile, parse_tiles, tile_str, to_counts
from engine.variants.xiangyin import value_parts as xiangyin_value_parts

from .dealing import discard, last_settlement, play_to_end
from .sichuan_helpers import J0, J1, deal

RS = get_variant("changsha")
OTHERS = ["13579m4689s1357p", "2468m13579p4689s", "13579s246p1357m8m"]


def _start(hand0: str, others: list[str] | None = None, dealer: int = 0) -> State:
    state = arranged_hand(RS, [hand0, *(others or OTHERS)], dealer=dealer)
    while state.phase == Phase.OPENING:
        state, _ = apply(state, Action(state.current, Act.PASS))
    return state


def _claim_state(hand0: str, discard: str, dealer_hand: str = "13579s2468p1357m") -> State:
    """Seat 3 (dealer) discards ``discard``; seat 0, its next seat, may claim it."""
    hands = [hand0, "13579m2468s1357p", "2468m13579p2468s", dealer_hand + discard]
    state = arranged_hand(RS, hands, dealer=3)
    while state.phase == Phase.OPENING:
        state, _ = apply(state, Action(state.current, Act.PASS))
    state, _ = apply(state, Action(3, Act.DISCARD, parse_tile(discard)))
    assert state.phase == Phase.CLAIM
    return state


def _views(obs: Observation, lang: str) -> str:
    parts = [
        render.table_view(obs, lang),
        render.hand_view(obs, lang),
        render.prompt(obs, lang),
        " / ".join(label for _, label in render.choices(obs, lang)),
    ]
    if obs.phase == Phase.ENDED:
        parts.append(render.result_view(obs, lang))
    return "\n".join(parts)


# ------------------------------------------------------------------ only an Observation


def test_render_functions_take_an_observation_never_a_state() -> None:
    for name in ("hand_view", "table_view", "claim_prompt", "prompt", "result_view", "choices"):
        fn = getattr(render, name)
        first = next(iter(inspect.signature(fn).parameters.values()))
        assert first.name == "obs" and "Observation" in str(first.annotation)
    assert not any(isinstance(v, type) and v.__name__ == "State" for v in vars(render).values())


def _swap_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same position with ``seat``'s concealed tiles exchanged with unseen wall tiles."""
    s = state.seats[seat]
    hand = [t for t, n in enumerate(s.counts) for _ in range(n)]
    wall = list(state.wall.tiles)
    free = [p for p in range(len(wall)) if not state.wall.taken >> p & 1]
    rng.shuffle(free)
    for i, p in enumerate(free[: len(hand)]):
        hand[i], wall[p] = wall[p], hand[i]
    seats = list(state.seats)
    seats[seat] = replace(s, counts=to_counts(hand))
    return replace(state, seats=tuple(seats), wall=replace(state.wall, tiles=tuple(wall)))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_views_do_not_depend_on_other_seats_hidden_tiles(lang: str) -> None:
    """Two deals that differ only in another seat's concealed tiles render the same for seat 0."""
    rng = random.Random(3)
    compared = 0
    for seed in range(12):
        state = new_hand(RS, seed)
        step = 0
        while state.phase != Phase.ENDED:
            step += 1
            for other in (1, 2, 3):
                s = state.seats[other]
                if s.revealed or state.current == other or step % 3:
                    continue
                twin = _swap_hidden(state, other, random.Random(rng.random()))
                if twin.seats[other].counts == s.counts:
                    continue
                assert _views(observe(state, 0), lang) == _views(observe(twin, 0), lang)
                compared += 1
            seat = to_act(state)[0]
            state, _ = apply(state, ai.choose(observe(state, seat), random.Random(seed)))
    assert compared > 100


def test_views_of_the_deal_equal_for_two_deals_differing_in_one_hidden_hand() -> None:
    """Explicit deals: seat 2's hand differs (tiles swapped with the wall), seat 0's view is identical."""
    a = arranged_hand(RS, ["123m456m789p55p23m9s", *OTHERS], draws="1s")
    b = arranged_hand(RS, ["123m456m789p55p23m9s", OTHERS[0], "2468m13579p3789s", OTHERS[2]], draws="1s")
    assert a.seats[2].counts != b.seats[2].counts
    for lang in ("zh", "en"):
        assert _views(observe(a, 0), lang) == _views(observe(b, 0), lang)
    assert observe(a, 2).hand != observe(b, 2).hand


def test_events_hide_other_seats_private_tiles() -> None:
    names = ["A", "B", "C", "D"]
    five = parse_tile("5m")
    draw = Event(EventKind.DRAW, 2, five, private=True)
    assert "5m" in (render.event_line(draw, 2, "en", names) or "")
    assert "5m" not in (render.event_line(draw, 0, "en", names) or "")
    kong = Event(EventKind.KONG, 2, five, meld=Meld(MeldKind.KONG_CONCEALED, five), mode=KongMode.BU)
    assert "5m" not in (render.event_line(kong, 0, "zh", names) or "")
    assert "5m" in (render.event_line(kong, 2, "zh", names) or "")
    # who passed a claim (or a win) is nobody else's business
    answer = Event(EventKind.ANSWER, 2, private=True, answer=Act.PASS)
    assert render.event_line(answer, 0, "zh", names) is None
    assert render.event_line(Event(EventKind.PASSED_WIN, 2), 0, "zh", names) is None
    assert render.event_line(Event(EventKind.PASSED_WIN, 0), 0, "zh", names)


def test_concealed_kong_shown_only_as_a_count_to_others() -> None:
    state = _start("2222s23m456m789p55p")
    state, _ = apply(state, Action(0, Act.KONG, parse_tile("2s"), "bu"))
    own = render.table_view(observe(state, 0), "zh")
    other = render.table_view(observe(state, 1), "zh")
    assert "[暗杠 二二二二条]" in own
    assert "2222s" not in other and "暗杠 ×1" in other


# ------------------------------------------------------------------ the private hand


def test_hand_view_sorted_by_suit_with_chinese_names_and_drawn_tile() -> None:
    state = _start("123m456m789p55p23m9s")
    obs = observe(state, 0)
    text = render.hand_view(obs, "zh")
    lines = text.splitlines()
    assert lines[0].startswith("你的手牌（14 张）")
    assert "万: 1m 一万 | 2m 二万 | 2m 二万 | 3m 三万 | 3m 三万 | 4m 四万" in text
    assert "5p 五筒" in text and "9s 九条" in text
    # suits in order 万 条 筒
    assert text.index("万:") < text.index("条:") < text.index("筒:")
    assert obs.drawn is not None
    assert f"摸到 → {render.tile_label(obs.drawn, 'zh')}" in text
    # 14 tiles: the discards that leave the hand ready, with their waits
    assert "打 九条 听 1m 一万" in text and "4m 四万" in text


def test_hand_view_shows_waits_when_ready() -> None:
    state = _start("123m456m789p55p23m9s")
    state, _ = apply(state, Action(0, Act.DISCARD, parse_tile("9s")))
    obs = observe(state, 0)
    assert len(obs.hand) == 13
    zh = render.hand_view(obs, "zh")
    en = render.hand_view(obs, "en")
    assert "听牌: 1m 一万" in zh and "4m 四万" in zh
    assert "waiting on: 1m" in en and "4m" in en


# ------------------------------------------------------------------ claims and labels


def test_claim_prompt_lists_every_option_exactly() -> None:
    # seat 0 holds 555s and 46s: the 5s may be konged (补张 only: not ready after), punged or chowed
    state = _claim_state("555s46s123m789m5p9p", "5s", dealer_hand="1379s2468p1357m9m")
    obs = observe(state, 0)
    acts = {(a.act, a.tile, a.detail) for a in obs.legal}
    assert (Act.PUNG, None, "") in acts and (Act.CHOW, parse_tile("4s"), "") in acts
    zh = render.claim_prompt(obs, "zh")
    assert zh.startswith("上家 打出 5s 五条。你可以：")
    assert "碰 五条（用手里两张 五条）" in zh
    assert "吃 四五六条（用手里 四六条）" in zh
    assert "杠 五条 补张" in zh
    assert zh.rstrip().endswith("过")
    en = render.claim_prompt(obs, "en")
    assert "pung 5s" in en and "chow 4-5-6 Bamboo (with 4s 6s from your hand)" in en and en.endswith("pass")
    labels = [label for _, label in render.choices(obs, "zh")]
    assert "碰" in labels and "吃 四五六条" in labels and "杠 五条 补张" in labels and labels[-1] == "过"


def test_claim_prompt_for_a_win() -> None:
    # ready on 5p/9s (shanpon), 9s discarded: 胡 is offered
    state = _claim_state("123m456m789p99s55p", "9s")
    obs = observe(state, 0)
    assert any(a.act == Act.WIN for a in obs.legal)
    assert "胡 9s 九条" in render.claim_prompt(obs, "zh")
    assert "win on 9s" in render.claim_prompt(obs, "en")
    assert render.choices(obs, "zh")[0][1] == "胡"


@pytest.mark.parametrize(
    ("action", "phase", "zh", "en"),
    [
        (Action(0, Act.DISCARD, parse_tile("5m")), Phase.TURN, "打 五万", "Discard 5m"),
        (Action(0, Act.PUNG), Phase.CLAIM, "碰", "Pung"),
        (Action(0, Act.CHOW, parse_tile("3m")), Phase.CLAIM, "吃 三四五万", "Chow 3-4-5 Characters"),
        (Action(0, Act.KONG, parse_tile("5m"), "bu"), Phase.TURN, "杠 五万 补张", "Kong 5m (replace)"),
        (Action(0, Act.KONG, parse_tile("5m"), "kai"), Phase.TURN, "杠 五万 开杠", "Kong 5m (open)"),
        (Action(0, Act.WIN), Phase.TURN, "胡", "Win"),
        (Action(0, Act.PASS), Phase.CLAIM, "过", "Pass"),
        (Action(0, Act.TAKE), Phase.HAIDI, "要海底", "Take the last tile"),
        (Action(0, Act.PASS), Phase.HAIDI, "不要", "Decline"),
        (Action(0, Act.PASS), Phase.OPENING, "不报", "Don't declare"),
        (Action(0, Act.OPENING, detail="sixi+liuliushun"), Phase.OPENING, "报 四喜 + 六六顺", "Declare"),
    ],
    ids=[
        "discard",
        "pung",
        "chow",
        "kong-replace",
        "kong-open",
        "win",
        "pass-claim",
        "take-haidi",
        "decline-haidi",
        "pass-opening",
        "declare-opening",
    ],
)
def test_action_labels(action: Action, phase: Phase, zh: str, en: str) -> None:
    obs = replace(observe(new_hand(RS, 1), 0), phase=phase, legal=(action,))
    assert render.action_label(obs, action, "zh") == zh
    assert render.action_label(obs, action, "en").startswith(en)


def test_haidi_prompt_and_labels() -> None:
    state = new_hand(RS, 11)
    while state.phase != Phase.HAIDI:
        assert state.phase != Phase.ENDED
        seat = to_act(state)[0]
        acts = [a for a in observe(state, seat).legal if a.act in (Act.DISCARD, Act.PASS)]
        state, _ = apply(state, acts[-1])
    obs = observe(state, state.current)
    labels = [label for _, label in render.choices(obs, "zh")]
    assert labels == ["要海底", "不要"]
    assert "海底" in render.prompt(obs, "zh") and "last tile" in render.prompt(obs, "en")
    assert "海底漫游" in render.table_view(obs, "zh")


# ------------------------------------------------------------------ the table and the settlement


def test_table_view_shows_turn_melds_discards_wall_and_dealer() -> None:
    state = _claim_state("123m456m99s55p1p4s7p", "9s")
    state, _ = apply(state, Action(0, Act.PUNG))
    obs = observe(state, 1)
    zh = render.table_view(obs, "zh", ["东", "南", "西", "北"])
    assert "庄家 北" in zh and "牌墙剩" in zh and str(obs.wall_remaining) in zh
    assert "轮到 东 出牌" in zh
    assert "[九九九条]" in zh
    en = render.table_view(obs, "en", ["E", "S", "W", "N"])
    assert "dealer N" in en and "E to play" in en and "tiles left in the wall" in en


def test_table_view_shows_revealed_opening_tiles() -> None:
    state = arranged_hand(RS, ["5555m777s123m4689s", "123456789p1234s", "123456789p1234m", "12346789m12356s"])
    state, _ = apply(state, Action(0, Act.OPENING, detail="sixi"))
    text = render.table_view(observe(state, 1), "zh")
    assert "起手: 四喜" in text and "亮牌 五五五五万" in text


def test_settlement_names_birds_and_deltas() -> None:
    obs = observe(new_hand(RS, 1), 0)
    dealer = obs.dealer
    s = Settlement.from_payments(
        SettleKind.WIN,
        4,
        (1,),
        ((1, ("qingyise", "haohua_qidui", "haohua_qidui")),),
        (parse_tile("1m"), parse_tile("6p")),
        (
            Payment(
                0, 1, 24, 1, (Part("qingyise", 6), Part("haohua_qidui", 6), base, Part("birds", 2, MUL, 1))
            ),
            Payment(2, 1, 12, 0, (Part("qingyise", 6), Part("haohua_qidui", 6), base)),
            Payment(3, 1, 12, 0, (Part("qingyise", 6), Part("haohua_qidui", 6), base)),
        ),
        bird_seats=(dealer, (dealer + 1) % 4),  # as Changsha counts them: from the dealer
    )
    names = ["A", "B", "C", "D"]
    zh = render.settlement_view(obs, s, "zh", names)
    en = render.settlement_view(obs, s, "en", names)
    assert "胡牌：B 清一色 + 豪华七小对×2" in zh
    assert "Win: B, one suit + luxury seven pairs×2" in en
    target = names[(dealer + 0) % 4]
    assert f"1m 一万→{target}" in zh
    assert "A 付给 B：24（清一色 6 + 豪华七小对 6 = 12 · 底分 ×1 · 中鸟1只 ×2 = 24）" in zh
    assert "A pays B: 24 (one suit 6 + luxury seven pairs 6 = 12 · base ×1 · 1 bird hit ×2 = 24)" in en
    assert "得分：A -24，B +48，C -12，D -12" in zh  # a Chinese list: full-width commas


MUL = Op.MUL
base = Part("base", 1, Op.MUL)


def test_result_view_after_a_played_hand() -> None:
    state = new_hand(RS, 4)
    while state.phase != Phase.ENDED:
        seat = to_act(state)[0]
        state, _ = apply(state, ai.choose(observe(state, seat), random.Random(4)))
    obs = observe(state, 0)
    assert obs.result is not None
    zh = render.result_view(obs, "zh")
    en = render.result_view(obs, "en")
    assert "下一局庄家" in zh and "Next dealer" in en
    assert "本局得分" in zh
    for w in obs.result.winners:
        assert render.seat_names(None, 4, 0, "zh")[w] in zh
    # all hands are shown once the hand is over
    for ps in obs.seats:
        assert ps.hand is not None


def test_tile_labels() -> None:
    assert render.tile_label(parse_tile("5m"), "zh") == "5m 五万"
    assert render.tile_label(parse_tile("9p"), "en") == "9p"
    assert render.run_label(parse_tile("7s")) == "七八九条"
    assert render.run_label(parse_tile("7s"), "en") == "7-8-9 Bamboo"
    # hands and melds in words, never the engine's notation (123m / [(2222s)])
    assert render.tiles_text(parse_tiles("2345666m23s245p"), "zh") == "二三四五六六六万 二三条 二四五筒"
    assert render.tiles_text(parse_tiles("2345666m23s245p77z"), "en") == (
        "2345666 Characters · 23 Bamboo · 245 Dots · Red Red"
    )
    assert tile_str(parse_tile("1s")) == "1s"
    assert MeldKind.PUNG  # meld kinds render through str(Meld)


# ------------------------------------------------------------------ nothing of a variant in bot/


def test_bot_names_no_variant() -> None:
    """bot/ knows no variant by name — pair rule, bird seats, prompts and labels come from the
    variant."""
    from pathlib import Path

    import engine.variants

    bot_dir = Path(render.__file__).resolve().parent
    found = [
        f"{p.name}: {vid}"
        for p in sorted(bot_dir.glob("*.py"))
        for vid in engine.variants.VARIANT_IDS
        if vid in p.read_text(encoding="utf-8")
    ]
    assert not found, found


def test_option_values_read_as_the_variant_labels_them() -> None:
    """Option values are labelled by the variant (``chengbao`` → 承包制, ``jiadi`` → 自摸加底), booleans
    是/否."""

    sc = get_variant("sichuan")
    zh = views.options_line(sc, {"zhigang": "jiajiayou", "zimo": "jiadi"}, "zh")
    assert "家家有" in zh and "自摸加底" in zh and "jiajiayou" not in zh
    en = views.rules_text(sc, "en")
    assert "the discarder alone" in en and "+1 fan" in en and "chengbao" not in en
    assert get_variant("xiangyin").option_spec("piao").value_label(True, "zh") == "是"


def test_pre_hand_choices_are_labelled_and_asked_by_the_variant() -> None:
    """定缺 / 加锤 / 飘 buttons and prompts come from the variant, not from bot/."""
    sc = get_variant("sichuan")
    state = new_hand(sc, 3)
    seat = to_act(state)[0]
    obs = observe(state, seat)
    labels = {a.detail: label for a, label in render.choices(obs, "zh")}
    assert labels and all(label == sc.choice_label(v, "zh") for v, label in labels.items())
    assert "缺" in next(iter(labels.values()))
    asked = render.prompt(obs, "zh")
    assert asked.startswith("定缺：选一门这局不要的花色")  # named and explained
    assert "你的手牌：万" in asked  # what he holds of each suit
    sy = get_variant("shaoyang")
    obs = observe(new_hand(sy, 3), 0)
    assert [label for _, label in render.choices(obs, "en")][:2] == ["no hammer", "one hammer"]
    asked = render.prompt(obs, "en")
    assert asked.startswith("Hammers (加锤): before the tiles are turned up")
    assert "choose before looking" in asked
    assert "(0 tiles)" not in render.hand_view(obs, "en") and "face down" in render.hand_view(obs, "en")


def test_bird_targets_come_from_the_settlement() -> None:
    """A bird that points at nobody (Xiangyin with three players: 3/7) is shown without a seat; the others
    with the seat the variant counted."""
    xy = get_variant("xiangyin")
    obs = observe(new_hand(xy, 1, seats=3), 0)
    s = Settlement.from_payments(
        SettleKind.WIN,
        3,
        (1,),
        ((1, ("qingyise",)),),
        (parse_tile("3m"), parse_tile("2s")),
        (Payment(0, 1, 10, 0), Payment(2, 1, 20, 1)),
        bird_seats=(None, 2),
    )
    text = render.settlement_view(obs, s, "en", ["A", "B", "C"])
    assert "3m, 2s→C" in text


def test_settlements_explain_hammers_piao_and_kongs() -> None:
    """Each payment line shows its arithmetic — 加锤 (Shaoyang) and 飘 (Xiangyin) as their own
    parts, a kong payment names its kong, and a variant without birds shows none."""
    from .shaoyang_helpers import chow_then_self_draw
    from .xiangyin_helpers import small_self_draw

    state = chow_then_self_draw(base=1, hammers="0221")
    text = render.settlement_view(observe(state, 0), last_settlement(state), "en")
    assert (
        "Opposite player pays Next player: 64 (plain hand 2 · base ×1 · self-draw ×2 · 4 hammers, both "
        "players' ×16 = 64)" in text
    )  # whose hammers: the winner's and the payer's (docs/rules/shaoyang.md §2.2)
    zh = render.settlement_view(observe(state, 0), last_settlement(state), "zh")
    assert "对家 付给 下家：64（平胡 2 · 底分 ×1 · 自摸 ×2 · 两家共4锤 ×16 = 64）" in zh
    state = small_self_draw("9s", 1, piao=[1, 2, 0, 3])
    text = render.settlement_view(observe(state, 0), last_settlement(state), "zh")
    assert "你 付给 下家：50（小胡 1 · 底分 ×10 · 中鸟1只 ×2 + 飘 30 = 50）" in text
    sc = get_variant("sichuan")
    kong = Settlement.from_payments(
        SettleKind.KONG, 4, (1,), ((1, ("angang",)),), (), (Payment(0, 1, 2, 0, (Part("angang", 2), base)),)
    )
    text = render.settlement_view(observe(new_hand(sc, 1), 0), kong, "zh")
    assert "暗杠 2 · 底分 ×1 = 2" in text and "鸟" not in text


def test_the_end_caption_shows_the_last_moves_before_the_result() -> None:
    """The moves that ran without anyone deciding (here the AI's last discards and the win) are in the
    group's end-of-hand caption, not jumped over to "hand over" (docs/testing.md: the chat table)."""
    from bot import pictures

    state = new_hand(RS, 4)
    events: list[Event] = []
    while state.phase != Phase.ENDED:
        seat = to_act(state)[0]
        state, evs = apply(state, ai.choose(observe(state, seat), random.Random(4)))
        events.extend(e for e in evs if e.kind in (EventKind.DISCARD, EventKind.WIN))
    final = views.public_observation(state)
    names = ["Lily", "阿华", "Bob", "Dave"]
    for lang in ("zh", "en"):
        legend = pictures.legend(final, names, lang)
        caption = views.end_caption(final, lang, names, "T", legend, (), events[-6:])
        last = views.recent_text(events[-6:], lang, names, final.variant, k=6)
        assert last and last in caption, caption
        assert views.end_caption(final, lang, names, "T", "") != views.end_caption(
            final, lang, names, "T", "", (), events[-6:]
        )


def test_a_winner_playing_on_shows_the_tiles_he_won_on() -> None:
    """血流成河: a winner plays on with his hand locked; everyone sees the tiles he won on beside his marks
    (the picture shows them too), as the observation carries them (``PublicSeat.won_on``)."""
    rs = get_variant("sichuan")
    state = new_hand(rs, 11, rs.make_options({"mode": "xueliu", "swap": True}))
    rngs = [random.Random(i) for i in range(4)]
    won: dict[int, list[int]] = {}
    while state.phase != Phase.ENDED and not any(len(v) > 1 for v in won.values()):
        seat = to_act(state)[0]
        state, events = apply(state, ai.choose(observe(state, seat), rngs[seat], "easy"))
        for e in events:
            if e.kind == EventKind.WIN and e.seat is not None and e.tile is not None:
                won.setdefault(e.seat, []).append(e.tile)
    w, tiles = next((s, v) for s, v in won.items() if len(v) > 1)
    viewer = (w + 1) % 4
    ps = observe(state, viewer).seats[w]
    assert ps.won_on == tuple(tiles) and ps.wins == len(tiles) and ps.locked and ps.hand is None
    marks = render.seat_marks(observe(state, viewer), w, "zh")
    shown = " ".join(render.tile_short(t, "zh") for t in tiles)
    assert f"已胡 {len(tiles)} 次：{shown}" in marks
    en = " ".join(render.tile_short(t, "en") for t in tiles)
    assert f"won {len(tiles)}× on {en}" in render.seat_marks(observe(state, viewer), w, "en")


def test_the_tiles_of_a_swap_are_named_in_words() -> None:
    """docs/rules/sichuan.md §2.1: the 换三张 buttons (the suggested three) and the seat's own mark name the
    tiles as players do — 一二六万 / 126 Characters, never the engine's 126m; 定缺 stays the variant's 缺筒.
    The Mini App's seat mark is the same text (bot/miniapp/protocol.py)."""
    rs = get_variant("sichuan")
    state = new_hand(rs, 11, rs.make_options({"swap": True}))
    seat = to_act(state)[0]
    obs = observe(state, seat)
    chooses = [(a, label) for a, label in render.choices(obs, "zh") if a.act == Act.CHOOSE]
    assert chooses
    for a, label in chooses:
        assert label == render.tiles_text(parse_tiles(a.detail), "zh") and not any(c in label for c in "mps")
    assert render.choice_text(rs, "126m", "en") == "126 Characters"
    assert render.choice_text(rs, "p", "zh") == "缺筒"
    assert render.choice_text(get_variant("xiangyin"), "2", "en") == "piao 2"


def test_a_hand_of_one_settlement_gives_its_points_once() -> None:
    """The result named the points twice when the hand had one settlement (得分 under it, then 本局得分, the
    same numbers); with several, each keeps its own and the hand's total follows."""
    rs = get_variant("changsha")
    seen = set()
    for seed in range(40):
        state = new_hand(rs, seed)
        rngs = [random.Random(seed * 4 + i) for i in range(4)]
        while state.phase != Phase.ENDED:
            seat = to_act(state)[0]
            state, _ = apply(state, ai.choose(observe(state, seat), rngs[seat], "easy"))
        obs = observe_public(state)
        text = render.result_view(obs, "zh")
        n = len(obs.settlements)
        seen.add(min(n, 2))
        assert text.count("本局得分：") == 1
        assert text.count("  得分：") == (n if n > 1 else 0), text
    assert seen == {1, 2}


def test_a_claimed_discard_is_no_longer_the_last_discard() -> None:
    """After 吃 or 碰 the tile lies in the claimer's meld: the table, the panel and the Mini App no longer
    say "last discard: Bob 5m" of it (they did until the next discard)."""
    rs = get_variant("changsha")
    for seed in range(60):
        state = new_hand(rs, seed)
        rngs = [random.Random(i) for i in range(4)]
        while state.phase != Phase.ENDED:
            seat = to_act(state)[0]
            action = ai.choose(observe(state, seat), rngs[seat], "easy")
            state, _ = apply(state, action)
            if action.act in (Act.PUNG, Act.CHOW):
                obs = observe(state, seat)
                s, t = obs.last_discard  # type: ignore[misc]
                assert render.on_the_river(obs) is None
                names = ["A", "B", "C", "D"]
                line = f"last discard: {names[s]} {render.tile_label(t, 'en')}"
                assert line not in render.table_view(obs, "en", names)
                assert line not in " ".join(render.context_lines(obs, "en", names))
                return
    raise AssertionError("no claim in 60 hands")


def test_a_turn_that_must_throw_the_void_suit_says_so() -> None:
    """docs/rules/sichuan.md §2b.4 (定缺): while a player holds tiles of the suit he chose to void, only those
    may be thrown; his panel (and the Mini App, which dims the others) says why, not just "discard a tile"."""
    rs = get_variant("sichuan")
    rngs = [random.Random(i) for i in range(4)]
    for seed in range(20):
        state = new_hand(rs, seed)
        while state.phase != Phase.ENDED:
            seat = to_act(state)[0]
            obs = observe(state, seat)
            thrown = {a.tile for a in obs.legal if a.act == Act.DISCARD}
            if obs.phase == Phase.TURN and thrown and len(thrown) < len(set(obs.hand)):
                if not any(a.act in (Act.WIN, Act.KONG) for a in obs.legal):
                    void = render.choice_text(rs, obs.seats[seat].choice or "", "zh")
                    assert render.prompt(obs, "zh") == f"轮到你：先打完定缺那门的牌（{void}）"
                    return
            state, _ = apply(state, ai.choose(obs, rngs[seat], "easy"))
    raise AssertionError("no turn restricted to the void suit in 20 hands")


def test_a_sichuan_drawn_hand_names_each_ready_hand_and_its_waits() -> None:
    """docs/rules/sichuan.md §12.3, §12.6: the drawn hand's check lists each seat as ready or not, a ready one
    with the hand he is checked for, and the hands list shows what each ready hand waited on; when nobody
    pays, the check says so."""
    names = ["Alice", "Bob", "Carol", "Dave"]
    plain, one_suit = "123m456m789m23s55s", "123p456p789p23p55p"
    state = play_to_end(discard(deal([J0 + "3p", plain, J1, one_suit], last_four=False), 0, "3p"))
    obs = views.public_observation(state)
    zh, en = render.result_view(obs, "zh", names), render.result_view(obs, "en", names)
    assert "Dave：有叫（清一色）" in zh and "Alice：无叫" in zh
    assert "Dave: ready at the end (one suit)" in en
    assert "Bob: 一二三四五六七八九万 二三五五条（听 一条 四条）" in zh
    assert "(waiting on 1s 4s)" in en and "Alice: 1245789 Characters · 235689 Bamboo\n" in en  # not ready
    assert "清一色 2 番 → ×4" in zh  # the payment names the fans it is paid for
    everyone = "123p456p789p56s77s"
    caption = views.end_caption(obs, "zh", names, "T", "")  # the group's end picture says it too
    assert "查花猪 / 查大叫：Alice 无叫，Bob 有叫（平胡），Carol 无叫，Dave 有叫（清一色）" in caption
    dealt = deal([everyone + "3p", plain, "333m666m222s888s4s", one_suit], last_four=False)
    state = play_to_end(discard(dealt, 0, "3p"))
    zh = render.result_view(views.public_observation(state), "zh", names)
    assert "查花猪 / 查大叫：无人要付" in zh and "Carol：有叫（对对胡）" in zh


def test_the_hunan_rooms_words_in_event_lines() -> None:
    """Each room's own words and what really happens: 开杠's tiles the konger does not keep are thrown, not
    "unwanted" (others may still win on them: docs/rules/xiangyin.md §7, 杠上炮); 衡阳's opening hands are
    扳牌 (docs/rules/hengyang.md §6); 邵阳 shows a concealed kong's tile to everyone (docs/rules/shaoyang.md
    裁定 18), the other rooms do not."""
    names = ["Alice", "Bob", "Carol", "Dave"]
    fall = Event(EventKind.KONG_TILES_FALL, 3, tiles=(parse_tile("4s"), parse_tile("7s")))
    assert (
        render.event_line(fall, 0, "zh", names, "xiangyin") == "Dave 不要开杠翻出的 4s 四条 7s 七条，打进河里"
    )
    assert (
        render.event_line(fall, 0, "en", names, "xiangyin")
        == "Dave does not keep 4s 7s from the kong: discarded"
    )
    opening = Event(EventKind.OPENING, 3, hands=("sixi",))
    assert render.event_line(opening, 0, "zh", names, "hengyang").startswith("Dave 报扳牌：")
    assert render.event_line(opening, 0, "zh", names, "changsha").startswith("Dave 报起手小胡：")
    t = parse_tile("8p")
    kong = Meld(MeldKind.KONG_CONCEALED, t)
    shown = Event(EventKind.KONG, 1, tile=t, meld=kong)  # 邵阳's engine makes it public
    assert render.event_line(shown, 0, "zh", names, "shaoyang") == "Bob 暗杠 8p 八筒"
    assert render.event_line(shown, 0, "en", names, "shaoyang") == "Bob made a concealed kong of 8p"
    hidden = Event(EventKind.KONG, 1, tile=t, private=True, meld=kong)
    assert render.event_line(hidden, 0, "zh", names, "changsha") == "Bob 暗杠"
    assert render.event_line(hidden, 1, "zh", names, "changsha") == "Bob 暗杠 8p 八筒"  # his own


def test_the_hunan_rooms_words_in_settlements() -> None:
    """衡阳 calls its birds 捉鸟, 湘阴 抓鸟 (docs/rules/hengyang.md §9, docs/rules/xiangyin.md §8); in 湘阴
    the konger's kong on a discard is 接杠 and the discarder pays for 放杠 (docs/rules/xiangyin.md §10.1); a
    big hand counted twice says so (豪华七小对: docs/rules/xiangyin.md §5)."""
    hy, xy = get_variant("hengyang"), get_variant("xiangyin")
    assert hy.part_name("bird_tiles") == "捉鸟" and xy.part_name("bird_tiles") == "抓鸟"
    assert get_variant("changsha").part_name("bird_tiles") == "扎鸟"
    assert xy.hand_name("fanggang") == "接杠" and xy.part_name("fanggang") == "放杠"
    parts = xiangyin_value_parts(("haohua_qidui", "haohua_qidui"))
    assert render.parts_text(xy, parts) == "豪华七小对 5 · 豪华七小对再算一个 ×2 = 10"
    assert (
        render.parts_text(xy, parts, "en")
        == "luxury seven pairs 5 · luxury seven pairs counted again ×2 = 10"
    )


def _sichuan_until(mode: str, seat: int, want: Callable[[Observation], bool]) -> Observation:
    """The first observation of ``seat``, over AI-played 四川 hands in ``mode`` from seed 0 on, for which
    ``want`` holds."""
    rs = get_variant("sichuan")
    for seed in range(200):
        state = new_hand(rs, seed, rs.make_options({"mode": mode}))
        while state.phase != Phase.ENDED:
            obs = observe(state, seat)
            if want(obs):
                return obs
            who = to_act(state)[0]
            state, _ = apply(state, ai.choose(observe(state, who), random.Random(seed)))
    raise AssertionError("no such position")


def test_a_sichuan_winner_is_told_what_his_hand_still_does() -> None:
    """docs/rules/sichuan.md §7b.1: a 血流成河 winner plays on with his hand locked; his panel says so (it
    said "kong opened"), and when he may win or kong a drawn tile he is asked what, beside throwing it.
    docs/rules/sichuan.md §7.1: a 血战 winner is out of play; his panel says so and lists no waits."""
    names = ["A", "B", "C", "D"]
    locked = _sichuan_until("xueliu", 0, lambda o: o.seats[0].locked and o.seats[0].wins > 0)
    caption = views.panel_caption(locked, "zh", names, "", "", None, False)
    assert "胡后锁牌" in caption and "已开杠" not in caption
    asked = _sichuan_until(
        "xueliu",
        0,
        lambda o: (
            o.phase == Phase.TURN and o.seats[0].locked and any(a.act in (Act.WIN, Act.KONG) for a in o.legal)
        ),
    )
    prompt = render.prompt(asked, "en", names)
    assert prompt.startswith("your hand is locked (after your win): ") and prompt.endswith(
        "the tile you drew"
    )
    out = _sichuan_until("xuezhan", 0, lambda o: o.seats[0].won and o.phase != Phase.ENDED)
    caption = views.panel_caption(out, "zh", names, "", "", None, False)
    assert "你已胡牌，出局" in caption and "听牌" not in caption
    assert "you have won and are out of play" in render.hand_view(out, "en", names)
