"""The schema as a list of migration steps, applied in order and recorded in ``PRAGMA user_version``.

Step ``k`` (1-based) takes a database from version ``k - 1`` to ``k``. Steps are history: once released a step
is never edited, only followed by a new one, so that every database ever written upgrades the same way.
Each step runs in one ``BEGIN IMMEDIATE`` transaction together with its ``user_version`` bump, so a crash
mid-migration leaves the previous version intact.

Invariants live in the schema, not only in Python, so no writer can break them:

* ``actions`` is append-only and strictly ordered: a trigger refuses an action whose ``version`` is not the
  version of the hand's last logged action + 1 (0 before the first), whose ``seq`` leaves a gap, or that
  targets an ended hand. A hand's current version is its last action's, read through the primary key, so
  logging an action writes one row and nothing else (no counter to keep in step).
* a table has at most one unfinished hand (partial unique index), which is the hand ``restore`` rebuilds.
* ``score_deltas`` is derived from ``hands.result`` (the result JSON is the source of truth) and carries
  ``chat_id`` and ``ended_at`` so a weekly or monthly leaderboard reads one covering index range and never
  the action log. ``chat_totals`` (all-time sums) is kept by a trigger on ``score_deltas``, whose rows are
  immutable.
"""

from __future__ import annotations

import aiosqlite

APPLICATION_ID = 0x4D4A4442  # "MJDB" in the header: tells our files from other applications' databases

V1_GAME_RECORD: tuple[str, ...] = (
    """
    CREATE TABLE players (
        user_id    INTEGER PRIMARY KEY,            -- Telegram user id
        name       TEXT NOT NULL,                  -- display name, refreshed whenever the player shows up
        language   TEXT,                           -- preferred language (e.g. Telegram language_code)
        updated_at REAL NOT NULL
    )
    """,
    """
    CREATE TABLE tables (
        id         INTEGER PRIMARY KEY,
        chat_id    INTEGER NOT NULL,               -- Telegram group chat
        variant    TEXT NOT NULL,                  -- engine variant id, e.g. 'changsha'
        options    TEXT NOT NULL CHECK (json_valid(options)),
        seats      TEXT NOT NULL CHECK (json_valid(seats)),  -- JSON list: user id per seat, null = no player
        status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
        created_at REAL NOT NULL
    )
    """,
    "CREATE INDEX tables_open ON tables (chat_id) WHERE status = 'open'",
    """
    CREATE TABLE hands (
        id         INTEGER PRIMARY KEY,
        table_id   INTEGER NOT NULL REFERENCES tables (id),
        number     INTEGER NOT NULL,               -- 1, 2, ... within the table
        seed       INTEGER NOT NULL,
        dealer     INTEGER NOT NULL,               -- the dealer of this hand
        dealer_drawn INTEGER NOT NULL DEFAULT 0 CHECK (dealer_drawn IN (0, 1)),
                                                   -- 1: the engine drew the dealer from the seed, and
                                                   -- replay must let it draw again (it uses the seed's
                                                   -- randomness before the shuffle)
        seats      TEXT NOT NULL CHECK (json_valid(seats)),    -- the table's seats when the hand started
        options    TEXT NOT NULL CHECK (json_valid(options)),  -- fully resolved: later defaults cannot
                                                               -- change how an old hand replays
        result     TEXT CHECK (result IS NULL OR json_valid(result)),
        started_at REAL NOT NULL,
        ended_at   REAL,                           -- NULL while the hand is being played
        UNIQUE (table_id, number)
    )
    """,
    "CREATE UNIQUE INDEX hands_unfinished ON hands (table_id) WHERE ended_at IS NULL",
    """
    CREATE TABLE actions (
        hand_id INTEGER NOT NULL REFERENCES hands (id),
        seq     INTEGER NOT NULL,                  -- 1, 2, ... within the hand
        seat    INTEGER NOT NULL,
        action  TEXT NOT NULL,                     -- engine notation, e.g. '2 discard 5m'
        version INTEGER NOT NULL,                  -- the state version this action produced
        at      REAL NOT NULL,
        PRIMARY KEY (hand_id, seq)
    ) WITHOUT ROWID
    """,
    """
    CREATE TRIGGER actions_in_order BEFORE INSERT ON actions
    BEGIN
        SELECT RAISE(ABORT, 'mjdb: no such hand')
            WHERE NOT EXISTS (SELECT 1 FROM hands WHERE id = NEW.hand_id);
        SELECT RAISE(ABORT, 'mjdb: hand ended')
            FROM hands WHERE id = NEW.hand_id AND ended_at IS NOT NULL;
        SELECT RAISE(ABORT, 'mjdb: version out of order')
            WHERE NEW.version <> 1 + COALESCE(
                (SELECT version FROM actions WHERE hand_id = NEW.hand_id ORDER BY seq DESC LIMIT 1), 0);
        SELECT RAISE(ABORT, 'mjdb: sequence gap')
            WHERE NEW.seq <> 1 + COALESCE(
                (SELECT seq FROM actions WHERE hand_id = NEW.hand_id ORDER BY seq DESC LIMIT 1), 0);
    END
    """,
    """
    CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
    BEGIN
        SELECT RAISE(ABORT, 'mjdb: actions are append-only');
    END
    """,
)

