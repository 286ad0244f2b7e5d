"""What a new user met, one test each: the group's recent line in
words, Xiangyin's bird multiplier as paid, 人数 reaching 3 with three seated, Hengyang's own 扳牌 prompt,
honours in English, toasts in the presser's language, /rules without a repository path, and /newtable by
a preset's name.

Covered elsewhere: option values translated (test_render), the 4,096 split (test_outbox), 飘/加锤/定缺
prompts (test_render), timeout notes in the second person (test_bot_timers), a waiting player apart from
the seats and one DM for a deep-link join (test_bot_lobby)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from bot import ai
from bot.text import render, views
from engine import Phase, observe, parse_tile

from .bot_support import Clock, bot_running, choose_setting, lobby_message, open_table, service, setting
from .dealing import last_settlement
from .fake_telegram import FakeTelegramServer
from .hengyang_helpers import SIXI, opening_deal
from .xiangyin_helpers import small_self_draw

# ------------------------------------------------------------------ texts


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
def test_the_recent_line_is_words_never_engine_notation(variant: str) -> None:
    """The group's "最近" line showed ``chosen seat=1 · choices p m s m``: every event of a hand now reads as
    words with the players' names (or is left out)."""
    rs = engine.get_variant(variant)
    options = {"swap": True} if any(s.name == "swap" for s in rs.option_specs) else None
    state = engine.new_hand(rs, 3, options=options)
    rng = random.Random(3)
    names = ["Ann", "Ben", "Cat", "Dan"][: state.num_seats]
    seen = set()
    while state.phase != Phase.ENDED:
        state, events = engine.apply(state, ai.choose(observe(state, engine.to_act(state)[0]), rng))
        for line in views.event_lines([e.public() for e in events], "en", names, variant):
            assert "seat=" not in line and not line.startswith(tuple(k.value for k in engine.EventKind))
            seen.add(line)
        for ev in events:
            line = render.event_line(ev, ev.seat if ev.seat is not None else -1, "zh", names, variant)
            assert line is None or "seat=" not in line
    assert seen


def test_xiangyin_birds_read_as_paid_times_hits_plus_one() -> None:
    """docs/rules/xiangyin.md §8.3: × (中鸟数 + 1). The settlement printed ×2^hits while paying × (hits +
    1)."""
    state = small_self_draw("9s1m", 2)
    text = render.settlement_view(observe(state, 0), last_settlement(state), "zh")
    assert "小胡 1 · 底分 ×10 · 中鸟2只 ×3 = 30" in text and "×4" not in text


def test_hengyang_banpai_is_asked_in_its_own_words() -> None:
    """扳牌 reused Changsha's 起手小胡 prompt (birds, tiles shown): Hengyang's says no birds and the whole
    hand shown for three turns."""
    obs = observe(opening_deal(SIXI), 1)
    zh, en = render.prompt(obs, "zh"), render.prompt(obs, "en")
    assert "扳牌" in zh and "不扎鸟" in zh and "三巡" in zh and "扎鸟照算" not in zh
    assert "no birds" in en and "three turns" in en


def test_english_names_honours() -> None:
    """English showed honours as ``5z``."""
    assert [render.tile_label(parse_tile(t), "en") for t in ("1z", "5z", "7z")] == [
        "East 东",
        "White 白",
        "Red 中",
    ]


# ------------------------------------------------------------------ over the fake Bot API


async def test_seat_count_reaches_three_with_three_seated_and_toasts_speak_the_pressers_language(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Xiangyin's 人数 went 4 → 2 (refused: three are seated) and never reached 3; toasts followed the
    group's language instead of the presser's."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="zh-hans", started=True)
    carol = tg.add_user("Carol", started=True)
    group = tg.add_group("麻将", members=[alice, bob, carol])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        tid, _ = await open_table(tg, bob, group, "xiangyin")  # a Chinese group
        rt = service(app).tables[tid]
        lobby = await lobby_message(tg, group, tid, "j")
        for user in (alice, carol):
            tg.press(user, group, lobby.message_id, f"L|{tid}|j")
        await tg.wait_for(lambda _: sum(u is not None for u in rt.seats) == 3, what="three seated")
        assert len(rt.seats) == 4
        tg.press(bob, group, lobby.message_id, f"L|{tid}|s")
        settings = await lobby_message(tg, group, tid, "b")
        assert await choose_setting(tg, bob, settings, service(app), "seats", 3) == "好的"
        assert len(rt.seats) == 3
        await tg.wait_for(lambda _: f"L|{tid}|b" in tg.message(group, settings.message_id).callback_data)
        row = setting(service(app), tid, "seats")
        query = tg.press(alice, group, settings.message_id, row)  # not the host: refused, in English
        await tg.wait_for(lambda _: query.answered)
        assert query.text is not None and query.text.isascii() and len(rt.seats) == 3


async def test_rules_has_no_repository_path_and_newtable_takes_a_preset(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """/rules ended with ``docs/rules/…`` a player can't open: it sends the page itself. ``/newtable
    血流成河`` (or a preset's English name, or variant then preset) opens that room."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    groups = [tg.add_group(f"G{i}", members=[alice]) for i in range(3)]
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        mark = tg.mark()
        tg.send_text(alice, None, "/rules changsha")  # in private: the page itself
        await tg.wait_for_call(
            "sendMessage",
            chat_id=alice.id,
            since=mark,
            predicate=lambda c: "(part 1/" in c.params["text"],
        )
        await tg.wait_idle()
        parts = [c.params["text"] for c in tg.calls_to("sendMessage", chat_id=alice.id) if c.seq >= mark]
        assert len(parts) >= 2 and not any("docs/rules" in p or ".md" in p for p in parts)
        svc = service(app)
        for group, typed, mode, seats in (
            (groups[0], "血流成河", "xueliu", 4),
            (groups[1], "River of blood", "xueliu", 4),
            (groups[2], "sichuan 三人两房", "xuezhan", 3),
        ):
            tid, _ = await open_table(tg, alice, group, typed)
            rt = svc.tables[tid]
            assert rt.table.variant == "sichuan" and rt.options["mode"] == mode and len(rt.seats) == seats
            lobby = await lobby_message(tg, group, tid)
            assert "Room:" in (lobby.text or "")  # the lobby names the preset it plays
