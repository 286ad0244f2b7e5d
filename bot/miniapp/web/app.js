"use strict";
// The Mini App's page: one live screen of a mahjong table (bot/miniapp/server.py serves it).
//
// It draws what the stream sends - whole frames built by the server from what this viewer may see
// (bot/miniapp/protocol.py) - and sends what the player does to /api/act, where the table service
// answers it as it answers a button. Nothing here decides a rule: the legal actions, their labels and the
// settlement lines come with the frame; the page only lays them out (zh / en chrome, light / dark from
// Telegram's themeParams), animates a discard, a claim and a win, and buzzes (HapticFeedback) on my turn.
const TILES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh";
const SUITS = "msp";
const HONOURS_EN = ["East", "South", "West", "North", "White", "Green", "Red"];
const UI = {
    connecting: ["连接中……", "Connecting…"],
    reconnecting: ["重新连接中……", "Reconnecting…"],
    wall: ["余 {n}", "Wall {n}"],
    hand: ["第 {n} 局", "Hand {n}"],
    discard: ["打出 {t}", "Discard {t}"],
    tap_again: ["再点一次打出", "Tap again to discard"],
    dealer: ["庄", "Dealer"],
    won: ["胡", "Won"],
    auto: ["托管", "Auto"],
    ready: ["准备", "Ready"],
    is_ready: ["已准备", "Ready ✓"],
    start: ["开始", "Start"],
    next: ["下一局", "Next hand"],
    back: ["我回来了", "I'm back"],
    stop: ["申请解散", "Ask to stop the table"],
    stop_confirm: [
        "申请解散本桌？过半数玩家同意后本桌结束，显示大结算。",
        "Ask to stop this table? It closes, with its final summary, once a majority agree.",
    ],
    stop_agree: ["同意解散本桌？", "Agree to stop this table?"],
    votes: ["{by} 申请解散：同意 {y}/{need}", "{by} asks to stop: {y} of {need} agree"],
    vote_wait: ["⏳ 未表态：{names}", "⏳ Not answered yet: {names}"],
    vote_left: ["⏱ {n} 秒后，未表态的{rule}", "⏱ In {n}s, whoever has not answered {rule}"],
    rule_agree: ["算同意", "counts as agreeing"],
    rule_refuse: ["算拒绝", "counts as refusing"],
    agree: ["同意", "Agree"],
    refuse: ["拒绝", "Refuse"],
    lobby: ["等待开局", "Waiting for the hand"],
    lobby_host: ["等 {name} 开局", "Waiting for {name} to start"],
    ready_left: ["{n} 秒后自动开局", "Next hand in {n}s"],
    spectator: ["观战中", "Watching"],
    closed: ["本桌已结束", "This table is closed"],
    result: ["本局结算", "Hand result"],
    close: ["关闭", "Close"],
    pick: ["选 {k} 张（已选 {n}）", "Pick {k} tiles ({n} picked)"],
    suggested: ["推荐：{tiles}", "Suggested: {tiles}"],
    swap_out: ["换出 {tiles}", "Swap out {tiles}"],
    back_to_table: ["轮到你了：已回到牌桌", "Your turn: back to the table"],
    declared: ["起手 {hands}", "declared {hands}"],
    locked: ["锁牌", "locked"],
    empty: ["空位", "empty"],
    empty_ai: ["空位 · 开局补电脑（{level}）", "empty · AI player ({level})"],
    your_turn: ["轮到你了：点一张牌，再点一次打出", "Your turn: tap a tile, then tap it again to discard"],
    rounds: ["第 {n}/{m} 局", "Hand {n} of {m}"],
    played: ["共 {n} 局", "Hands played: {n}"],
    refused: ["无法打开", "Cannot open"],
    replay: ["回放", "Replay"],
    replay_code: ["输入牌局编号（战绩里的编号）", "A hand's code (from /history)"],
    replay_last: ["回放上一局", "Replay the last hand"],
    replay_other: ["回放其他牌局", "Replay another hand"],
    final: ["大结算", "Final summary"],
    step: ["第 {i}/{n} 步", "Step {i} of {n}"],
};
const tg = window.Telegram?.WebApp;
let lang = (navigator.language || "zh").toLowerCase().startsWith("zh") ? "zh" : "en";
let offset = 0; // server clock - ours, seconds
let frame = null;
let prev = null;
let selected = null; // the hand position picked to discard
let ws = null;
let refused = false;
let retry = 0;
let resultShown = -1; // the hand whose result the player closed
let lastDecision = "";
let lastCode = ""; // the last hand played at this table (lobby frames say), for the menu's replay
let sending = false;
let replaying = null; // the replay viewer's steps while it is open
let replayAt = 0;
function ui(key, vars = {}) {
    const pair = UI[key];
    let text = pair ? pair[lang === "zh" ? 0 : 1] : key;
    for (const [k, v] of Object.entries(vars))
        text = text.split("{" + k + "}").join(String(v));
    return text;
}
function el(tag, cls = "", text = "") {
    const e = document.createElement(tag);
    if (cls)
        e.className = cls;
    if (text)
        e.textContent = text;
    return e;
}
function byId(id) {
    const e = document.getElementById(id);
    if (!e)
        throw new Error(id);
    return e;
}
// points as a signed number, green when won, red when paid
function pointsEl(cls, n) {
    return el("span", cls + (n > 0 ? " plus" : n < 0 ? " minus" : ""), (n > 0 ? "+" : "") + n);
}
function tileOf(ch) {
    return TILES.indexOf(ch);
}
function tileList(s) {
    return s ? Array.from(s).map(tileOf) : [];
}
function tileName(t) {
    // as the chat names a tile in a list (bot/text/render.py tile_short): 五万 / 5m, 中 / Red
    if (t >= 27)
        return lang === "zh" ? "东南西北白发中".charAt(t - 27) : HONOURS_EN[t - 27];
    if (lang === "zh")
        return "一二三四五六七八九".charAt(t % 9) + "万条筒".charAt(Math.floor(t / 9));
    return String((t % 9) + 1) + SUITS.charAt(Math.floor(t / 9));
}
const SVGNS = "http://www.w3.org/2000/svg";
function tileEl(t, size, extra = "") {
    const d = el("div", `tile ${size} ${extra}`.trim());
    if (t === null || t < 0) {
        d.classList.add("back");
        return d;
    }
    d.dataset.t = String(t);
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", "0 0 100 134");
    const use = document.createElementNS(SVGNS, "use");
    use.setAttribute("href", "#f" + t);
    svg.appendChild(use);
    d.appendChild(svg);
    return d;
}
function now() {
    return Date.now() / 1000 + offset;
}
function haptic(kind) {
    const h = tg?.HapticFeedback;
    if (!h)
        return;
    if (kind === "turn")
        h.notificationOccurred("warning");
    else if (kind === "win")
        h.notificationOccurred("success");
    else
        h.impactOccurred("light");
}
function toast(text) {
    const t = byId("toast");
    t.textContent = text;
    t.hidden = false;
    window.clearTimeout(Number(t.dataset.timer || 0));
    t.dataset.timer = String(window.setTimeout(() => (t.hidden = true), 2200));
}
// ------------------------------------------------------------------ the connection
function tableToken() {
    const fromLink = tg?.initDataUnsafe?.start_param;
    if (fromLink)
        return fromLink;
    return new URLSearchParams(location.search).get("t") || "";
}
function connect() {
    if (refused)
        return;
    const url = new URL("ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const sock = new WebSocket(url.toString());
    ws = sock;
    sock.onopen = () => {
        sock.send(JSON.stringify({
            op: "hello",
            init: tg?.initData || "",
            t: tableToken(),
            vis: document.visibilityState === "visible",
        }));
    };
    sock.onmessage = (ev) => {
        retry = 0;
        onFrame(JSON.parse(String(ev.data)));
    };
    sock.onclose = () => {
        if (ws !== sock)
            return;
        ws = null;
        if (refused)
            return;
        document.body.classList.add("offline");
        byId("toast").textContent = ui("reconnecting");
        const wait = Math.min(5000, 300 * 2 ** retry++);
        window.setTimeout(connect, wait);
    };
}
function onFrame(f) {
    if (f.k === "hi") {
        offset = f.now - Date.now() / 1000;
        lang = f.lang;
        document.body.classList.remove("offline");
        return;
    }
    if (f.k === "refused") {
        refused = true;
        showRefusal(f.text);
        return;
    }
    if (f.k === "pong")
        return;
    if (f.k === "final") {
        showFinal(f.text);
        return;
    }
    document.body.classList.remove("offline");
    lang = f.lang;
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    if (f.k === "hand") {
        prev = frame && frame.k === "hand" ? frame : null;
        if (!prev || prev.hid !== f.hid || !f.dec || !prev.dec || prev.dec.since !== f.dec.since)
            selected = null;
    }
    const asked = f.k === "hand" && f.dec && (!prev || !prev.dec || prev.dec.since !== f.dec.since);
    frame = f;
    if (replaying && asked) {
        // his turn while he watches a replay: back to the table, or his clock runs out unseen
        closeReplay();
        toast(ui("back_to_table"));
        return;
    }
    if (!replaying)
        render();
}
async function send(op, extra = {}) {
    if (!frame || sending)
        return;
    sending = true;
    document.body.classList.add("busy");
    try {
        const resp = await fetch("api/act", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ op, init: tg?.initData || "", t: tableToken(), ...extra }),
        });
        const answer = (await resp.json());
        if (!answer.ok)
            toast(answer.text);
    }
    catch {
        toast(ui("reconnecting"));
    }
    finally {
        sending = false;
        document.body.classList.remove("busy");
    }
}
function act(i) {
    if (!frame || frame.k !== "hand" || !frame.dec)
        return;
    haptic("tap");
    selected = null;
    void send("act", { hid: frame.dec.hid, since: frame.dec.since, i });
}
// ------------------------------------------------------------------ drawing
function position(seat, me, n) {
    const rel = (seat - me + n) % n;
    if (n === 2)
        return rel === 0 ? "bottom" : "top";
    if (n === 3)
        return ["bottom", "right", "left"][rel];
    return ["bottom", "right", "top", "left"][rel];
}
function meldTiles(m) {
    const t = tileOf(m[1]);
    if (m[0] === 0)
        return [t, t + 1, t + 2];
    if (m[0] === 1)
        return [t, t, t];
    return [t, t, t, t];
}
function meldsEl(melds, hidden, size) {
    const box = el("div", "melds");
    for (const m of melds) {
        const g = el("div", "meld");
        const ts = meldTiles(m);
        ts.forEach((t, i) => g.appendChild(tileEl(m[0] === 4 && (i === 0 || i === 3) ? null : t, size)));
        box.appendChild(g);
    }
    for (let k = 0; k < hidden; k++) {
        const g = el("div", "meld");
        for (let i = 0; i < 4; i++)
            g.appendChild(tileEl(null, size));
        box.appendChild(g);
    }
    return box;
}
function marks(f, seat) {
    const out = [];
    const s = f.seats[seat];
    if (seat === f.dealer)
        out.push(ui("dealer"));
    if (s.c)
        out.push(s.c);
    if (s.dec)
        out.push(ui("declared", { hands: s.dec }));
    if (s.lk && !(s.won || s.w))
        out.push(ui("locked"));
    if (s.won || s.w)
        out.push(ui("won") + (s.w && s.w > 1 ? "×" + s.w : ""));
    if (f.auto && f.auto.includes(seat))
        out.push(ui("auto"));
    return out;
}
function seatEl(f, seat, pos) {
    const box = byId("seat-" + pos);
    box.replaceChildren();
    box.className = "seat " + (pos === "left" || pos === "right" ? "side " : "") + pos;
    const s = f.seats[seat];
    const head = el("div", "name");
    if (f.cur === seat && f.ph !== "ended")
        head.classList.add("turn");
    if (f.clock && f.clock[0].includes(seat))
        head.classList.add("clocked");
    head.appendChild(el("span", "who", f.names[seat] || "?"));
    for (const m of marks(f, seat))
        head.appendChild(el("span", "mark", m));
    if (f.deltas)
        head.appendChild(pointsEl("delta", f.deltas[seat]));
    box.appendChild(head);
    const mine = f.me !== null && seat === f.me;
    if (!mine) {
        const row = el("div", "hidden-hand");
        if (s.h) {
            for (const t of tileList(s.h))
                row.appendChild(tileEl(t, "xs"));
        }
        else {
            const shown = s.r ? tileList(s.r) : []; // 起手小胡's tiles, face up while they are in his hand
            for (const t of shown)
                row.appendChild(tileEl(t, "xs", "shown"));
            if (s.n > shown.length) {
                row.appendChild(tileEl(null, "xs"));
                row.appendChild(el("span", "count", "×" + (s.n - shown.length)));
            }
        }
        box.appendChild(row);
        box.appendChild(meldsEl(s.m, s.ck || 0, "xs"));
    }
    const river = el("div", "river");
    const ds = tileList(s.d);
    ds.forEach((t, i) => {
        const last = f.last && f.last[0] === seat && i === ds.length - 1;
        const isNew = last && (!prev || prev.hid !== f.hid || (prev.seats[seat]?.d.length ?? 0) < ds.length);
        river.appendChild(tileEl(t, "xs", (last ? "last " : "") + (isNew ? "drop" : "")));
    });
    box.appendChild(river);
}
function renderHand(f) {
    document.body.dataset.view = "hand";
    byId("title").textContent = `${f.title} · #${f.tid} · ${ui("hand", { n: f.no })}`;
    byId("wall").textContent = ui("wall", { n: f.wall });
    const n = f.seats.length;
    const me = f.me ?? 0;
    for (const pos of ["top", "left", "right", "bottom"]) {
        const b = byId("seat-" + pos);
        b.replaceChildren();
        b.className = "seat empty " + pos;
    }
    for (let s = 0; s < n; s++)
        seatEl(f, s, position(s, me, n));
    // the centre: the tile others may claim (or the last discard), 开杠's tiles, the wall
    const c = byId("center");
    c.replaceChildren();
    if (f.claim) {
        c.appendChild(tileEl(tileOf(f.claim[1]), "m", "claim pulse"));
        c.appendChild(el("div", "from", f.names[f.claim[0]]));
    }
    else if (f.last) {
        c.appendChild(tileEl(tileOf(f.last[1]), "m", "lastbig"));
        c.appendChild(el("div", "from", f.names[f.last[0]]));
    }
    if (f.kt) {
        const row = el("div", "kong-tiles");
        for (const t of tileList(f.kt))
            row.appendChild(tileEl(t, "s"));
        c.appendChild(row);
    }
    if (f.vote)
        c.appendChild(voteEl(f.vote));
    byId("recent").textContent = (f.recent || []).slice(-2).join(" · ");
    byId("note").textContent = f.note || "";
    renderMine(f);
    renderActions(f);
    // three options or more (起手小胡's declarations, a claim with several ways): the felt gives up room so
    // that every one is on screen (the Discard button a selected tile brings does not count: the hand must
    // not jump between the two taps of a discard)
    document.body.classList.toggle("many", byId("actions").querySelectorAll(".big:not(.discard)").length >= 3);
    renderResult(f);
    const key = f.dec ? `${f.dec.hid}/${f.dec.since}` : "";
    document.body.dataset.dec = key; // what the page waits on (and the browser tests with it)
    document.body.dataset.hid = String(f.hid);
    if (key && key !== lastDecision)
        haptic("turn");
    lastDecision = key;
    const prevWinners = prev && prev.hid === f.hid ? prev.seats.filter((s) => s.won || s.w).length : 0;
    if (f.seats.filter((s) => s.won || s.w).length > prevWinners) {
        haptic("win");
        document.body.classList.remove("winflash");
        void document.body.offsetWidth;
        document.body.classList.add("winflash");
    }
    tick();
}
function fullHand(f) {
    const all = tileList(f.hand);
    if (f.drawn)
        all.push(tileOf(f.drawn));
    return all.sort((a, b) => a - b);
}
function renderMine(f) {
    const melds = byId("my-melds");
    const hand = byId("my-hand");
    melds.replaceChildren();
    hand.replaceChildren();
    if (f.me === null) {
        hand.appendChild(el("div", "spectator", replaying ? ui("replay") : ui("spectator")));
        return;
    }
    const me = f.seats[f.me];
    melds.appendChild(meldsEl(me.m, 0, "s"));
    const dec = f.dec;
    if (dec && dec.pick) {
        // a pick-tiles choice (换三张): tap tiles to pick or put back, then confirm
        const all = fullHand(f);
        const picked = new Set(dec.picked || []);
        const can = new Set(dec.can || []);
        all.forEach((t, i) => {
            const d = tileEl(t, "h", (picked.has(i) ? "picked " : "") + (can.has(i) ? "can" : "dim"));
            if (can.has(i))
                d.onclick = () => void send("pick", { hid: dec.hid, since: dec.since, i });
            hand.appendChild(d);
        });
        return;
    }
    const discards = new Map(); // tile -> action index
    (dec?.acts || []).forEach((a, i) => {
        if (a[0] === "discard" && a[1])
            discards.set(tileOf(a[1]), i);
    });
    const tiles = tileList(f.hand);
    const drawn = f.drawn ? tileOf(f.drawn) : null;
    const list = tiles.map((t) => [t, false]);
    if (drawn !== null)
        list.push([drawn, true]);
    list.forEach(([t, isDrawn], pos) => {
        const can = discards.has(t);
        const d = tileEl(t, "h", (isDrawn ? "drawn " : "") + (can ? "can " : "") + (selected === pos ? "sel" : ""));
        if (dec && dec.acts && !can && discards.size)
            d.classList.add("dim");
        if (can) {
            d.onclick = () => {
                if (selected === pos) {
                    act(discards.get(t));
                }
                else {
                    selected = pos;
                    haptic("tap");
                    render();
                }
            };
        }
        hand.appendChild(d);
    });
}
function button(label, cls, onclick, into) {
    const b = el("button", "big " + cls, label);
    b.type = "button";
    b.onclick = onclick;
    if (into)
        into.appendChild(b);
    return b;
}
// a stop vote in progress: its tally, and agree / refuse for a seated player who has not answered
// the seconds left in a stop vote, and how a silence counts then
function voteLeft(e) {
    const n = Math.max(0, Math.round(Number(e.dataset.until) - now()));
    e.textContent = ui("vote_left", { n, rule: ui(e.dataset.rule || "rule_refuse") });
}
function voteEl(v) {
    const d = el("div", "votes", ui("votes", { by: v.by, y: v.yes.length, need: v.need }));
    const names = v.wait.join(lang === "zh" ? "、" : ", ");
    if (v.wait.length)
        d.appendChild(el("div", "vote-wait", ui("vote_wait", { names })));
    const left = el("div", "vote-left", "");
    left.dataset.until = String(v.until);
    left.dataset.rule = v.sa ? "rule_agree" : "rule_refuse";
    voteLeft(left);
    d.appendChild(left);
    if (v.can) {
        for (const [key, agree] of [["agree", 1], ["refuse", 0]]) {
            const b = el("button", "big vote " + key, ui(key));
            b.type = "button";
            b.onclick = () => void send("vote", { vote: v.n, agree });
            d.appendChild(b);
        }
    }
    return d;
}
function renderActions(f) {
    const box = byId("actions");
    box.replaceChildren();
    const dec = f.dec;
    if (f.me !== null && f.auto && f.auto.includes(f.me) && f.ph !== "ended") {
        box.appendChild(button(ui("back"), "back", () => void send("back")));
    }
    if (!dec) {
        if (f.turn && f.ph !== "ended")
            box.appendChild(el("div", "hint", f.turn)); // whom the table waits for
        return;
    }
    if (dec.pick) {
        if (dec.ask)
            box.appendChild(el("div", "hint ask", dec.ask)); // 换三张: which tiles, where they go
        box.appendChild(el("div", "hint", ui("pick", { k: dec.pick, n: (dec.picked || []).length })));
        if (dec.done) {
            const i = dec.done[0];
            box.appendChild(button(ui("swap_out", { tiles: dec.done[1] }), "confirm", () => act(i)));
        }
        if (dec.sug) {
            const i = dec.sug[0];
            box.appendChild(button(ui("suggested", { tiles: dec.sug[1] }), "suggest", () => act(i)));
        }
        return;
    }
    const acts = dec.acts || [];
    if (dec.ask)
        box.appendChild(el("div", "hint ask", dec.ask)); // a claim, a choice, or a turn with a reason
    acts.forEach((a, i) => {
        if (a[0] === "discard")
            return;
        const kind = a[0] === "win" ? "win" : a[0] === "pass" ? "pass" : "claim";
        button(a[2], kind, () => act(i), box).dataset.act = a[0];
    });
    if (selected !== null) {
        const all = tileList(f.hand);
        if (f.drawn)
            all.push(tileOf(f.drawn));
        const t = all[selected];
        const i = acts.findIndex((a) => a[0] === "discard" && tileOf(a[1]) === t);
        if (i >= 0)
            box.appendChild(button(ui("discard", { t: tileName(t) }), "discard", () => act(i)));
    }
    else if (acts.some((a) => a[0] === "discard") && f.me !== null) {
        box.appendChild(el("div", "hint", ui("your_turn")));
    }
}
function renderResult(f) {
    const o = byId("overlay");
    if (f.ph !== "ended" || !f.result || resultShown === f.hid) {
        if (o.dataset.kind === "result")
            o.hidden = true;
        return;
    }
    o.replaceChildren();
    o.dataset.kind = "result";
    const card = el("div", "card result");
    card.appendChild(el("h2", "", ui("result") + " · " + ui("hand", { n: f.no })));
    const hands = el("div", "hands");
    f.seats.forEach((s, i) => {
        const row = el("div", "hand-row");
        row.appendChild(el("span", "who", f.names[i]));
        const wins = (f.wt || []).filter((w) => w[0] === i).map((w) => tileOf(w[1]));
        for (const t of tileList(s.h))
            row.appendChild(tileEl(t, "xs"));
        row.appendChild(meldsEl(s.m, 0, "xs"));
        for (const t of wins)
            row.appendChild(tileEl(t, "xs", "winning"));
        if (f.deltas)
            row.appendChild(pointsEl("delta", f.deltas[i]));
        hands.appendChild(row);
    });
    card.appendChild(hands);
    const lines = el("pre", "lines");
    lines.textContent = f.result.join("\n");
    card.appendChild(lines);
    card.appendChild(button(ui("close"), "close", () => {
        resultShown = f.hid;
        o.hidden = true;
    }));
    o.appendChild(card);
    o.hidden = false;
}
function renderLobby(f) {
    if (f.lc)
        lastCode = f.lc;
    document.body.dataset.view = f.closed ? "closed" : "lobby";
    document.body.classList.remove("many");
    document.body.dataset.dec = "";
    byId("title").textContent = `${f.title} · #${f.tid}`;
    byId("wall").textContent = f.closed
        ? ui("played", { n: f.played })
        : f.rounds
            ? ui("rounds", { n: f.played + 1, m: f.rounds })
            : "";
    for (const pos of ["top", "left", "right", "bottom"]) {
        const b = byId("seat-" + pos);
        b.replaceChildren();
        b.className = "seat empty " + pos;
    }
    const c = byId("center");
    c.replaceChildren();
    const waiting = f.hn && !f.until ? ui("lobby_host", { name: f.hn }) : ui("lobby");
    c.appendChild(el("div", "lobby-title", f.closed ? ui("closed") : waiting));
    const list = el("ol", "lobby-seats");
    f.names.forEach((name, i) => {
        const empty = f.ai ? ui("empty_ai", { level: f.ai }) : ui("empty");
        const li = el("li", f.ready.includes(i) ? "ready" : name ? "" : "empty", name || empty);
        if (f.ready.includes(i))
            li.appendChild(el("span", "mark", "✓"));
        if (f.pts && name)
            li.appendChild(pointsEl("pts", f.pts[i]));
        list.appendChild(li);
    });
    c.appendChild(list);
    if (f.vote)
        c.appendChild(voteEl(f.vote));
    byId("recent").textContent = "";
    byId("note").textContent = "";
    byId("my-melds").replaceChildren();
    const hand = byId("my-hand");
    hand.replaceChildren();
    if (f.summary) {
        const pre = el("pre", "summary");
        pre.textContent = f.summary;
        hand.appendChild(pre);
    }
    const box = byId("actions");
    box.replaceChildren();
    readyEls(f).forEach((e) => box.appendChild(e));
    if (!f.closed && f.host) {
        box.appendChild(button(f.played ? ui("next") : ui("start"), "start", () => void send("start")));
    }
    if (frame && frame.k === "lobby") {
        const o = byId("overlay");
        if (o.dataset.kind === "result" && prev && resultShown !== prev.hid) {
            // the hand's result stays until closed, with Ready and the time left on it: reading it must not
            // cost the player the next hand (at the time's end a player not ready is played for)
            const card = o.querySelector(".card.result");
            const row = el("div", "ready-row");
            readyEls(f).forEach((e) => row.appendChild(e));
            card?.querySelector(".ready-row")?.remove();
            if (row.childElementCount)
                card?.insertBefore(row, card.querySelector(".big.close"));
        }
        else if (o.dataset.kind === "result") {
            o.hidden = true;
        }
    }
    tick();
}
// Ready (or "Ready ✓") and the time left before the next hand starts by itself, while the room waits for it
function readyEls(f) {
    if (f.closed || f.me === null || !f.until)
        return [];
    const out = [];
    if (!f.ready.includes(f.me))
        out.push(button(ui("ready"), "ready", () => void send("ready")));
    else
        out.push(el("div", "hint", ui("is_ready")));
    out.push(el("div", "hint ready-left", ""));
    return out;
}
// Telegram's own dialog where the client has it (6.2 and later; older ones throw), else the browser's
function confirmThen(text, then) {
    if (tg?.showConfirm && (!tg.isVersionAtLeast || tg.isVersionAtLeast("6.2"))) {
        try {
            tg.showConfirm(text, (ok) => ok && then());
            return;
        }
        catch {
            // an older client: the browser's dialog below
        }
    }
    if (window.confirm(text))
        then();
}
function showRefusal(text) {
    const o = byId("overlay");
    if (o.dataset.kind === "final" && !o.hidden) {
        document.body.dataset.view = "closed"; // a closed room's 大结算 stays: it says more than "closed"
        return;
    }
    document.body.dataset.view = "refused";
    o.replaceChildren();
    o.dataset.kind = "refused";
    const card = el("div", "card refused");
    card.appendChild(el("h2", "", ui("refused")));
    card.appendChild(el("p", "", text));
    o.appendChild(card);
    o.hidden = false;
}
function showFinal(text) {
    const o = byId("overlay");
    o.replaceChildren();
    o.dataset.kind = "final";
    const card = el("div", "card final");
    card.appendChild(el("h2", "", ui("final")));
    const pre = el("pre", "lines");
    pre.textContent = text;
    card.appendChild(pre);
    card.appendChild(button(ui("close"), "close", () => (o.hidden = true)));
    o.appendChild(card);
    o.hidden = false;
}
// ------------------------------------------------------------------ the replay viewer
async function openReplay(code) {
    const resp = await fetch("api/replay?code=" + encodeURIComponent(code), {
        headers: { "X-Init-Data": tg?.initData || "" },
    });
    const answer = (await resp.json());
    if (!answer.ok || !answer.steps || !answer.steps.length) {
        toast(answer.text || "?");
        return;
    }
    replaying = answer.steps;
    replayAt = 0;
    document.body.classList.add("replaying");
    showStep();
}
function showStep() {
    if (!replaying)
        return;
    const f = replaying[replayAt];
    prev = replayAt > 0 ? replaying[replayAt - 1] : null;
    resultShown = replayAt === replaying.length - 1 ? -1 : f.hid;
    renderHand(f);
    byId("wall").textContent = ui("step", { i: replayAt, n: replaying.length - 1 });
    byId("recent").textContent = (f.recent || []).join(" · ");
    const box = byId("actions");
    box.replaceChildren();
    const go = (i) => () => {
        replayAt = Math.max(0, Math.min(replaying ? replaying.length - 1 : 0, i));
        showStep();
    };
    box.appendChild(button("«", "step", go(0)));
    box.appendChild(button("‹", "step", go(replayAt - 1)));
    box.appendChild(button("›", "step", go(replayAt + 1)));
    box.appendChild(button("»", "step", go(replaying.length - 1)));
    box.appendChild(button(ui("close"), "pass", closeReplay));
}
function closeReplay() {
    replaying = null;
    prev = null;
    document.body.classList.remove("replaying");
    byId("overlay").hidden = true;
    render();
}
function renderMenu() {
    const m = byId("menu");
    m.replaceChildren();
    if (lastCode) {
        m.appendChild(button(ui("replay_last"), "replay last", () => {
            m.hidden = true;
            void openReplay(lastCode);
        }));
    }
    m.appendChild(button(ui(lastCode ? "replay_other" : "replay"), "replay", () => {
        m.hidden = true;
        const code = window.prompt(ui("replay_code"));
        if (code)
            void openReplay(code.trim());
    }));
    const f = frame;
    if (f && f.k === "hand" && f.me !== null && f.ph !== "ended" && !(f.auto || []).includes(f.me)) {
        m.appendChild(button(ui("auto"), "auto", () => {
            m.hidden = true;
            void send("auto");
        }));
    }
    if (frame && frame.me !== null && !(frame.k === "lobby" && frame.closed)) {
        m.appendChild(button(ui("stop"), "stop", () => {
            m.hidden = true;
            // a vote in progress: the same item agrees to it
            confirmThen(ui(frame && frame.vote ? "stop_agree" : "stop_confirm"), () => void send("stop"));
        }));
    }
}
function render() {
    if (!frame)
        return;
    if (frame.k === "hand")
        renderHand(frame);
    else
        renderLobby(frame);
    renderMenu();
}
function tick() {
    const c = byId("clock");
    if (!frame || replaying)
        return;
    document.querySelectorAll(".vote-left").forEach(voteLeft);
    let until;
    if (frame.k === "hand")
        until = frame.dec ? frame.dec.dl : frame.clock ? frame.clock[1] : undefined;
    else
        until = frame.closed ? undefined : frame.until;
    if (until === undefined || (frame.k === "hand" && frame.ph === "ended")) {
        c.textContent = "";
        return;
    }
    const left = Math.max(0, Math.round(until - now()));
    c.textContent = String(left);
    c.classList.toggle("low", left <= 10);
    if (frame.k === "lobby") {
        document.querySelectorAll(".ready-left").forEach((e) => (e.textContent = ui("ready_left", { n: left })));
    }
}
function init() {
    tg?.ready();
    tg?.expand();
    if (tg?.colorScheme === "dark")
        document.body.classList.add("dark");
    byId("toast").textContent = ui("connecting");
    byId("menu-btn").onclick = () => {
        const m = byId("menu");
        m.hidden = !m.hidden;
    };
    // a tap anywhere else closes the menu, as menus do
    document.addEventListener("click", (e) => {
        const m = byId("menu");
        const t = e.target;
        if (!m.hidden && t && !m.contains(t) && !byId("menu-btn").contains(t))
            m.hidden = true;
    });
    document.addEventListener("visibilitychange", () => {
        if (ws && ws.readyState === WebSocket.OPEN) {
            ws.send(JSON.stringify({ op: "vis", on: document.visibilityState === "visible" }));
        }
    });
    window.setInterval(tick, 1000);
    connect();
}
init();