V2_SCORES: tuple[str, ...] = (
    """
    CREATE TABLE score_deltas (
        hand_id  INTEGER NOT NULL REFERENCES hands (id),
        seat     INTEGER NOT NULL,
        user_id  INTEGER,                          -- NULL: a seat without a Telegram player
        chat_id  INTEGER NOT NULL,
        delta    INTEGER NOT NULL,
        win      INTEGER NOT NULL CHECK (win IN (0, 1)),
        ended_at REAL NOT NULL,
        PRIMARY KEY (hand_id, seat)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX score_deltas_chat ON score_deltas (chat_id, ended_at, user_id, delta, win)",
    "CREATE INDEX score_deltas_user ON score_deltas (user_id, ended_at)",
    # hands finished before scores had their own table: derive their rows from the result JSON
    """
    INSERT INTO score_deltas (hand_id, seat, user_id, chat_id, delta, win, ended_at)
    SELECT h.id, d.key, json_extract(h.seats, '$[' || d.key || ']'), t.chat_id, d.value,
           EXISTS (SELECT 1 FROM json_each(h.result, '$.winners') AS w WHERE w.value = d.key),
           h.ended_at
    FROM hands AS h
    JOIN tables AS t ON t.id = h.table_id
    JOIN json_each(h.result, '$.deltas') AS d
    WHERE h.ended_at IS NOT NULL AND h.result IS NOT NULL
    """,
)

V3_CHAT_TOTALS: tuple[str, ...] = (
    # all-time standings grow with a chat's whole history; keep them as running sums (one row per player),
    # so the all-time leaderboard reads a handful of rows however old the chat is
    """
    CREATE TABLE chat_totals (
        chat_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        points  INTEGER NOT NULL,
        hands   INTEGER NOT NULL,
        wins    INTEGER NOT NULL,
        best    INTEGER NOT NULL,                  -- largest single-hand gain, 0 if none
        PRIMARY KEY (chat_id, user_id)
    ) WITHOUT ROWID
    """,
    """
    INSERT INTO chat_totals (chat_id, user_id, points, hands, wins, best)
    SELECT chat_id, user_id, SUM(delta), COUNT(*), SUM(win), MAX(MAX(delta), 0)
    FROM score_deltas WHERE user_id IS NOT NULL
    GROUP BY chat_id, user_id
    """,
    """
    CREATE TRIGGER score_deltas_totals AFTER INSERT ON score_deltas WHEN NEW.user_id IS NOT NULL
    BEGIN
        INSERT INTO chat_totals (chat_id, user_id, points, hands, wins, best)
        VALUES (NEW.chat_id, NEW.user_id, NEW.delta, 1, NEW.win, MAX(NEW.delta, 0))
        ON CONFLICT (chat_id, user_id) DO UPDATE SET
            points = points + excluded.points,
            hands = hands + 1,
            wins = wins + excluded.wins,
            best = MAX(best, excluded.best);
    END
    """,
    # the sums stay right only if score rows are never changed or removed behind their back
    """
    CREATE TRIGGER score_deltas_no_update BEFORE UPDATE ON score_deltas
    BEGIN
        SELECT RAISE(ABORT, 'mjdb: score rows are history');
    END
    """,
    """
    CREATE TRIGGER score_deltas_no_delete BEFORE DELETE ON score_deltas
    BEGIN
        SELECT RAISE(ABORT, 'mjdb: score rows are history');
    END
    """,
)

V4_BOT_STATE: tuple[str, ...] = (
    # Everything the bot knows lives here, written in the same transaction as the change that causes it
    # (before v4 it sat in a side file, ``<db>.bot.json``, written late). Values are typed and checked.
    #
    # A player's language, stored once: the Telegram client's, until he chooses one with /lang.
    """
    CREATE TABLE players_v4 (
        user_id    INTEGER PRIMARY KEY,            -- Telegram user id
        name       TEXT NOT NULL,                  -- display name, refreshed whenever the player shows up
        language   TEXT CHECK (language IN ('zh', 'en')),  -- the bot's language for him; NULL: not known
        language_chosen INTEGER NOT NULL DEFAULT 0 CHECK (language_chosen IN (0, 1)),
                                                   -- 1: chosen with /lang, his client's no longer counts
        updated_at REAL NOT NULL
    )
    """,
    """
    INSERT INTO players_v4 (user_id, name, language, language_chosen, updated_at)
    SELECT user_id, name,
           CASE WHEN language IS NULL THEN NULL WHEN lower(language) LIKE 'zh%' THEN 'zh' ELSE 'en' END,
           0, updated_at
    FROM players
    """,
    "DROP TABLE players",
    "ALTER TABLE players_v4 RENAME TO players",
    # A group's settings (one typed column each; a later step adds columns, e.g. text or picture mode).
    """
    CREATE TABLE chat_settings (
        chat_id  INTEGER PRIMARY KEY,              -- a Telegram group
        language TEXT CHECK (language IN ('zh', 'en'))  -- chosen with /lang; NULL: not chosen
    )
    """,
    # A table's bot settings, beside its seats and room options (``tables``): one row per table.
    """
    CREATE TABLE table_settings (
        table_id  INTEGER PRIMARY KEY REFERENCES tables (id),
        lang      TEXT NOT NULL DEFAULT 'zh' CHECK (lang IN ('zh', 'en')),  -- of the group's messages
        claim_s   INTEGER NOT NULL DEFAULT 30 CHECK (claim_s BETWEEN 5 AND 3600),  -- claim timer
        discard_s INTEGER NOT NULL DEFAULT 60 CHECK (discard_s BETWEEN 5 AND 3600),  -- turn timer
        pause_s   INTEGER NOT NULL DEFAULT 3 CHECK (pause_s BETWEEN 0 AND 60),  -- the claim pause after
                                                   -- every discard, the same whether anyone may claim
        host      INTEGER,                         -- who opened the table (/newtable); NULL: unknown
        editing   INTEGER NOT NULL DEFAULT 0 CHECK (editing IN (0, 1)),  -- the lobby shows its settings
        lobby_msg INTEGER CHECK (lobby_msg > 0),   -- the group's lobby message (edited in place)
        table_msg INTEGER CHECK (table_msg > 0)    -- the group's table message of the current hand
    )
    """,
    "INSERT INTO table_settings (table_id) SELECT id FROM tables",
    # Each seat of a table: the lobby's AI seats, and during a hand auto-play, timeouts in a row and the
    # open decision (the state version it started at and its deadline). Four rows per table.
    """
    CREATE TABLE table_seats (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        ai       INTEGER NOT NULL DEFAULT 0 CHECK (ai IN (0, 1)),    -- the lobby gives the seat to an AI
        auto     INTEGER NOT NULL DEFAULT 0 CHECK (auto IN (0, 1)),  -- the bot plays for its player
        timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),   -- his timeouts in a row
        since    INTEGER CHECK (since >= 0),       -- open decision: the state version it started at
        deadline REAL CHECK (deadline > 0),        -- ... and when the bot plays for him
        CHECK ((since IS NULL) = (deadline IS NULL)),
        PRIMARY KEY (table_id, seat)
    ) WITHOUT ROWID
    """,
    """
    INSERT INTO table_seats (table_id, seat)
    SELECT t.id, s.value FROM tables AS t JOIN json_each('[0, 1, 2, 3]') AS s
    """,
    # Each player's private panel of a table (the message his hand is shown in, edited in place).
    """
    CREATE TABLE panels (
        table_id   INTEGER NOT NULL REFERENCES tables (id),
        user_id    INTEGER NOT NULL,               -- the private chat the panel is in
        message_id INTEGER NOT NULL CHECK (message_id > 0),
        PRIMARY KEY (table_id, user_id)
    ) WITHOUT ROWID
    """,
    # Whether a finished hand's result reached the group: 0 from the moment it ends until it is shown.
    # Hands that ended before v4 count as delivered.
    """
    ALTER TABLE hands ADD COLUMN result_delivered INTEGER NOT NULL DEFAULT 1
        CHECK (result_delivered IN (0, 1))
    """,
    # A group upgraded to a supergroup gets a new chat id: its score rows follow it. Every other column of
    # a score row stays history.
    "DROP TRIGGER score_deltas_no_update",
    """
    CREATE TRIGGER score_deltas_no_update BEFORE UPDATE OF hand_id, seat, user_id, delta, win, ended_at
    ON score_deltas
    BEGIN
        SELECT RAISE(ABORT, 'mjdb: score rows are history');
    END
    """,
)

V5_DISPLAY: tuple[str, ...] = (
    # How a chat shows a game: pictures (the default) or text only. A group's, or a player's private
    # chat's (its chat id is his user id). NULL: not chosen (pictures).
    """
    ALTER TABLE chat_settings ADD COLUMN display TEXT CHECK (display IN ('pictures', 'text'))
    """,
)

V6_GAME_NIGHT: tuple[str, ...] = (
    # The room: 局数 (rounds: 4, 8 or 16 hands, 0 = until /stop), the ready timer between hands,
    # the ready phase in progress (its deadline, and which seats pressed Ready).
    """
    ALTER TABLE table_settings ADD COLUMN rounds INTEGER NOT NULL DEFAULT 8 CHECK (rounds IN (0, 4, 8, 16))
    """,
    """
    ALTER TABLE table_settings ADD COLUMN ready_s INTEGER NOT NULL DEFAULT 30
        CHECK (ready_s BETWEEN 5 AND 600)
    """,
    "ALTER TABLE table_settings ADD COLUMN ready_until REAL CHECK (ready_until > 0)",
    "ALTER TABLE table_seats ADD COLUMN ready INTEGER NOT NULL DEFAULT 0 CHECK (ready IN (0, 1))",
    # A hand's public code (what users type: /replay, /export; random, so one group cannot guess another's
    # hands) and the salt of its shuffle commitment (SHA-256 over the seed, the salt and the table/hand ids;
    # NULL for hands dealt before this step, which showed no commitment).
    "ALTER TABLE hands ADD COLUMN code TEXT",
    "ALTER TABLE hands ADD COLUMN salt TEXT",
    "UPDATE hands SET code = lower(hex(randomblob(5)))",
    "CREATE UNIQUE INDEX hands_code ON hands (code)",
    # 1: the hand ended with a result whose per-seat facts and ratings are still to be derived (the Python
    # pass of ``Storage.derive_pending``: it replays the hand). Hands finished from now on are derived in
    # the transaction that finishes them; those finished before this step wait for the first pass.
    """
    ALTER TABLE hands ADD COLUMN derive_pending INTEGER NOT NULL DEFAULT 0 CHECK (derive_pending IN (0, 1))
    """,
    """
    UPDATE hands SET derive_pending = 1
    WHERE ended_at IS NOT NULL AND json_type(result, '$.deltas') = 'array'
    """,
    "CREATE INDEX hands_derive_pending ON hands (ended_at, id) WHERE derive_pending",
    "CREATE INDEX tables_chat ON tables (chat_id, id)",
    # What each seat did in a finished hand (derived by replaying it): the source of /stats and of the
    # room's final summary (大结算). Rows are history, like score rows.
    """
    CREATE TABLE seat_stats (
        hand_id    INTEGER NOT NULL REFERENCES hands (id),
        seat       INTEGER NOT NULL,
        user_id    INTEGER,                        -- NULL: an AI seat
        chat_id    INTEGER NOT NULL,
        table_id   INTEGER NOT NULL,
        variant    TEXT NOT NULL,
        delta      INTEGER NOT NULL,
        win        INTEGER NOT NULL CHECK (win IN (0, 1)),        -- 胡
        self_draw  INTEGER NOT NULL CHECK (self_draw IN (0, 1)),  -- 自摸
        deal_ins   INTEGER NOT NULL CHECK (deal_ins >= 0),        -- 点炮: wins on this seat's tile
        kongs      INTEGER NOT NULL CHECK (kongs >= 0),           -- 杠 made
        best       TEXT CHECK (best IS NULL OR json_valid(best)), -- hand-name ids of its win
        best_value INTEGER,                        -- what that win settlement gave it (NULL: no win)
        ended_at   REAL NOT NULL,
        PRIMARY KEY (hand_id, seat)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX seat_stats_chat ON seat_stats (chat_id, user_id, variant)",
    "CREATE INDEX seat_stats_user ON seat_stats (user_id, variant)",
    "CREATE INDEX seat_stats_table ON seat_stats (table_id)",
    # Skill ratings (openskill, Plackett-Luce) per group, variant and player: derived from finished hands in
    # the order they ended.
    """
    CREATE TABLE ratings (
        chat_id INTEGER NOT NULL,
        variant TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu      REAL NOT NULL,
        sigma   REAL NOT NULL CHECK (sigma > 0),
        hands   INTEGER NOT NULL CHECK (hands >= 0),
        PRIMARY KEY (chat_id, variant, user_id)
    ) WITHOUT ROWID
    """,
    # A group's last room settings per variant, for its next /newtable of that variant.
    """
    CREATE TABLE chat_variant_settings (
        chat_id   INTEGER NOT NULL,
        variant   TEXT NOT NULL,
        options   TEXT NOT NULL CHECK (json_valid(options)),
        seats     INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 4),
        rounds    INTEGER NOT NULL CHECK (rounds IN (0, 4, 8, 16)),
        ready_s   INTEGER NOT NULL CHECK (ready_s BETWEEN 5 AND 600),
        claim_s   INTEGER NOT NULL CHECK (claim_s BETWEEN 5 AND 3600),
        discard_s INTEGER NOT NULL CHECK (discard_s BETWEEN 5 AND 3600),
        pause_s   INTEGER NOT NULL CHECK (pause_s BETWEEN 0 AND 60),
        PRIMARY KEY (chat_id, variant)
    ) WITHOUT ROWID
    """,
)

