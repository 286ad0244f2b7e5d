"""What the Mini App's server says in words (refusals), in Chinese and English. The page's own labels are in
its script (bot/miniapp/web/app.ts); game texts (action labels, settlements) come from bot/text/ in frames."""

from __future__ import annotations

_S: dict[str, tuple[str, str]] = {
    "app.bad_link": (
        "这个牌桌链接无效。请从群里的牌桌消息打开。",
        "This table link is not valid. Open it from the table's message in the group.",
    ),
    "app.closed": ("这一桌已经结束了。", "This table is closed."),
    "app.not_member": (
        "只有本群成员可以观看这一桌。",
        "Only members of the table's group may watch this table.",
    ),
    "app.check_failed": (
        "暂时无法确认你是否在群里，请稍后再试。",
        "Could not check your group membership; try again soon.",
    ),
    "app.bad_request": ("请求无效。", "Bad request."),
    "app.auth.missing": ("请在 Telegram 里打开这个页面。", "Open this page inside Telegram."),
    "app.auth.forged": (
        "登录信息无效，请在 Telegram 里重新打开。",
        "Your sign-in is not valid: open the table again in Telegram.",
    ),
    "app.auth.expired": (
        "登录已过期，请在 Telegram 里重新打开。",
        "Your sign-in has expired: open the table again in Telegram.",
    ),
    "app.auth.malformed": (
        "登录信息无效，请在 Telegram 里重新打开。",
        "Your sign-in is not valid: open the table again in Telegram.",
    ),
}


def tx(key: str, lang: str) -> str:
    zh, en = _S[key]
    return zh if lang == "zh" else en
