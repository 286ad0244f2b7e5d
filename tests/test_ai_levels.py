"""bot.ai levels: the value-aware, defending AI, each test naming its clause of docs/ai.md.

Positions are Observations made by hand (the AI reads nothing else): a real observation of a fresh hand
with the seat's tiles, the table's melds and rivers and the wall left replaced.
"""

from __future__ import annotations

import inspect
import random
from dataclasses import replace
from typing import Any

import pytest

import bot.ai as ai
from bot.ai import baseline, defence, player, value
from engine import (
    VARIANTS,
    Act,
    Action,
    KongMode,
    Observation,
    Phase,
    SettleKind,
    get_variant,
    new_hand,
    observe,
)
from engine.melds import Meld, MeldKind
from engine.state import Payment, Settlement
from engine.tiles import parse_tiles, to_counts

from .playout import selfplay_positions

CS = get_variant("changsha")


def position(
    hand: str,
    opponent: dict[str, Any] | None = None,
    wall: int = 60,
    mine: str = "",
    variant: str = "changsha",
    options: dict[str, Any] | None = None,
) -> Observation:
    """Seat 0 to discard from ``hand`` (14 tiles); seat 2 as ``opponent`` says (melds, discards …)."""
    rs = get_variant(variant)
    obs = observe(new_hand(rs, 3, rs.make_options(options or {}), dealer=0), 0)
    tiles = tuple(sorted(parse_tiles(hand)))
    seats = [replace(ps, discards=(), melds=(), declared=(), revealed=(), hand_size=13) for ps in obs.seats]
    seats[0] = replace(seats[0], discards=tuple(parse_tiles(mine)) if mine else (), hand_size=14)
    if opponent:
        seats[2] = replace(seats[2], **opponent)
    legal = tuple(Action(0, Act.DISCARD, t) for t in sorted(set(tiles)))
    return replace(
        obs,
        phase=Phase.TURN,
        current=0,
        hand=tiles,
        drawn=tiles[-1],
        legal=legal,
        wall_remaining=wall,
        seats=tuple(seats),
        to_act=(0,),
    )


def test_levels_are_data_and_the_measured_strongest_is_the_default() -> None:
    """docs/ai.md "Levels": ids with zh/en labels; choose(obs, rng) plays the default level, the strongest
    as measured by the duel (the expert); the baseline (easy) is the AI as it was."""
    assert ai.LEVEL_IDS == ("easy", "normal", "expert")
    assert [lv.label("zh") for lv in ai.LEVELS] == ["简单", "普通", "高手"]
    assert all(lv.label("en") and lv.note("zh") and lv.note("en") for lv in ai.LEVELS)
    assert ai.DEFAULT_LEVEL == "expert" and ai.BASELINE_LEVEL == "easy"
    assert list(inspect.signature(ai.choose).parameters) == ["obs", "rng", "level"]
    obs = position("12245667789m1s49p")
    assert ai.choose(obs, random.Random(0)) == ai.choose(obs, random.Random(0), ai.DEFAULT_LEVEL)
    assert ai.choose(obs, random.Random(0), "easy") == baseline.choose(obs, random.Random(0))
    with pytest.raises(ValueError):
        ai.choose(obs, random.Random(0), "grandmaster")


def test_keeps_one_suit_one_tile_away() -> None:
    """docs/ai.md "Value": 11 characters and three strays — the baseline throws 1m (its fastest hand), the
    value-aware levels throw a stray and keep 清一色 (6× a small hand in Changsha) in reach."""
    obs = position("12245667789m1s49p")
    assert ai.choose(obs, random.Random(0), "easy").tile == parse_tiles("1m")[0]
    for level in ("normal", "expert"):
        a = ai.choose(obs, random.Random(0), level)
        assert a.tile is not None and a.tile >= 9, level  # not a character