V7_WORKERS: tuple[str, ...] = (
    # Several bot worker processes on one PostgreSQL database (bot/telegram/cluster.py); SQLite has
    # them too (one process never uses them). Written once, in SQL both databases read alike
    # (storage/pg_schema.py).
    #
    # The worker that last held each table (its lease is an advisory lock): another worker that takes the
    # table next rebuilds it from the log first.
    """
    CREATE TABLE table_leases (
        table_id BIGINT PRIMARY KEY,
        owner    TEXT NOT NULL
    )
    """,
    # A table's next deadline (turn timer, ready phase): whichever worker is free takes it when it is due.
    """
    CREATE TABLE timers (
        table_id BIGINT PRIMARY KEY,
        due      DOUBLE PRECISION NOT NULL
    )
    """,
    "CREATE INDEX timers_due ON timers (due)",
    # Workers alive (a heartbeat): they share the bot's send budget.
    """
    CREATE TABLE workers (
        worker TEXT PRIMARY KEY,
        seen   DOUBLE PRECISION NOT NULL
    )
    """,
)

V8_SHARED_SENDING: tuple[str, ...] = (
    # The bot's sending, shared by its workers (bot/telegram/cluster.py): Telegram's limits are the
    # bot's, not a worker's. Portable SQL, as v7.
    #
    # When a table's group was last sent a request (wall-clock seconds): the worker that takes the table
    # next keeps the group's pace (~20 requests a minute) from there.
    "ALTER TABLE table_leases ADD COLUMN group_sent DOUBLE PRECISION",
    # Requests the workers together made in each second of the database server's clock (the bot's ~30 a
    # second): a worker reserves a few at a time, never beyond the limit.
    """
    CREATE TABLE send_budget (
        second BIGINT PRIMARY KEY,
        used   INTEGER NOT NULL
    )
    """,
)

