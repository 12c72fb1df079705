// Purramid advisor page: draws the board (SVG, real brick geometry) and asks /api/advise on every change.
// This page view answers the game "purramid" of GET /api/games (tables.js shows it when that game is picked).
window.gameViews = Object.assign(window.gameViews || {}, { purramid: "purramid-view" });
"use strict";
(function () {
  const U = 64, H = 52, PAD = 8, SVGNS = "http://www.w3.org/2000/svg";
  const st = { board: null, layout: null, covered: new Set(), placed: new Set(), turnDice: 5, diceLeft: 5,
               yarn: 0, objective: "tiles", roll: [], best: null, seq: 0, ticker: null, players: 4, hands: [], others: [],
               winner: 0, gold: 0, goldTiles: 12 };   // winner: 0 nobody, else a player from 1 (the hands' order)
  const $ = (id) => document.getElementById(id);
  const IDS = { alts: "alts", table: "options", summary: "ranking-summary" }, GAME = "purramid";
  const key = (s) => s[0] + "," + s[1];
  const WHO = ["you", "the next player", "the 2nd after you", "the 3rd after you"];

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }
  function fill(select, lo, hi, value) {
    select.innerHTML = "";
    for (let v = lo; v <= hi; v++) {
      const o = document.createElement("option"); o.value = v; o.textContent = v; select.appendChild(o);
    }
    select.value = value;
  }
  function minDice(n) { return Math.ceil(n / 6); }
  function numberAt(k) {
    const s = st.layout.spaces.find((x) => key(x.space) === k); return s ? s.number : 0;
  }
  function placedCost() { let c = 0; st.placed.forEach((k) => { c += minDice(numberAt(k)); }); return c; }

  function draw() {
    const svg = $("board-svg"), L = st.layout;
    svg.innerHTML = "";
    const w = L.width * U + 2 * PAD, h = L.n_rows * H + 2 * PAD;
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    for (const s of L.spaces) {
      const k = key(s.space);
      const x = PAD + s.x * U, y = PAD + (L.n_rows - 1 - s.row) * H, sw = s.width * U;
      const cls = ["space"];
      if (st.covered.has(k)) cls.push("covered");
      if (st.placed.has(k)) cls.push("placed");
      if (st.best && key(st.best) === k) cls.push("best");
      const g = el("g", { class: cls.join(" "), "data-space": k, "data-number": s.number, tabindex: 0,
                          role: "button", "aria-label": `space row ${s.space[0] + 1}, col ${s.space[1] + 1} showing ${s.number}` }, svg);
      el("rect", { class: "face", x: x + 2, y: y + 2, width: sw - 4, height: H - 4, rx: 5 }, g);
      const t = el("text", { class: "num", x: x + sw / 2, y: y + H / 2 }, g); t.textContent = s.number;
      if (s.yarn) {  // an "8": a yarn token lies here at setup
        el("circle", { class: "yarn", cx: x + sw - 13, cy: y + 13, r: 7 }, g);
        el("path", { class: "yarn-line", d: `M${x + sw - 19} ${y + 11} q6 -4 12 2 M${x + sw - 19} ${y + 15} q6 -4 12 2` }, g);
      }
      for (let i = 0; i < s.tiles; i++)  // one bar per cat tile the space takes (10: 2, 12: 3)
        el("rect", { class: "tilemark", x: x + 8, y: y + H - 10 - 5 * i, width: 12, height: 3 }, g);
      if (st.placed.has(k)) el("rect", { class: "die", x: x + sw - 20, y: y + H - 20, width: 12, height: 12, rx: 2 }, g);
      g.addEventListener("click", () => toggle(k));
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggle(k); } });
    }
  }

  function mode() { return document.querySelector('input[name="mode"]:checked').value; }

  function toggle(k) {
    const m = mode(), other = m === "covered" ? st.placed : st.covered, set = st[m];
    if (set.has(k)) set.delete(k); else { set.add(k); other.delete(k); }
    // dice on the board: at least ceil(n/6) per placed space, so fewer dice are left to roll
    const maxLeft = Math.max(0, st.turnDice - placedCost());
    if (st.placed.size === 0) st.diceLeft = st.turnDice;
    else if (st.diceLeft > maxLeft || st.diceLeft === st.turnDice) st.diceLeft = maxLeft;
    st.roll = []; changed();
  }

  function syncControls() {
    fill($("dice-left"), 0, st.turnDice, st.diceLeft);
    $("turn-dice").value = st.turnDice; $("yarn").value = st.yarn;
    $("roll-shown").innerHTML = "";
    st.roll.forEach((v, i) => {
      const c = document.createElement("span"); c.className = "chip"; c.textContent = v; c.title = "remove";
      c.addEventListener("click", () => { st.roll.splice(i, 1); changed(); });
      $("roll-shown").appendChild(c);
    });
    const need = st.diceLeft - st.roll.length;
    if (st.diceLeft > 0 && need > 0 && st.roll.length > 0)
      $("roll-shown").appendChild(document.createTextNode(` (${need} more)`));
    document.querySelectorAll(".die-btn").forEach((b) => { b.disabled = need <= 0; });
  }

  function changed() { st.best = null; window.clearRecommendation(IDS, true, GAME); syncControls(); syncTable(); draw(); ask(); }

  // who has won and their gold tiles (the winner's hand is 0, and only theirs), and every player's score now
  function syncTable() {
    $("winner").value = String(st.winner); $("gold-placed").value = String(st.gold);
    $("gold-placed").disabled = !st.winner;
    st.hands.slice(0, st.players).forEach((v, i) => { $(`hand-${i + 1}`).value = v; });
    const parts = st.hands.slice(0, st.players).map((v, i) => `${WHO[i]} ` + (i + 1 === st.winner
      ? `+${st.gold} (has won: ${st.gold} of ${st.goldTiles} gold tiles placed)` : `\u2212${v}`));
    $("scores").textContent = `Scores now: ${parts.join(" · ")}` +
      (st.winner ? "" : " (nobody has won yet: each tile in hand costs a point)");
  }
  function setWinner(w) {   // the winner's hand is 0; a former winner holds a tile again
    if (st.winner && st.hands[st.winner - 1] === 0) st.hands[st.winner - 1] = 1;
    st.winner = w; if (w) st.hands[w - 1] = 0; else st.gold = 0;
  }

  function body() {
    const b = { layout: st.board, covered: [...st.covered].map((k) => k.split(",").map(Number)),
                placed: [...st.placed].map((k) => k.split(",").map(Number)), dice_left: st.diceLeft,
                turn_dice: st.turnDice, yarn: st.yarn };
    const o = st.objective.split(":");
    b.objective = o.length === 2 ? ["at_least", Number(o[1])] : st.objective === "auto" ? "auto" : "tiles";
    // the race: every player's tiles in hand and yarn tokens, in turn order from the player to move (seat 0)
    if (st.objective === "auto") b.race = { hands: st.hands.slice(0, st.players), seat: 0,
                                            players_yarn: [st.yarn, ...st.others.slice(1, st.players)] };
    if (st.roll.length === st.diceLeft && st.diceLeft > 0) b.roll = st.roll.slice();
    b.winner = st.winner || null; b.gold_placed = st.gold;
    return b;
  }

  const pct = (p) => (100 * p).toFixed(1) + "%";

  async function ask() {
    if (st.roll.length > 0 && st.roll.length < st.diceLeft) {
      window.clearRecommendation(IDS, false, GAME);   // the roll shown says how many dice are missing
      return;
    }
    const seq = ++st.seq;
    // a wait the player can see: the seconds so far, counted on the page between the server's answers
    const waiting = (text, base) => {
      clearInterval(st.ticker);
      const t0 = Date.now(), tick = () => { $("spinner-text").textContent = text(Math.round(base + (Date.now() - t0) / 1000)); };
      tick(); $("spinner").hidden = false; st.ticker = setInterval(tick, 1000);
    };
    const timer = setTimeout(() => waiting((n) => "Solving this board… the first solve of a board prepares the " +
      `exact solver (later answers take milliseconds): preparing the solver: ${n} s so far`, 0), 250);
    let res, data;
    const sent = body();
    try {
      res = await fetch("/api/advise", { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify(sent) });
      data = await res.json();
    } catch (e) {
      res = { ok: false }; data = { error: "the server did not answer: " + e };
    } finally {
      clearTimeout(timer); clearInterval(st.ticker);
    }
    if (seq !== st.seq) return;            // a newer question is on its way
    if (res.status === 503) {              // the server is still warming up the opening board: say so, ask again
      const wait = Math.max(1, Number(res.headers.get("Retry-After")) || 2);
      if (data.warming_seconds !== undefined)
        waiting((n) => "The advisor is warming up (its first solve compiles the exact solver once per machine): " +
                       `preparing the solver: ${n} s so far; asking again every ${wait} s…`, Number(data.warming_seconds) || 0);
      else waiting(() => `The advisor is busy: ${data.error || ""} Asking again in ${wait} s…`, 0);
      document.body.dataset.warming = "1";
      setTimeout(() => { if (seq === st.seq) ask(); }, 1000 * wait);
      return;
    }
    delete document.body.dataset.warming;
    document.body.dataset.answered = JSON.stringify(sent);
    $("spinner").hidden = true;
    if (!res.ok) { showError(data.error || "error"); return; }
    $("error").hidden = true;
    show(data);
  }

  function showError(msg) {
    $("error").textContent = msg; $("error").hidden = false;
    window.clearRecommendation(IDS, false, GAME); $("play-best").hidden = true;
  }

  function show(d) {
    const b = d.best;
    window.showRecommendation(d.recommendation, IDS, GAME);
    $("rec-headline").dataset.action = b.action;
    st.best = b.space; st.bestDice = b.dice.length; draw();
    $("play-best").hidden = !b.space;
    $("race").hidden = !d.race;
    $("race").textContent = d.race ? `Objective from the race (${d.race.objective}): ${d.race.reason}.` : "";
    const od = d.burst_odds;
    $("odds").textContent = od.dice > 0
      ? `Rolling ${od.dice} ${od.dice === 1 ? "die" : "dice"} now: ${pct(od.probability)} chance that no dice sum to an open space's number.`
      : "No dice left to roll.";
    $("note").textContent = `ranked by: ${d.player || "?"}` + (d.player_why ? ` (${d.player_why})` : "") +
      `; objective ${d.objective}; bonus turns valued ${d.bonus}; answered in ${(1000 * d.seconds).toFixed(0)} ms.`;
  }

  function playBest() {
    const b = st.best; if (!b) return;
    st.placed.add(key(b)); st.diceLeft = Math.max(0, st.diceLeft - st.bestDice); st.roll = []; changed();
  }

  // the tiles in hand of every player, in turn order from the player to move (their counts edit the race)
  function handControls() {
    const box = $("hands"), yarnBox = $("others-yarn"); box.innerHTML = ""; yarnBox.innerHTML = "";
    const who = WHO;
    for (let i = 0; i < st.players; i++) {
      const l = document.createElement("label"); l.textContent = `Tiles in hand: ${who[i]} `;
      const inp = document.createElement("input");
      Object.assign(inp, { type: "number", min: 0, max: 36, value: st.hands[i], id: `hand-${i + 1}` });
      inp.addEventListener("change", () => {
        let v = Math.max(0, Math.min(36, Math.round(Number(inp.value)) || 0));
        if (v === 0 && st.winner && st.winner !== i + 1) v = 1;   // a second player out ends the game
        const w = st.winner;
        st.hands[i] = v;
        if (v === 0) setWinner(i + 1); else if (st.winner === i + 1) setWinner(0);
        if (st.objective === "auto" || st.winner !== w) changed(); else syncTable();
      });
      l.appendChild(inp); box.appendChild(l);
      if (i === 0) continue;     // your own yarn tokens: the Yarn control above
      const y = document.createElement("label"); y.textContent = `Yarn tokens: ${who[i]} `;
      const yi = document.createElement("input");
      Object.assign(yi, { type: "number", min: 0, max: 12, value: st.others[i] || 0, id: `yarn-${i + 1}` });
      yi.addEventListener("change", () => {
        const v = Math.max(0, Math.min(12, Math.round(Number(yi.value)) || 0)); yi.value = v;
        st.others[i] = v; if (st.objective === "auto") changed();
      });
      y.appendChild(yi); yarnBox.appendChild(y);
    }
  }

  // a board as set up for the player count (the covered rows of a game of fewer players, the hands)
  async function loadBoard(name) {
    const q = new URLSearchParams({ players: st.players });
    if (name) q.set("name", name);
    const res = await fetch("/api/layout?" + q.toString());
    const L = await res.json();
    if (!res.ok) { showError(L.error); return; }
    st.layout = L; st.board = L.name; st.covered.clear(); st.placed.clear(); st.roll = []; st.diceLeft = st.turnDice;
    // the position file numbers rows and spaces from 1; the board (and the keyword API) from 0
    for (const s of L.position.covered || []) st.covered.add(key([s[0] - 1, s[1] - 1]));
    st.hands = (L.position.player || []).map((p) => p.hand);
    st.others = (L.position.player || []).map((p) => p.yarn || 0);
    st.winner = L.position.winner || 0; st.gold = L.position.gold_placed || 0; st.goldTiles = L.gold_tiles || 12;
    handControls();
    fill($("gold-placed"), 0, st.goldTiles - 1, st.gold);
    const ws = $("winner"); ws.innerHTML = ""; window.h("option", { value: 0 }, ws, "nobody yet");
    for (let i = 0; i < st.players; i++) window.h("option", { value: i + 1 }, ws, `${i + 1}: ${WHO[i].replace("the ", "")}`);
    const sel = $("board"); sel.innerHTML = "";
    for (const b of L.boards) { const o = document.createElement("option"); o.value = b; o.textContent = b; sel.appendChild(o); }
    sel.value = L.name;
    changed();
  }

  function init() {
    fill($("turn-dice"), 1, 5, 5); fill($("yarn"), 0, 12, 0); fill($("dice-left"), 0, 5, 5);
    const db = $("dice-buttons");
    for (let v = 1; v <= 6; v++) {
      const b = document.createElement("button"); b.type = "button"; b.className = "die-btn"; b.textContent = v;
      b.id = "die-" + v; b.setAttribute("aria-label", "add a die showing " + v);
      b.addEventListener("click", () => { if (st.roll.length < st.diceLeft) { st.roll.push(v); changed(); } });
      db.appendChild(b);
    }
    $("board").addEventListener("change", (e) => loadBoard(e.target.value));
    fill($("players"), 2, 4, st.players);
    $("players").addEventListener("change", (e) => { st.players = Number(e.target.value); loadBoard(st.board); });
    $("turn-dice").addEventListener("change", (e) => { st.turnDice = Number(e.target.value); st.placed.clear(); st.diceLeft = st.turnDice; st.roll = []; changed(); });
    $("dice-left").addEventListener("change", (e) => { st.diceLeft = Number(e.target.value); st.roll = []; changed(); });
    $("yarn").addEventListener("change", (e) => { st.yarn = Number(e.target.value); changed(); });
    $("objective").addEventListener("change", (e) => { st.objective = e.target.value; changed(); });
    $("winner").addEventListener("change", (e) => { setWinner(Number(e.target.value)); changed(); });
    $("gold-placed").addEventListener("change", (e) => { st.gold = Number(e.target.value); changed(); });
    $("clear-roll").addEventListener("click", () => { st.roll = []; changed(); });
    $("reset").addEventListener("click", () => { st.placed.clear(); st.diceLeft = st.turnDice; st.roll = []; changed(); });
    $("clear-board").addEventListener("click", () => { st.covered.clear(); st.placed.clear(); st.diceLeft = st.turnDice; st.roll = []; changed(); });
    $("play-best").addEventListener("click", playBest);
    loadBoard(null);
  }
  document.addEventListener("DOMContentLoaded", init);
})();
