"""bot.console: auto games run to the end; bad input gets a message and a re-prompt; EOF and q end it."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bot import console

ROOT = Path(__file__).resolve().parent.parent


def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    rc = console.main(argv, stdin=io.StringIO(stdin), stdout=out)
    return rc, out.getvalue()


def test_auto_plays_three_hands_to_completion() -> None:
    rc, out = run(["--auto", "--hands", "3", "--seed", "5"])
    assert rc == 0
    for n in (1, 2, 3):
        assert f"==== 第 {n} 局" in out
    assert "==== 第 4 局" not in out
    assert out.count("下一局庄家") == 3
    assert "共打了 3 局" in out
    assert "Traceback" not in out


def test_auto_english_and_deterministic() -> None:
    rc1, out1 = run(["--auto", "--hands", "2", "--seed", "9", "--lang", "en"])
    rc2, out2 = run(["--auto", "--hands", "2", "--seed", "9", "--lang", "en"])
    assert rc1 == rc2 == 0 and out1 == out2
    assert "==== Hand 2" in out1 and "Hands played: 2." in out1 and "Next dealer" in out1


def test_dealer_follows_the_result() -> None:
    _, out = run(["--auto", "--hands", "3", "--seed", "5"])
    lines = out.splitlines()
    nexts = [ln.split("：", 1)[1].split("（")[0] for ln in lines if ln.startswith("下一局庄家：")]  # （why）
    dealers = [ln.split("庄家 ", 1)[1].split(" ", 1)[0] for ln in lines if ln.startswith("==== 第")]
    assert dealers[1:] == nexts[:2]


def test_junk_input_gets_a_message_and_a_reprompt_then_eof_ends() -> None:
    rc, out = run(["--seed", "3", "--hands", "1"], stdin="xyz\n99\n\n5z\n")
    assert rc == 0
    assert "无效输入 “xyz”" in out
    assert "无效输入 “99”" in out
    assert "请输入 1 到" in out  # the empty line
    assert "现在不能打 5z" in out
    assert out.count("请选择 [1-") == 5  # four bad answers, each followed by a new prompt
    assert "输入结束，退出。" in out
    assert "Traceback" not in out


def test_junk_input_in_english() -> None:
    rc, out = run(["--seed", "3", "--hands", "1", "--lang", "en"], stdin="hello\n0\n")
    assert rc == 0
    assert "Invalid input 'hello'" in out and "Invalid input '0'" in out
    assert "End of input, quitting." in out


def test_a_tile_or_a_number_plays_and_the_game_goes_on() -> None:
    # seed 3: seat 0 is not the dealer and holds 9s on its first turn
    rc, out = run(["--seed", "3", "--hands", "1"], stdin="9s\n1\n")
    assert rc == 0
    assert "你 打 9s 九条" in out
    assert out.count("请选择 [1-") >= 3


def test_a_human_hand_played_to_the_end() -> None:
    """Always answering "1" (win first when offered, else the first option) finishes a hand."""
    rc, out = run(["--seed", "8", "--hands", "1"], stdin="1\n" * 400)
    assert rc == 0
    assert "共打了 1 局" in out and "下一局庄家" in out


def test_q_quits_cleanly() -> None:
    rc, out = run(["--seed", "3"], stdin="q\n")
    assert rc == 0
    assert "再见" in out and "共打了 0 局" in out


def test_between_hands_enter_continues_and_q_stops() -> None:
    rc, out = run(["--auto", "--seed", "2"], stdin="\nq\n")
    assert rc == 0
    assert "==== 第 2 局" in out and "==== 第 3 局" not in out
    assert "共打了 2 局" in out


def test_bad_options_do_not_crash() -> None:
    assert console.main(["--lang", "fr"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    assert console.main(["--hands", "0"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    return env


def test_python_m_bot_console(tmp_path: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "bot.console", "--auto", "--hands", "1", "--seed", "1"],
        input="",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(),
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert "共打了 1 局" in p.stdout


def test_python_m_bot_without_a_token_starts_the_console(tmp_path: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "bot", "--auto", "--hands", "1", "--seed", "1", "--lang", "en"],
        input="",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(),
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert "Hands played: 1." in p.stdout


def test_the_running_totals_are_shown_once_at_the_end() -> None:
    """After the last hand the totals line is not printed a second time under "Hands played"."""
    rc, out = run(["--seed", "7", "--lang", "en", "--hands", "1", "--auto"])
    assert rc == 0
    assert out.count("Running totals") == 1
    assert out.rstrip().endswith("Hands played: 1.")


def test_every_variant_plays_in_the_console() -> None:
    """``--variant`` picks the rules (the banner names them); a human 四川 player is asked his 定缺."""
    for variant, name in (("hengyang", "衡阳麻将"), ("sichuan", "四川麻将"), ("hongzhong", "红中麻将")):
        rc, out = run(["--auto", "--hands", "1", "--seed", "3", "--variant", variant])
        assert rc == 0 and out.startswith(name) and "共打了 1 局" in out, out[-300:]
    rc, out = run(["--hands", "1", "--seed", "5", "--variant", "sichuan", "--lang", "en"], "1\n" * 400)
    assert rc == 0 and out.startswith("Sichuan · you") and "1. void bamboo" in out
    assert run(["--variant", "riichi"])[0] == 2


def test_the_player_is_named_so_that_english_reads() -> None:
    """'You pays Next player' is not English: the player is 'Player (you)' in English, 你 in Chinese."""
    _, out = run(["--auto", "--hands", "1", "--seed", "1", "--lang", "en"])
    assert "Player (you) pays Next player: 2" in out and "You pays" not in out
    _, out = run(["--auto", "--hands", "1", "--seed", "1"])
    assert "你 付给 下家：2" in out