V9_OUTBOX: tuple[str, ...] = (
    # The transactional outbox: a one-off message (a hand's result in a player's private chat, a
    # note to the group) is written in the transaction of what caused it, and deleted once the bot has sent
    # it; a restart, or the worker that takes a table over, sends the table's rows left, in id order.
    # ``keyboard``: the Bot API's reply_markup JSON. PostgreSQL has its own step (an identity column).
    """
    CREATE TABLE outbox (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: the order of a chat's messages
        table_id   INTEGER NOT NULL REFERENCES tables (id),
        chat_id    INTEGER NOT NULL,
        text       TEXT NOT NULL,
        keyboard   TEXT CHECK (keyboard IS NULL OR json_valid(keyboard)),
        created_at REAL NOT NULL
    )
    """,
    "CREATE INDEX outbox_table ON outbox (table_id, id)",
)

V10_STATELESS_WORKERS: tuple[str, ...] = (
    # Stateless workers (bot/telegram/cluster.py): any worker serves any update and any timer; a table is
    # serialised by its row lock in the transaction that moves it, not by a lease held across transactions.
    # Portable SQL, as v7 (one process on SQLite never uses these).
    #
    # Leases are gone: nothing is owned past a transaction.
    "DROP TABLE table_leases",
    # ``rev`` counts a table's transactions (each one that locks the row adds one): a worker whose table in
    # memory is at the rev before its own lock is current, else it catches up from the log first.
    # ``owed_by``: the worker that moved the table last owes its chats the live messages of that state; if
    # it died before sending them, another worker shows the table again.
    "ALTER TABLE tables ADD COLUMN rev INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN owed_by TEXT",
    # Updates applied (Telegram's update_id), written in the transaction of what the update changes: one
    # delivered twice is applied once. Pruned after a while (Telegram resends for up to a day; ids grow).
    """
    CREATE TABLE updates_seen (
        update_id BIGINT PRIMARY KEY,
        seen      DOUBLE PRECISION NOT NULL
    )
    """,
    "CREATE INDEX updates_seen_at ON updates_seen (seen)",
    # A one-off message queued by a worker: another sends it only if that worker is gone.
    "ALTER TABLE outbox ADD COLUMN claimed_by TEXT",
    # The state (a table's rev) each live message shows, its current message id, and the worker sending
    # it now (until when): an edit for an older state than shown is dropped, and two workers never send
    # one live message at once.
    """
    CREATE TABLE live_shown (
        chat_id    BIGINT NOT NULL,
        key        TEXT NOT NULL,
        rev        INTEGER NOT NULL,
        message_id BIGINT,
        sender     TEXT,
        until      DOUBLE PRECISION,
        PRIMARY KEY (chat_id, key)
    )
    """,
    # When each group may next be sent a request (Telegram's ~20 a minute per group, for all workers).
    """
    CREATE TABLE chat_pace (
        chat_id BIGINT PRIMARY KEY,
        next_at DOUBLE PRECISION NOT NULL
    )
    """,
)

