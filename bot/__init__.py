"""The Telegram bot (and the console game), in rooms by role. Each room may use only the rooms above it in
this list (tests/test_layers.py checks it), and only ``telegram/`` imports the ``telegram`` library:

* ``ai/``        the AI seats: an ``Observation`` in, an ``Action`` out (engine only)
* ``text/``      every word a player reads: the zh/en catalogue, observations as text, what fits a message
* ``pictures/``  observations as PNG pictures (Pillow), drawn in a worker process
* ``messages/``  a message as plain data (text, ``Button`` rows, a picture) and the callback data of every
                 button kind with its keyboards
* ``members/``   who is who: names, languages, display modes; group membership and deep-link keys
* ``records/``   战绩: /history, /replay, /export, /stats, the score board
* ``table/``     the table service: lobby, hands, game nights, timers, restore after a restart, and what
                 each chat shows (``present``); it decides, ``storage/`` records
* ``miniapp/``   the table as a Telegram Mini App: its web server (the page, a live stream per viewer,
                 actions through the table service), initData checks, the tiles as SVG
* ``telegram/``  PTB: the application, one handler per command and button kind, the HTTP client, the
                 webhook, the paced outbox that sends what ``table/`` publishes, the worker cluster

An update flows down and back up: ``telegram/handlers.py`` reads it (a button's data through
``messages/``' decoder) and calls ``table/service.py``; the service changes the table under its lock, stores
the move (``storage/``) and publishes what each chat should show, rendered by ``text/`` and ``pictures/``
from ``observe(state, seat)`` only; ``telegram/outbox.py`` sends it in each chat's order.

``python -m bot``: the Telegram bot when TELEGRAM_BOT_TOKEN is set (environment or .env), else the console
game (you against three AI seats)."""
