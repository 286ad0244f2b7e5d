"""The bot's pieces without a server: token loading, `python -m bot` without a token, and one button per
legal action for every kind of decision every variant asks (opening hands, 海底, 补 vs 杠, 飘/加锤/定缺)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bot.__main__ as bot_main
import engine
from bot import ai
from bot.messages.keyboards import game_keyboard
from bot.messages.presses import GamePress, decode
from bot.telegram.app import claim_pause_from_env, load_env_file, load_token
from bot.text import render, views
from engine import Act, Phase

ROOT = Path(__file__).resolve().parent.parent


def test_token_from_environment_or_dotenv(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    assert load_token({}, env_file) is None
    env_file.write_text("# settings\nOTHER=1\nexport TELEGRAM_BOT_TOKEN='123:abc'\n", encoding="utf-8")
    assert load_token({}, env_file) == "123:abc"
    assert load_token({"TELEGRAM_BOT_TOKEN": " 456:def "}, env_file) == "456:def"  # the environment wins
    env_file.write_text("TELEGRAM_BOT_TOKEN=\n", encoding="utf-8")
    assert load_token({}, env_file) is None


def test_dotenv_settings_as_if_exported(tmp_path: Path) -> None:
    """.env.example says "copy to .env and fill in": every setting it lists is read from .env, not only the
    token; the environment wins; other keys and comments are left alone."""
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# the database\nMAHJONG_DB=/srv/m.db\nWEBHOOK_URL=\nexport MAHJONG_DISPLAY='text'\nPATH=/evil\n"
        "MAHJONG_CLAIM_PAUSE=5\n",
        encoding="utf-8",
    )
    env = {"MAHJONG_CLAIM_PAUSE": "2"}
    assert load_env_file(env, env_file) == ["MAHJONG_DB", "WEBHOOK_URL", "MAHJONG_DISPLAY"]
    assert env == {
        "MAHJONG_CLAIM_PAUSE": "2",
        "MAHJONG_DB": "/srv/m.db",
        "WEBHOOK_URL": "",
        "MAHJONG_DISPLAY": "text",
    }
    assert load_env_file({}, tmp_path / "missing") == []


def test_dotenv_comments_after_a_value_are_not_part_of_it(tmp_path: Path) -> None:
    """docs/deploy.md's webhook lines end in comments; pasted into .env, the comment became part of the value
    (WEBHOOK_LISTEN="127.0.0.1   # where…": the bot stopped). A # inside quotes, or not after a space,
    stays."""
    env_file = tmp_path / ".env"
    env_file.write_text(
        "WEBHOOK_URL=https://bot.example/hook   # Telegram posts here\nWEBHOOK_SECRET=   # empty: made up\n"
        "WEBHOOK_LISTEN='127.0.0.1 # not a comment'  # a comment\nMAHJONG_DB=/srv/a#b.db\n",
        encoding="utf-8",
    )
    env: dict[str, str] = {}
    load_env_file(env, env_file)
    assert env == {
        "WEBHOOK_URL": "https://bot.example/hook",
        "WEBHOOK_SECRET": "",
        "WEBHOOK_LISTEN": "127.0.0.1 # not a comment",
        "MAHJONG_DB": "/srv/a#b.db",
    }


def test_claim_pause_from_environment() -> None:
    """MAHJONG_CLAIM_PAUSE (docs/security.md): unset is the room default; whole seconds 0-60, else a clear
    stop at start rather than a refused table later."""
    assert claim_pause_from_env({}) is None and claim_pause_from_env({"MAHJONG_CLAIM_PAUSE": " "}) is None
    assert claim_pause_from_env({"MAHJONG_CLAIM_PAUSE": "0"}) == 0
    assert claim_pause_from_env({"MAHJONG_CLAIM_PAUSE": "8"}) == 8
    for bad in ("-1", "61", "2.5", "٣", "x" * 100):
        with pytest.raises(SystemExit, match="MAHJONG_CLAIM_PAUSE"):
            claim_pause_from_env({"MAHJONG_CLAIM_PAUSE": bad})


def test_python_m_bot_without_token_starts_the_console(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    called: list[bool] = []
    import bot.console

    monkeypatch.setattr(bot.console, "main", lambda: called.append(True) or 0)
    assert bot_main.main() == 0
    assert called == [True]
    assert "console game" in capsys.readouterr().out


KINDS = ("discard", "win", "pass", "pung", "chow", "opening", "take", "choose", "kong-bu", "kong-kai")


def _decisions() -> dict[str, list[tuple[engine.Observation, str]]]:
    """Observations of seats with a decision, by kind, from AI playouts of every variant."""
    found: dict[str, list[tuple[engine.Observation, str]]] = {}
    for vid, rs in engine.VARIANTS.items():
        opts = {"piao": True} if any(s.name == "piao" for s in rs.option_specs) else None
        for seed in range(30):  # changsha: kongs by seed 13, an opening hand at seed 22
            if seed >= 3 and all(found.get(k) for k in KINDS):
                break
            state = engine.new_hand(rs, seed, opts)
            rng = random.Random(seed)
            while state.phase != Phase.ENDED:
                for seat in engine.to_act(state):
                    obs = engine.observe(state, seat)
                    acts = {a.act for a in obs.legal}
                    kinds = {a.act.value for a in obs.legal}
                    if Act.KONG in acts:
                        kinds |= {f"kong-{a.detail or 'plain'}" for a in obs.legal if a.act == Act.KONG}
                    for k in kinds:
                        if len(found.setdefault(k, [])) < 4:
                            found[k].append((obs, vid))
                seat = engine.to_act(state)[0]
                state, _ = engine.apply(state, ai.choose(engine.observe(state, seat), rng))
    return found


def test_every_kind_of_decision_gets_one_button_per_action() -> None:
    found = _decisions()
    for kind in KINDS:
        assert found.get(kind), f"no {kind} decision in the playouts"
    for kind, cases in found.items():
        for obs, vid in cases:
            for lang in ("zh", "en"):
                rows = game_keyboard(obs, obs.legal, 42, 7, obs.version, lang)
                buttons = [b for row in rows for b in row]
                assert len(buttons) == len(obs.legal), (kind, vid)
                labels = [b.label for b in buttons]
                assert all(labels) and len(set(labels)) == len(labels), (kind, vid, labels)
                presses = [decode(b.data) for b in buttons]
                indexes = sorted(p.index for p in presses if isinstance(p, GamePress))
                assert indexes == list(range(len(obs.legal)))
                names = ["A", "B", "C", "D"][: len(obs.seats)]
                text = views.panel_text(obs, lang, names, "header", "⏱ 30", False)
                assert render.prompt(obs, lang, names) in text
                assert ("⏱" in text) == bool(obs.legal)


def test_discard_buttons_are_the_distinct_tiles_in_suit_order() -> None:
    rs = engine.get_variant("changsha")
    hands = ["11m2345s678p1199s5p", "679m25689s12489p", "2367m12468s1248p", "23679m279s14689p"]
    state = engine.arranged_hand(rs, hands)
    while state.phase == Phase.OPENING:
        state, _ = engine.apply(state, engine.Action(state.current, Act.PASS))
    obs = engine.observe(state, 0)
    rows = game_keyboard(obs, obs.legal, 1, 1, obs.version, "en")
    discards = [b.label for row in rows for b in row if b.label[0].isdigit()]
    assert " ".join(d.split()[0] for d in discards) == "1m 1s 2s 3s 4s 5s 9s 5p 6p 7p 8p"
    assert sum("⬅" in d for d in discards) == (1 if obs.drawn is not None else 0)


def test_help_with_a_token_set_prints_its_usage(tmp_path: Path) -> None:
    """`python -m bot --help` with a token set started the bot (against Telegram) instead of saying how."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "MAHJONG_"))}
    env.update(TELEGRAM_BOT_TOKEN="1:x", TELEGRAM_BASE_URL="http://127.0.0.1:9/bot", PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "bot", "--help"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("usage: python -m bot"), done
    assert ".env.example" in done.stdout and not done.stderr