def test_folds_with_a_far_hand_against_two_exposed_kongs() -> None:
    """docs/ai.md "Defence": seat 2 shows two exposed kongs late in the hand; with a hand three tiles from
    ready the expert throws a tile seat 2 threw himself, where the baseline throws a tile he may wait on."""
    opp = {
        "melds": (Meld(MeldKind.KONG_EXPOSED, 20, 1), Meld(MeldKind.KONG_EXPOSED, 15, 3)),
        "discards": tuple(parse_tiles("56m4489s166778p")),
        "hand_size": 5,
    }
    obs = position("234577m1189s1459p", opp, wall=30, mine="12889m269s58p")
    assert ai.choose(obs, random.Random(0), "easy").tile == parse_tiles("9p")[0]
    assert ai.choose(obs, random.Random(0), "expert").tile == parse_tiles("1p")[0]


# seat 2 late in a hand: three pungs shown (碰碰胡, a big hand: he waits on pairs), seven tiles thrown
ALL_PUNGS: dict[str, Any] = {
    "melds": (
        Meld(MeldKind.PUNG, parse_tiles("3m")[0], 1),
        Meld(MeldKind.PUNG, parse_tiles("7s")[0], 3),
        Meld(MeldKind.PUNG, parse_tiles("4p")[0], 1),
    ),
    "discards": tuple(parse_tiles("19m19s68m2s")),
    "hand_size": 4,
}


def test_does_not_feed_a_visible_all_pungs_hand() -> None:
    """docs/ai.md "Defence" ("What he would be paid", "Which tiles would win his hand"): seat 2 shows three
    pungs late in the hand (碰碰胡, a big hand: he waits on pairs). Seat 0's isolated 8p and 1s are equally
    fast to throw; the baseline and the value player throw the 8p, which pairs for him, the expert the 1s,
    which he threw himself."""
    obs = position("245667799m1367s8p", ALL_PUNGS, wall=20)
    p8, s1 = parse_tiles("8p")[0], parse_tiles("1s")[0]
    rd = player.Reader(obs, ai.get_level("expert"))
    assert rd.danger is not None and rd.danger[p8] > 3 * rd.danger[s1]
    assert ai.choose(obs, random.Random(0), "easy").tile == p8
    assert ai.choose(obs, random.Random(0), "normal").tile == p8
    assert ai.choose(obs, random.Random(0), "expert").tile == s1


def test_a_far_hand_does_not_feed_a_big_hand() -> None:
    """docs/ai.md "Defence" ("A far hand against a big hand"): seat 2 shows three pungs late in the hand
    (碰碰胡: he waits on pairs). Seat 0 is two steps from ready; the baseline's 4m (and every other tile as
    close to winning that keeps as many useful tiles) is a likely wait of his. The expert throws the 9m he
    threw himself although it keeps fewer useful tiles."""
    obs = position("467899m22455s799p", ALL_PUNGS, wall=20)
    m4, m9 = parse_tiles("4m")[0], parse_tiles("9m")[0]
    assert ai.choose(obs, random.Random(0), "easy").tile == m4
    assert ai.choose(obs, random.Random(0), "normal").tile == m4
    assert ai.choose(obs, random.Random(0), "expert").tile == m9
    rd = player.Reader(obs, ai.get_level("expert"))
    scored = {
        x.tile: x
        for x in player._score_discards(rd, to_counts(obs.hand), sorted(set(obs.hand)), random.Random(0))
    }
    assert scored[m4].s == scored[m9].s == 2
    assert scored[m9].useful < 0.8 * scored[m4].useful  # not a safer tile the plain rule would take
    assert scored[m4].danger > 10 * scored[m9].danger


