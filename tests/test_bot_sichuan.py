"""Sichuan as the apps play it, through the Telegram front end over real HTTP: every mode —
血战到底, 血战换三张, 血流成河, 三人两房 — chosen by its preset in the lobby and played to the end; 换三张's
three tiles picked on the private panel (toggle, then confirm); 血流's wins counted on the group's table;
every option and preset in the lobby and /rules.

The bot names no variant (tests/test_render.py): the presets, the pick and the win counts are generic."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from bot.messages.presses import GamePress, PickPress, decode
from bot.text import render
from bot.text.texts import t
from engine import Act

from .bot_support import (
    Clock,
    Player,
    bot_running,
    hand_over,
    lobby_message,
    open_table,
    play_hand,
    service,
    since_of,
)
from .fake_telegram import FakeChat, FakeMessage, FakeTelegramServer, FakeUser

SC = engine.get_variant("sichuan")
PRESETS = {p.id: i for i, p in enumerate(SC.presets)}


async def choose_preset(
    tg: FakeTelegramServer, alice: FakeUser, group: FakeChat, tid: int, preset: str
) -> None:
    """Settings → the preset's button → back: the lobby shows the room it plays."""
    lobby = await lobby_message(tg, group, tid)
    tg.press(alice, group, lobby.message_id, f"L|{tid}|s")
    settings = await lobby_message(tg, group, tid, "b")
    tg.press(alice, group, settings.message_id, f"L|{tid}|m|{PRESETS[preset]}")
    label = SC.presets[PRESETS[preset]].label("en")
    await tg.wait_for(
        lambda _: f"✓ 🀄 {label}" in str(tg.message(group, settings.message_id).buttons),
        what=f"the {label} preset ticked",
    )
    tg.press(alice, group, settings.message_id, f"L|{tid}|b")
    await tg.wait_for(
        lambda _: t("lobby.preset", "en", label=label) in (tg.message(group, settings.message_id).text or ""),
        what="the lobby names the room",
    )


async def open_sichuan(
    tg: FakeTelegramServer, alice: FakeUser, group: FakeChat, app: object, preset: str
) -> int:
    tid, _ = await open_table(tg, alice, group, "sichuan")
    rt = service(app).tables[tid]  # type: ignore[arg-type]
    await tg.wait_for(lambda _: alice.id in rt.seats, what="Alice seated")
    await choose_preset(tg, alice, group, tid, preset)
    return tid