V11_STOP_VOTE: tuple[str, ...] = (
    # The stop vote (申请解散, bot/table/vote.py): a seated player asks to end the room, the others agree
    # or refuse before its deadline; it survives a restart. Portable SQL (no PostgreSQL step of its own).
    #
    # The number of the table's latest vote (its buttons carry it), when the one in progress ends (NULL:
    # none in progress), who asked, and the group's tally message (edited in place).
    "ALTER TABLE table_settings ADD COLUMN vote INTEGER NOT NULL DEFAULT 0 CHECK (vote >= 0)",
    "ALTER TABLE table_settings ADD COLUMN vote_until DOUBLE PRECISION CHECK (vote_until > 0)",
    "ALTER TABLE table_settings ADD COLUMN vote_by BIGINT",
    "ALTER TABLE table_settings ADD COLUMN vote_msg BIGINT CHECK (vote_msg > 0)",
    # The room's setting: at the countdown's end those who did not answer agree (1) or refuse (0).
    """
    ALTER TABLE table_settings ADD COLUMN vote_agree INTEGER NOT NULL DEFAULT 1 CHECK (vote_agree IN (0, 1))
    """,
    """
    ALTER TABLE chat_variant_settings ADD COLUMN vote_agree INTEGER NOT NULL DEFAULT 1
        CHECK (vote_agree IN (0, 1))
    """,
    # Each seat's answer to the vote in progress (both 0: not answered yet).
    "ALTER TABLE table_seats ADD COLUMN vote_yes INTEGER NOT NULL DEFAULT 0 CHECK (vote_yes IN (0, 1))",
    "ALTER TABLE table_seats ADD COLUMN vote_no INTEGER NOT NULL DEFAULT 0 CHECK (vote_no IN (0, 1))",
)