def test_a_suit_the_opponent_cannot_win_with_is_safe() -> None:
    """docs/ai.md "Defence": 定缺 read through the variant — no tile of a seat's void suit is a danger
    against him, and a locked seat is certainly ready."""
    obs = position("123456789m1234s5s", variant="sichuan")
    seats = list(obs.seats)
    seats = [replace(ps, choice=c) for ps, c in zip(seats, ("p", "s", "m", "p"), strict=True)]
    seats[2] = replace(seats[2], discards=tuple(parse_tiles("19p55s")), locked=True)
    obs = replace(obs, seats=tuple(seats))
    table = value.Table.of(obs, get_variant("sichuan"))
    assert defence.dead_suits(table, 2) == {0}
    unseen = [4] * 34
    threats = {th.seat: th for th in defence.read_threats(obs, table, unseen, range(27))}
    assert threats[2].ready == 1.0
    assert all(threats[2].waits[t] == 0 for t in range(9))  # 万: his void
    assert threats[2].waits[parse_tiles("5s")[0]] < threats[2].waits[parse_tiles("6s")[0]]  # he threw 5s


def test_does_not_feed_a_locked_winner_the_tile_he_won_on() -> None:
    """docs/ai.md "Defence" ("Tiles certain to win"): 血流成河 — seat 2 won on 1s and plays on with his hand
    locked, so 1s wins it again. Seat 0's isolated 1m and 1s are equally fast to throw; the baseline throws
    the 1s, the expert the 1m — and the 1s again when it cannot see what he won on."""
    obs = position(
        "13334699m147899s",
        variant="sichuan",
        options={"mode": "xueliu", "swap": True},
        opponent={
            "locked": True,
            "wins": 1,
            "won_on": tuple(parse_tiles("1s")),
            "discards": tuple(parse_tiles("37m")),
        },
    )
    obs = replace(obs, seats=tuple(replace(ps, choice=c) for ps, c in zip(obs.seats, "psmp", strict=True)))
    m1, s1 = parse_tiles("1m")[0], parse_tiles("1s")[0]
    assert ai.choose(obs, random.Random(0), "easy").tile == s1
    assert ai.choose(obs, random.Random(0), "expert").tile == m1
    rd = player.Reader(obs, ai.get_level("expert"))
    assert rd.danger is not None and rd.danger[s1] >= 1.0 > 10 * rd.danger[m1]  # a 平胡 on a discard: 1 底分
    unseen = replace(obs, seats=tuple(replace(ps, won_on=()) for ps in obs.seats))
    assert ai.choose(unseen, random.Random(0), "expert").tile == s1
    # what it costs is what he was paid for it: seat 3 paid 8 for that win (a 清一色 on a discard); a
    # self-draw's share, 6 from each, counts half (no self-draw bonus on a discard)
    for payments, cost in (((Payment(3, 2, 8),), 8.0), (tuple(Payment(p, 2, 6) for p in (0, 1, 3)), 3.0)):
        paid = replace(
            obs, settlements=(Settlement.from_payments(SettleKind.WIN, 4, (2,), (), (), payments),)
        )
        danger = player.Reader(paid, ai.get_level("expert")).danger
        assert danger is not None and cost <= danger[s1] < cost + 0.5


def test_voids_the_suit_the_hand_does_without_best() -> None:
    """docs/ai.md "Value" ("定缺"): a real deal of 四川 (seed 1, seat 1: 2239m 222s 233668p). The variant's
    suggestion — what the baseline picks — is the suit with fewest tiles, 条, which is a pung; the value
    levels do without 万 (four tiles, no set among them) and keep the pung."""
    rs = get_variant("sichuan")
    obs = observe(new_hand(rs, 1, rs.make_options({}), dealer=0), 1)
    assert obs.hand == tuple(sorted(parse_tiles("2239m222s233668p")))
    assert [a.detail for a in obs.legal] == ["s", "m", "p"]
    assert ai.choose(obs, random.Random(0), "easy").detail == "s"
    for level in ("normal", "expert"):
        assert ai.choose(obs, random.Random(0), level).detail == "m", level


