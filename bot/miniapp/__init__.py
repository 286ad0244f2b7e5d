"""The table as a Telegram Mini App: one live screen per player, served by the bot process itself.

* ``auth``      initData as Telegram signs it; table tokens for links
* ``protocol``  the stream's frames (from bot/table/feed.py's views only) and the page's requests
* ``tiles``     the tiles as SVG, drawn by the pictures' own face art (bot/pictures/tiles.py)
* ``server``    the aiohttp app: the page, the stream (WebSocket), actions through the table service
* ``relay``     several workers: a move on one reaches the streams held by another (PostgreSQL NOTIFY)
* ``web/``      the page (TypeScript, built to app.js by ``make miniapp``)

No Telegram types here: bot/telegram/app.py starts it (``MINIAPP_URL``) and passes the bot token and the
table service (whose membership port checks spectators).
"""