V12_AI_LEVEL: tuple[str, ...] = (
    # The AI seats' strength per room (bot/ai/levels.py ids: easy, normal, expert; NULL: the bot's default,
    # its strongest), remembered with the group's room like the other room settings. Portable SQL.
    """
    ALTER TABLE table_settings ADD COLUMN ai_level TEXT
        CHECK (ai_level IS NULL OR length(ai_level) BETWEEN 1 AND 16)
    """,
    """
    ALTER TABLE chat_variant_settings ADD COLUMN ai_level TEXT
        CHECK (ai_level IS NULL OR length(ai_level) BETWEEN 1 AND 16)
    """,
)

V13_PRESS_ANSWERS: tuple[str, ...] = (
    # The answer a button press got (``✔ Discard 3m``), written with the update's id in the transaction of
    # the action it applied: a press Telegram delivers again (the bot was killed before it confirmed the
    # update) is answered with what it did, not "out of date". A column of v10's ``updates_seen`` (on one
    # process, on SQLite too, the table holds only these rows; pruned after a day as on PostgreSQL).
    # Portable SQL.
    "ALTER TABLE updates_seen ADD COLUMN answer TEXT",
)

V14_VOTE_PROMPTS: tuple[str, ...] = (
    # Each seat's private prompt of the stop vote in progress (its message id; NULL: none): after a restart,
    # or on another worker, the prompts are edited as the vote goes on and lose their buttons at its end, as
    # the group's tally does (``vote_msg``). Portable SQL.
    "ALTER TABLE table_seats ADD COLUMN vote_prompt BIGINT CHECK (vote_prompt > 0)",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    V1_GAME_RECORD,  # v1: tables, players, hands and the action log: enough to replay every hand
    V2_SCORES,  # v2: per-player score rows and their indexes, for period leaderboards and player history
    V3_CHAT_TOTALS,  # v3: running all-time sums per chat and player
    V4_BOT_STATE,  # v4: chat, table and seat settings, message ids, open decisions, result delivery
    V5_DISPLAY,  # v5: a chat's display mode (pictures or text)
    V6_GAME_NIGHT,  # v6: rounds and ready, hand codes, shuffle salts, seat stats, ratings, remembered rooms
    V7_WORKERS,  # v7: table leases, timers and workers of a multi-process bot (PostgreSQL)
    V8_SHARED_SENDING,  # v8: a group's last send per table lease, the workers' shared send budget
    V9_OUTBOX,  # v9: one-off messages not sent yet, written with what caused them
    V10_STATELESS_WORKERS,  # v10: no leases; table revs, updates applied, live message guards, group pace
    V11_STOP_VOTE,  # v11: the stop vote in progress (deadline, answers, tally), the room's timeout rule
    V12_AI_LEVEL,  # v12: the AI seats' strength per room
    V13_PRESS_ANSWERS,  # v13: the answer of each press applied, by update id (a press delivered twice)
    V14_VOTE_PROMPTS,  # v14: each seat's private prompt of the stop vote in progress
)
LATEST = len(MIGRATIONS)