def test_a_ready_hand_waits_on_what_pays() -> None:
    """docs/ai.md "Value" ("Ready hands", valued wait by wait): 四川 self-play of the baseline (seed 46),
    seat 0 holds 22334455s 266778p. Throwing the 2p waits on 5p/8p (two-sided, a plain hand: 1 番); throwing
    the 8p waits on the 2p alone for 七对 (2 番, four times as much). The baseline takes the wider wait, the
    value levels the pricier one."""
    rs = get_variant("sichuan")
    hand = tuple(sorted(parse_tiles("22334455s266778p")))
    obs = next(
        o
        for _, o in selfplay_positions(rs, 46, lambda o, r: ai.choose(o, r, "easy"))
        if o.seat == 0 and o.phase == Phase.TURN and o.hand == hand
    )
    assert ai.choose(obs, random.Random(0), "easy").tile == parse_tiles("2p")[0]
    for level in ("normal", "expert"):
        assert ai.choose(obs, random.Random(0), level).tile == parse_tiles("8p")[0], level


def test_who_looks_ready() -> None:
    """docs/ai.md "Defence" ("Who looks ready"): by his discards (measured on baseline self-play) and his
    shown melds; certain for a locked hand; a quarter as likely while his last discard was of his void suit
    (定缺)."""
    ready = []
    for n in (0, 4, 8, 16):
        obs = position(
            "12245667789m1s49p", {"discards": tuple(parse_tiles("19m19s19p5z6z7z1z2z3z4z5m5s5p6m"))[:n]}
        )
        table = value.Table.of(obs, CS)
        threats = {th.seat: th for th in defence.read_threats(obs, table, [4] * 34, range(34))}
        ready.append(threats[2].ready)
    assert ready == pytest.approx([0.0, 0.1, 0.38, 0.92])
    meld = {"melds": (Meld(MeldKind.PUNG, 20, 1),), "discards": tuple(parse_tiles("19m19s"))}
    obs = position("12245667789m1s49p", meld)
    threats = {th.seat: th for th in defence.read_threats(obs, value.Table.of(obs, CS), [4] * 34, range(34))}
    assert threats[2].ready == pytest.approx(1 - 0.9 * 0.8)  # one meld takes a fifth of what is left
    obs = position("123456789m1234s5s", variant="sichuan")
    seats = [replace(ps, choice=c) for ps, c in zip(obs.seats, ("p", "s", "m", "p"), strict=True)]
    for last, share in (("5s", 1.0), ("5m", 0.25)):  # seat 2 does without 万
        seats[2] = replace(seats[2], discards=(*parse_tiles("19p55s69s"), *parse_tiles(last)))
        sc = replace(obs, seats=tuple(seats))
        threats = {
            th.seat: th
            for th in defence.read_threats(
                sc, value.Table.of(sc, get_variant("sichuan")), [4] * 34, range(27)
            )
        }
        assert threats[2].ready == pytest.approx(0.2 * share), last


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_variant_prices_every_route(variant: str) -> None:
    """docs/ai.md "Value": the variant's own settlement prices an example hand on a stand-in table of
    public facts; big hands pay more where the variant pays for them, never less."""
    rs = get_variant(variant)
    obs = observe(new_hand(rs, 5), 0)
    rd = player.Reader(obs, ai.get_level("expert"))
    routes = rd.routes((), rd.live[:2] or [0])
    assert routes[value.PLAIN][0] > 0
    assert all(v[0] >= routes[value.PLAIN][0] * 0.99 for v in routes.values())
    assert value.PRICE_FAILURES == [0]
    if variant == "changsha":
        assert routes[value.ONE_SUIT][0] > 3 * routes[value.PLAIN][0]