@pytest.mark.parametrize("preset", list(PRESETS))
async def test_each_mode_is_played_to_the_end(tg: FakeTelegramServer, tmp_path: Path, preset: str) -> None:
    """docs/rules/sichuan.md §14.1–§14.4: the bot plays each mode end to end over the fake API — the room
    chosen by its preset, the hand dealt with its options and seats, played (Alice takes the first button:
    the suggested three tiles for 换三张) to its result."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        tid = await open_sichuan(tg, alice, group, app, preset)
        rt = service(app).tables[tid]
        want = SC.presets[PRESETS[preset]]
        assert all(rt.options[k] == v for k, v in want.options.items()) and len(rt.seats) == want.seats
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        done = hand_over(tg, group, t("note.result_title", "en", n=1))
        assert await play_hand([Player(tg, alice, tid)], done) > 0
        await tg.wait_idle()
        result = next(m for m in tg.bot_messages(group) if "🏁" in (m.text or ""))
        assert "Table totals" in (result.text or "")
        # her panel's first line names the room she plays (the rules differ a lot), not only 四川
        header = f"🀄 Sichuan ({want.label('en')}) · table #{tid} · hand 1"
        assert any((m.text or "").startswith(header) for m in tg.bot_messages(alice)), header
        table = next(m for m in tg.bot_messages(group) if m.text and "tiles left in the wall" in m.text)
        if preset == "xueliu":  # the wall always runs out; the group's table counts each seat's wins
            assert "0 tiles left in the wall" in (table.text or "") and "won " in (table.text or "")
            # the group's result is its line when the whole settlement is too long to go with the lobby
            # (each player has it in private): its winners as the settlement's "Result:" line names them
            [line] = [x for x in (result.text or "").splitlines() if x.startswith(("Result: ", "Hand 1 · "))]
            if line.startswith("Hand 1 · "):
                line = "Result: " + line.split(" · ")[1].removeprefix("won: ") + " won"
            named = line.removeprefix("Result: ").removesuffix(" won").split(", ")
            winners = [w.split(" ×")[0] for w in named]
            assert len(winners) == len(set(winners))  # each winner once ("AI 2 ×4"), not once a win
        if preset == "sanren":
            assert len(rt.seats) == 3 and (table.text or "").count(" tiles") == 4  # 3 seats + the wall


def pick_panel(tg: FakeTelegramServer, alice: FakeUser, tid: int) -> FakeMessage | None:
    for m in reversed(tg.bot_messages(alice)):
        if any(isinstance(decode(d), PickPress) for d in m.callback_data):
            return m
    return None


async def test_swap_three_is_picked_tile_by_tile(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """docs/rules/sichuan.md §2.1 on the private panel: the prompt asks for three tiles of one suit with the
    hand shown; a tile pressed is picked (✅) and only tiles that can still make a legal three stay on offer;
    once three are picked a confirmation sends them. The group never sees them."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        tid = await open_sichuan(tg, alice, group, app, "xuezhan_swap")
        rt = service(app).tables[tid]
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        panel = await tg.wait_for(lambda _: pick_panel(tg, alice, tid), what="the pick panel")
        text = panel.text or ""
        assert "Swap three: pick three tiles of one suit" in text and "hand (13 tiles)" in text
        for n in (1, 2, 3):
            message = tg.message(alice, panel.message_id)
            picks = [d for d in message.callback_data if isinstance(decode(d), PickPress)]
            chosen = {d for d in picks if "✅" in _label(message, d)}
            press = next(d for d in picks if d not in chosen)
            query = tg.press(alice, None, panel.message_id, press)
            await tg.wait_for(lambda _, q=query: q.answered, what="the pick answered")
            assert query.text == t("ans.picked", "en", n=n, k=3)
            await tg.wait_for(
                lambda _, n=n: (
                    sum("✅" in b["text"] for b in tg.message(alice, panel.message_id).buttons) == n
                ),
                what=f"{n} tiles ticked",
            )
        message = tg.message(alice, panel.message_id)
        assert "Picked 3 of 3" in (message.text or "")
        confirm = next(d for d in message.callback_data if "Confirm" in _label(message, d))
        press = decode(confirm)
        assert isinstance(press, GamePress)
        seat = rt.seat_of(alice.id)
        assert seat is not None
        picked = rt.live.pending[seat].legal[press.index].detail
        query = tg.press(alice, None, panel.message_id, confirm)
        await tg.wait_for(lambda _: query.answered, what="the confirmation answered")
        assert (query.text or "").startswith("✔")
        # the swap is done (the others are AI): her panel says which three tiles she received
        received = await tg.wait_for(
            lambda _: rt.hand is not None and rt.hand.news.get(seat), what="the swap"
        )
        words = render.tiles_label(received.tiles, "en")
        panel_text = await tg.wait_for(
            lambda _: (
                (tg.message(alice, panel.message_id).text or "")
                if words in (tg.message(alice, panel.message_id).text or "")
                else None
            ),
            what="the received tiles on her panel",
        )
        # where hers went and where these came from (docs/rules/sichuan.md §2.2)
        rel = r"the [a-z]+ player \(.+\)"  # mid-sentence: not "to Previous player (…)"
        passed = rf"swap three: your 3 tiles went to {rel}; you received {words} from {rel}"
        assert re.search(passed, panel_text)
        assert not any(words in (m.text or "") for m in tg.bot_messages(group))
        # the group's recent line says which way the tiles went (public), never who received what
        await tg.wait_idle()
        group_texts = [v.text or "" for m in tg.bot_messages(group) for v in m.versions]
        assert any("swap three: the dice send the tiles" in x for x in group_texts)
        assert not any("received" in x for x in group_texts)
        player = Player(tg, alice, tid)
        player.last_since = since_of(confirm)
        done = hand_over(tg, group, t("note.result_title", "en", n=1))
        await play_hand([player], done)
        await tg.wait_idle()
        assert not any("✅" in (m.text or "") or picked in (m.text or "") for m in tg.bot_messages(group))