# Same derivation as the v2 backfill, for one hand as it finishes (kept separate: the step above is history).
SCORE_ROWS_FOR_HAND = """
    INSERT INTO score_deltas (hand_id, seat, user_id, chat_id, delta, win, ended_at)
    SELECT h.id, d.key, json_extract(h.seats, '$[' || d.key || ']'), t.chat_id, d.value,
           EXISTS (SELECT 1 FROM json_each(h.result, '$.winners') AS w WHERE w.value = d.key),
           h.ended_at
    FROM hands AS h
    JOIN tables AS t ON t.id = h.table_id
    JOIN json_each(h.result, '$.deltas') AS d
    WHERE h.id = ? AND h.ended_at IS NOT NULL AND h.result IS NOT NULL
"""


async def user_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, target: int | None = None) -> int:
    """Apply the missing steps up to ``target`` (default: the latest); returns the version reached.

    The connection must be in autocommit mode (``isolation_level=None``). The version is re-read inside
    each step's write transaction, so two processes opening a fresh file at once do not both apply it.
    """
    if target is None:
        target = len(MIGRATIONS)
    if not 0 <= target <= len(MIGRATIONS):
        raise ValueError(f"no schema version {target}; versions go from 0 to {len(MIGRATIONS)}")
    while True:
        await db.execute("BEGIN IMMEDIATE")
        try:
            current = await user_version(db)
            if current >= target:
                await db.execute("COMMIT")
                return current
            for statement in MIGRATIONS[current]:
                await db.execute(statement)
            await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            await db.execute(f"PRAGMA user_version = {current + 1}")
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