def test_takes_the_haidi_only_when_ready() -> None:
    """docs/ai.md "Value": the last tile is taken only by a ready hand (a hand that cannot win on it only
    risks it being won on); the baseline always takes it."""
    base = position("123m456s789p1234s5p")
    legal = (Action(0, Act.TAKE), Action(0, Act.PASS))
    ready = replace(
        base, phase=Phase.HAIDI, hand=tuple(sorted(parse_tiles("123m456s789p123s5p"))), legal=legal
    )
    far = replace(ready, hand=tuple(sorted(parse_tiles("147m258s369p135s9p"))))
    assert ai.choose(ready, random.Random(0), "expert").act == Act.TAKE
    assert ai.choose(far, random.Random(0), "expert").act == Act.PASS
    assert ai.choose(far, random.Random(0), "easy").act == Act.TAKE


# twelve tiles thrown: a seat that looks ready (docs/ai.md "Who looks ready")
_LATE_RIVER = "19m19s19p19m19s19p1m9m1s9s1p9p"


def _haidi_offer(hand: str, river: str, others: str) -> Observation:
    """长沙, the last tile offered to seat 0 holding ``hand``; seat 2 has thrown ``river``, seats 1 and 3
    ``others``."""
    obs = position("123m456s789p1234s5p", {"discards": tuple(parse_tiles(river))}, wall=1)
    seats = list(obs.seats)
    for i in (1, 3):
        seats[i] = replace(seats[i], discards=tuple(parse_tiles(others)) if others else ())
    legal = (Action(0, Act.TAKE), Action(0, Act.PASS))
    hand_tiles = tuple(sorted(parse_tiles(hand)))
    return replace(obs, phase=Phase.HAIDI, hand=hand_tiles, legal=legal, seats=tuple(seats), drawn=None)


def test_the_haidi_by_what_it_may_win_and_cost() -> None:
    """docs/ai.md "Defence" ("The haidi"): in 长沙 the taker of the last tile wins 海底捞月 on it, a big hand
    from everyone; if he cannot, it is shown and a seat that wins on it is paid a big hand (海底炮) by the
    taker alone (docs/rules/changsha.md §7.9, §7.10); refusing costs nothing. Waiting on the last 5p while
    all three look ready, the expert refuses it; waiting on 3p/6p (eight copies unseen) while nobody looks
    ready, it takes it. The value player takes it whenever it is ready."""
    single = _haidi_offer("123m456s789p123s5p", "5p5p19m19s19p19m19s", _LATE_RIVER)
    two_sided = _haidi_offer("123m456s789p22s45p", "19m", "")
    for obs in (single, two_sided):
        assert ai.choose(obs, random.Random(0), "normal").act == Act.TAKE
    assert ai.choose(single, random.Random(0), "expert").act == Act.PASS
    assert ai.choose(two_sided, random.Random(0), "expert").act == Act.TAKE


def test_tiles_that_passed_an_opponent_are_seldom_his_waits() -> None:
    """docs/ai.md "Which tiles have passed him": in baseline self-play (seats that win whenever they can), a
    tile read as thrown since an opponent's last discard is one of his waits far less often than a tile at
    random is (about 1 in 12 for a ready hand): claims can upset the order read, so not never."""
    pairs = waits = 0
    for variant in sorted(VARIANTS):
        rs = get_variant(variant)
        for seed in range(4):
            for state, obs in selfplay_positions(rs, seed, baseline.choose):
                for o, tiles in defence.passed_tiles(obs).items():
                    s = state.seats[o]
                    real = set(rs.waits(s.counts, s.melds, state.options, s.choice))
                    pairs += len(tiles)
                    waits += len(tiles & real)
    assert pairs > 1000
    assert waits / pairs < 0.03, (waits, pairs)


def _with_kong(obs: Observation, tile: str) -> Observation:
    t = parse_tiles(tile)[0]
    return replace(obs, legal=(*obs.legal, Action(0, Act.KONG, t)), drawn=t)