async def test_the_tiles_received_stay_on_the_panel_through_a_forced_void(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """docs/rules/sichuan.md §2.2, §2b.3: Alice passes the suggested three, all of one suit, and holds two
    suits after the swap: her 定缺 is forced, made for her. Her panel never said what she received: the
    note went with her next move, the forced 定缺 included. It stays until her first move of play, and her
    panel says what was made for her as her only move."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        tid = await open_sichuan(tg, alice, group, app, "xuezhan_swap")
        rt = service(app).tables[tid]
        tg.press(alice, group, (await lobby_message(tg, group, tid)).message_id, f"L|{tid}|go")
        panel = await tg.wait_for(lambda _: pick_panel(tg, alice, tid), what="the pick panel")
        suggested = next(d for d in panel.callback_data if _label(panel, d).startswith("💡"))
        tg.press(alice, None, panel.message_id, suggested)
        seat = rt.seat_of(alice.id)
        await tg.wait_for(
            lambda _: rt.state is not None and rt.state.seats[seat].choice is not None, what="her 定缺"
        )
        assert rt.state is not None
        hand = engine.observe(rt.state, seat).hand
        assert len({x // 9 for x in hand}) == 2, "the precondition: two suits left, so her void was forced"
        await tg.wait_idle()
        shown = [v.text or "" for m in tg.bot_messages(alice) for v in m.versions]
        assert any("you received" in x for x in shown), shown[-3:]
        # and what was played for her, because it was her only move (nothing said so: her hand just changed)
        assert any("Your only move, made for you: " in x for x in shown), shown[-3:]


def _label(message: FakeMessage, data: str) -> str:
    return next(b["text"] for b in message.buttons if b.get("callback_data") == data)


async def test_rules_and_settings_list_every_option_and_preset(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """docs/rules/sichuan.md §14: every option in the lobby and /rules, with its values' labels; the presets
    too."""
    alice = tg.add_user("Alice", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", Clock()):
        tid, _ = await open_table(tg, alice, group, "sichuan")
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|s")
        settings = await lobby_message(tg, group, tid, "b")
        labels = " ".join(b["text"] for b in settings.buttons)
        for spec in SC.option_specs:
            assert spec.label("en") in labels, spec.name
        for p in SC.presets:
            assert p.label("en") in labels
        tg.send_text(alice, group, "/rules sichuan")
        rules = await tg.wait_for(
            lambda _: next((m for m in tg.bot_messages(group) if "Room options" in (m.text or "")), None)
        )
        text = rules.text or ""
        for spec in SC.option_specs:
            assert spec.label("en") in text and spec.value_label(spec.choices[-1], "en") in text
        assert all(p.label("en") in text for p in SC.presets)
        # a room's own name opens its variant's rules, as /newtable takes it (it was an "unknown variant"
        # whose list named it); the English list names the rooms in English
        for name in ("血流成河", "river of blood", "三人两房"):
            mark = tg.mark()
            tg.send_text(alice, group, f"/rules {name}")
            call = await tg.wait_for_call("sendMessage", chat_id=group.id, since=mark)
            assert "Room options" in call.params["text"], call.params["text"]
        tg.send_text(alice, group, "/rules nonsense")
        call = await tg.wait_for_call("sendMessage", chat_id=group.id, since=tg.calls[-1].seq)
        assert "Unknown variant" in call.params["text"] and "[Bloody battle / " in call.params["text"]


def test_the_table_text_counts_wins_and_says_why_a_hand_is_locked() -> None:
    """血流成河 in the group's text: each seat's wins so far and the tiles they were on (docs/rules/sichuan.md
    §7b.4); a winner's hand locked after his win (not "opened a kong"); who has chosen, and 换三张's received
    tiles to their own seat only."""
    from bot.text import render, views

    from .dealing import act, act_events, discard_drawn
    from .sichuan_helpers import J0, J1, J2
    from .sichuan_helpers import deal as sichuan_deal

    state = sichuan_deal([J0 + "4s", "333m666m222s888s4s", J1, J2], draws="6p6p6p4s", mode="xueliu")
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    once = render.table_view(engine.observe_public(state), "en", ["A", "B", "C", "D"])
    assert "[won on 4s] [hand locked after the win] B · 13 tiles" in once and "kong" not in once  # not "1×"
    state = discard_drawn(discard_drawn(discard_drawn(state)))
    state = act(state, 1, Act.WIN)
    text = render.table_view(engine.observe_public(state), "en", ["A", "B", "C", "D"])
    assert "[won 2× on 4s 4s] [hand locked after the win] B · 13 tiles" in text
    zh = render.table_view(engine.observe_public(state), "zh", ["A", "B", "C", "D"])
    assert "[已胡 2 次：四条 四条] [胡后锁牌] B · 13 张" in zh
    assert "locked after your win" in render.hand_view(engine.observe(state, 1), "en")
    swap = engine.new_hand(SC, 5, {"swap": True})
    events: list[engine.Event] = []
    for seat in range(4):
        swap, got = act_events(swap, seat, Act.CHOOSE, detail=engine.legal_actions(swap, seat)[0].detail)
        events += got
    lines = [render.event_line(e, 0, "en", ["A", "B", "C", "D"], "sichuan") for e in events]
    step = next(e for e in events if e.seat == 0 and e.tiles)
    assert step.from_seat == (0 - (step.to_seat or 0)) % 4  # everyone passes the same way
    assert "A has chosen" in lines and any(
        x and x.startswith("swap three: your 3 tiles went to ") and "; you received " in x for x in lines
    )
    # another seat's tiles stay hidden: the others read the direction, not who got what
    assert sum(1 for x in lines if x and "swap three" in x) == 2
    assert not any(x and "B swap three" in x for x in lines)
    # the hand's replay tells every seat's by name: it read "your 3 tiles went to…" four times, no owner
    told = [x for x in views.replay_lines(events, "en", ["A", "B", "C", "D"], "sichuan") if "tiles went" in x]
    assert len(told) == 4 and not any("your" in x for x in told), told
    for e in (e for e in events if e.tiles and e.to_seat is not None):
        who, to, frm = ("ABCD"[s] for s in (e.seat, e.to_seat, e.from_seat))  # type: ignore[index]
        assert f"swap three: {who}'s 3 tiles went to {to}; {who} received" in " ".join(told)
        assert f"from {frm}" in next(x for x in told if x.startswith(f"swap three: {who}'s"))


def test_the_ai_passes_the_three_the_variant_suggests() -> None:
    """The AI picks sensibly by asking the variant (bot/ai/ names none): its 换三张 is the suggestion offered
    first — three tiles of its shortest suit — and its 定缺 the suit it holds fewest of."""
    import random

    from bot import ai

    state = engine.new_hand(SC, 5, {"swap": True})
    for seat in range(4):
        obs = engine.observe(state, seat)
        action = ai.choose(obs, random.Random(seat))
        assert action == obs.legal[0]
        counts = [sum(1 for t in obs.hand if t // 9 == s) for s in range(3)]
        suit = engine.parse_tiles(action.detail)[0] // 9
        assert counts[suit] == min(n for n in counts if n >= 3)