def test_makes_a_kong_the_variant_pays_for() -> None:
    """docs/ai.md "Kong money": 转转 pays a concealed kong at once, 2 from each other player
    (docs/rules/zhuanzhuan.md §7.1). Four 4m also make 234m 444m 45m: the baseline keeps them (the kong costs
    a step) and the value levels take the money, the closed wait being worth less. 长沙 pays no kong money:
    there they keep the four as the baseline does."""
    pays = _with_kong(position("2344445m567s79p99s", variant="zhuanzhuan"), "4m")
    assert ai.choose(pays, random.Random(0), "easy").act == Act.DISCARD
    for level in ("normal", "expert"):
        assert ai.choose(pays, random.Random(0), level).act == Act.KONG, level
    free = _with_kong(position("2344445m567s79p99s"), "4m")
    assert ai.choose(free, random.Random(0), "easy").act == Act.DISCARD
    assert ai.choose(free, random.Random(0), "expert").act == Act.DISCARD


def _pung_of_5p(variant: str, hand: str, river: str, wall: int = 30) -> Observation:
    """Seat 0 holding ``hand`` (11 tiles) with an exposed pung of 5p and its fourth 5p just drawn; seat 2
    concealed, having thrown ``river``."""
    p5 = parse_tiles("5p")[0]
    opp = {"discards": tuple(parse_tiles(river)), "hand_size": 13}
    obs = position(hand, opp, wall=wall, variant=variant)
    seats = list(obs.seats)
    seats[0] = replace(seats[0], melds=(Meld(MeldKind.PUNG, p5, 1),), hand_size=11)
    return _with_kong(replace(obs, seats=tuple(seats)), "5p")


def test_an_added_kong_weighs_the_rob() -> None:
    """docs/ai.md "Defence" ("A kong's risk"): in 邵阳 nobody may win on an ordinary discard, but anyone may
    rob an added kong (抢杠), and the robbed player alone pays three shares of the win — 24 底分 for a
    concealed 平胡 (docs/rules/shaoyang.md §5.4, §7.5). Late in the hand, against a concealed seat who has
    thrown sixteen tiles (likely ready, his waits anywhere in the middle), the expert throws its fourth 5p
    (no discard can be won on) rather than add it to its pung for 1 from each player; the baseline and the
    value player make the kong. Early, when nobody looks ready, the expert makes it too."""
    late = _pung_of_5p("shaoyang", "5p129m13579s1z2z", "1z2z3z4z5z6z7z1m9m1s9s1z2z3z4z5z")
    p5 = parse_tiles("5p")[0]
    for level in ("easy", "normal"):
        assert ai.choose(late, random.Random(0), level) == Action(0, Act.KONG, p5), level
    assert ai.choose(late, random.Random(0), "expert") == Action(0, Act.DISCARD, p5)
    early = _pung_of_5p("shaoyang", "5p129m13579s1z2z", "1z2z", wall=80)
    assert ai.choose(early, random.Random(0), "expert") == Action(0, Act.KONG, p5)


def test_a_wild_tile_widens_the_waits() -> None:
    """docs/ai.md "Defence" ("A kong's risk"): in 红中 a 红中 stands for any tile (docs/rules/hongzhong.md),
    so a ready hand holding one waits on far more tiles than its shape shows — any tile may pair with it.
    The variant says which tiles are wild (a plain hand with one of its pair replaced by it still wins).
    The same added kong against a seat that has thrown ten tiles: in 转转 the expert makes it, in 红中,
    with four 红中 unseen, it throws the fourth 5p (nobody wins on a discard in either) — and its read of
    the rob is lower when three of the four 红中 are its own."""
    p5 = parse_tiles("5p")[0]
    ten = "19m19s19p19m19s"  # ten ends thrown
    for variant in sorted(VARIANTS):
        rs = get_variant(variant)
        table = value.Table.of(observe(new_hand(rs, 1, rs.make_options({})), 0), rs)
        assert defence.wild_kinds(table) == (
            frozenset(parse_tiles("7z")) if variant == "hongzhong" else frozenset()
        )
    hand = "5p129m13579s19p"
    assert ai.choose(_pung_of_5p("zhuanzhuan", hand, ten), random.Random(0), "expert") == Action(
        0, Act.KONG, p5
    )
    assert ai.choose(_pung_of_5p("hongzhong", hand, ten), random.Random(0), "expert") == Action(
        0, Act.DISCARD, p5
    )

    def rob_read(obs: Observation) -> float:
        rd = player.Reader(obs, ai.get_level("expert"))
        threats = defence.read_threats(obs, rd.table, rd.unseen, rd.kinds, value.Occasion(robbed=True))
        return sum(th.ready * th.waits[p5] for th in threats)

    assert rob_read(_pung_of_5p("hongzhong", hand, ten)) > rob_read(
        _pung_of_5p("hongzhong", "5p129m13s19p777z", ten)
    )


def test_the_discard_after_a_kong_weighs_what_it_may_cost() -> None:
    """docs/ai.md "Defence" ("A kong's risk"): in 邵阳 a discard may be won on only straight after its
    thrower's kong (杠上炮, docs/rules/shaoyang.md §5.3), which the observation shows (``kong_draw``). Seat
    2 shows three pungs late in the hand (碰碰胡: he waits on pairs). With an ordinary discard every level
    throws the 8p, which no one may win on; straight after its kong the expert throws another tile as close
    to winning, and the 8p, which pairs for him, stays."""
    e1 = parse_tiles("1z")[0]
    obs = position("245667m1367s8p", ALL_PUNGS, wall=20, variant="shaoyang")
    seats = list(obs.seats)
    seats[0] = replace(seats[0], melds=(Meld(MeldKind.KONG_CONCEALED, e1),), hand_size=11)
    obs = replace(obs, seats=tuple(seats))
    p8 = parse_tiles("8p")[0]
    for level in ("easy", "normal", "expert"):
        assert ai.choose(obs, random.Random(0), level).tile == p8, level
    after = replace(obs, kong_draw=KongMode.BU)
    assert ai.choose(after, random.Random(0), "easy").tile == p8
    chosen = ai.choose(after, random.Random(0), "expert").tile
    assert chosen is not None and chosen != p8
    rd = player.Reader(after, ai.get_level("expert"))
    assert rd.danger is not None and rd.danger[chosen] < rd.danger[p8]
    assert player.Reader(obs, ai.get_level("expert")).danger is None  # nothing to fear on an ordinary discard


def test_an_open_kong_weighs_the_tile_it_lets_fall() -> None:
    """docs/ai.md "Defence" ("A kong's risk"): in 长沙 a ready hand may kong by 开杠 — one tile turned up by
    dice, 杠上开花 if it wins, else it falls and whoever wins on it is paid a big hand by the konger (杠上炮),
    and the hand locks — or by 补张, a plain replacement (docs/rules/changsha.md §10.3, §10.4, §10.5,
    §7.13). Four 1m and a 3p/6p wait: early, when nobody looks ready, every level opens the kong (开杠);
    late, when all three have thrown twelve tiles, the expert draws 补张 instead."""
    m1 = parse_tiles("1m")[0]
    kongs = (Action.kong(0, m1, KongMode.BU), Action.kong(0, m1, KongMode.KAI))

    def four_1m(river: str, wall: int) -> Observation:
        obs = position("1111m234p567s22s45p", wall=wall)
        seats = [
            replace(ps, discards=tuple(parse_tiles(river)) if river and ps.seat else ()) for ps in obs.seats
        ]
        return replace(obs, seats=tuple(seats), legal=(*obs.legal, *kongs))

    early, late = four_1m("", 70), four_1m(_LATE_RIVER, 20)
    for level in ("easy", "normal", "expert"):
        assert ai.choose(early, random.Random(0), level) == kongs[1], level
    assert ai.choose(late, random.Random(0), "easy") == kongs[1]
    assert ai.choose(late, random.Random(0), "expert") == kongs[0]


def test_a_kong_on_a_discard_for_its_money() -> None:
    """docs/ai.md "Kong money": seat 3 throws the fourth 4m; the baseline pungs it (the pung keeps more
    ways to finish), the expert kongs it for the thrower's 3 (docs/rules/zhuanzhuan.md §7.1) and a tile from
    the back."""
    obs = _claim_position("3444m567s789s79p9s", "4m", (Act.PUNG, Act.KONG), "zhuanzhuan", wall=60)
    assert ai.choose(obs, random.Random(0), "easy").act == Act.PUNG
    assert ai.choose(obs, random.Random(0), "expert").act == Act.KONG


def _claim_position(hand: str, tile: str, acts: tuple[Act, ...], variant: str, wall: int = 66) -> Observation:
    """Seat 0 holding ``hand`` (13 tiles), offered ``tile`` thrown by seat 3."""
    t = parse_tiles(tile)[0]
    obs = position(hand + "1z", wall=wall, variant=variant)
    seats = list(obs.seats)
    seats[0] = replace(seats[0], hand_size=13)
    legal = (Action(0, Act.PASS), *(Action(0, a, t) for a in acts))
    return replace(
        obs,
        phase=Phase.CLAIM,
        current=3,
        hand=tuple(sorted(parse_tiles(hand))),
        drawn=None,
        claim_tile=t,
        claim_from=3,
        legal=legal,
        seats=tuple(seats),
    )


def test_keeps_a_concealed_hand_where_the_variant_doubles_it() -> None:
    """docs/ai.md "Concealed hands": 邵阳 pays a concealed 平胡 twice an open one (docs/rules/shaoyang.md
    §6.2); offered a 4s to pung (the baseline takes it: as close to ready after it, with as many useful
    tiles), the value levels keep the hand concealed. 长沙 pays no 门前清 on a small hand: there they pung
    as the baseline does."""
    for level, act in (("easy", Act.PUNG), ("normal", Act.PASS), ("expert", Act.PASS)):
        obs = _claim_position("45m446789s12378p", "4s", (Act.PUNG,), "shaoyang")
        assert ai.choose(obs, random.Random(0), level).act == act, level
    obs = _claim_position("45m446789s12378p", "4s", (Act.PUNG,), "changsha")
    assert ai.choose(obs, random.Random(0), "expert").act == Act.PUNG


def test_a_pair_counts_twice_among_the_useful_tiles() -> None:
    """docs/ai.md "Pairs count twice": a pair's third tile may come from any seat's discard (碰), a run's
    only from the wall (or one seat's discard, 吃). With 11p 22p 77p the baseline breaks the 1p pair for the
    most useful tiles counted once; the value levels throw the 2m of the character side, keeping the pairs."""
    obs = position("24678m112245677p", variant="zhuanzhuan", wall=42)
    assert ai.choose(obs, random.Random(0), "easy").tile == parse_tiles("1p")[0]
    for level in ("normal", "expert"):
        assert ai.choose(obs, random.Random(0), level).tile == parse_tiles("2m")[0], level


def test_a_ready_hand_waits_on_a_tile_the_others_throw() -> None:
    """docs/ai.md "Waits by how often they are thrown": where a small hand needs a 2/5/8 pair, players keep
    their 5s and throw 1s and 9s first. Ready either way on a single tile (three unseen copies each), the
    baseline keeps the 5s; the value levels keep the 8p, thrown about half again as often. Where the pair may
    be any tile (四川), the waits count as they are."""
    obs = position("123m456m789s234p5s8p", wall=40)
    assert ai.choose(obs, random.Random(0), "easy").tile == parse_tiles("8p")[0]
    for level in ("normal", "expert"):
        assert ai.choose(obs, random.Random(0), level).tile == parse_tiles("5s")[0], level
    obs = position("123m456m789s234p5s8p", wall=40, variant="sichuan")
    assert ai.choose(obs, random.Random(0), "expert") == ai.choose(obs, random.Random(0), "easy")
