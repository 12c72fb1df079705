// Purramid advisor page: draws the board (SVG, real brick geometry) and asks /api/advise on every change.
// This page view answers the game "purramid" of GET /api/games (tables.js shows it when that game is picked).
window.gameViews = Object.assign(window.gameViews || {}, { purramid: "purramid-view" });
"use strict";
(function () {
  const U = 64, H = 52, PAD = 8, SVGNS = "http://www.w3.org/2000/svg";
  const st = { board: null, layout: null, covered: new Set(), placed: new Set(), turnDice: 5, diceLeft: 5,
               yarn: 0, objective: "tiles", roll: [], best: null, seq: 0, ticker: null };
  const $ = (id) => document.getElementById(id);
  const key = (s) => s[0] + "," + s[1];

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

  function changed() { st.best = null; syncControls(); draw(); ask(); }

  function body() {
    const b = { layout: st.board, covered: [...st.covered].map((k) => k.split(",").map(Number)),
                placed: [...st.placed].map((k) => k.split(",").map(Number)), dice_left: st.diceLeft,
                turn_dice: st.turnDice, yarn: st.yarn };
    const o = st.objective.split(":");
    b.objective = o.length === 2 ? ["at_least", Number(o[1])] : "tiles";
    if (st.roll.length === st.diceLeft && st.diceLeft > 0) b.roll = st.roll.slice();
    return b;
  }

  const pct = (p) => (100 * p).toFixed(1) + "%";
  const fmt = (v) => st.objective === "tiles" ? v.toFixed(3) : pct(v);

  async function ask() {
    if (st.roll.length > 0 && st.roll.length < st.diceLeft) {
      $("verdict").textContent = `Enter ${st.diceLeft - st.roll.length} more dice of the roll.`;
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
    $("options").querySelector("tbody").innerHTML = ""; $("verdict").textContent = ""; $("play-best").hidden = true;
  }

  function show(d) {
    const tb = $("options").querySelector("tbody"); tb.innerHTML = "";
    d.options.forEach((o, i) => {
      const tr = document.createElement("tr");
      const cells = [i + 1, o.action, fmt(o.value), pct(o.burst_probability), fmt(o.regret), o.then || ""];
      cells.forEach((c, j) => {
        const td = document.createElement("td"); td.textContent = c; if (j >= 2 && j <= 4) td.className = "n";
        tr.appendChild(td);
      });
      tb.appendChild(tr);
    });
    const b = d.best, v = $("verdict");
    v.innerHTML = "";
    const add = (text, cls) => { const s = document.createElement("span"); s.textContent = text; if (cls) s.className = cls; v.appendChild(s); };
    if (b.space) {
      add(`Best: put ${b.dice.join("+")} on the ${b.number} (row ${b.space[0] + 1}, col ${b.space[1] + 1}), then `);
      add(b.then === "continue" ? "roll on" : b.then === "stop" ? "stop" : "the turn is lost (burst)", b.then);
      add(".");
    } else if (b.action === "stop" || b.action === "continue") {
      add("Best: "); add(b.action === "stop" ? "stop now" : "roll the dice left", b.action); add(".");
    } else if (b.action === "reroll") add("Best: spend a yarn token to reroll.");
    else add("Burst: no placement fits this roll.", "stop");
    v.dataset.action = b.action;
    st.best = b.space; st.bestDice = b.dice.length; draw();
    $("play-best").hidden = !b.space;
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

  async function loadBoard(name) {
    const res = await fetch("/api/layout" + (name ? "?name=" + encodeURIComponent(name) : ""));
    const L = await res.json();
    if (!res.ok) { showError(L.error); return; }
    st.layout = L; st.board = L.name; st.covered.clear(); st.placed.clear(); st.roll = []; st.diceLeft = st.turnDice;
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
    $("turn-dice").addEventListener("change", (e) => { st.turnDice = Number(e.target.value); st.placed.clear(); st.diceLeft = st.turnDice; st.roll = []; changed(); });
    $("dice-left").addEventListener("change", (e) => { st.diceLeft = Number(e.target.value); st.roll = []; changed(); });
    $("yarn").addEventListener("change", (e) => { st.yarn = Number(e.target.value); changed(); });
    $("objective").addEventListener("change", (e) => { st.objective = e.target.value; changed(); });
    $("clear-roll").addEventListener("click", () => { st.roll = []; changed(); });
    $("reset").addEventListener("click", () => { st.placed.clear(); st.diceLeft = st.turnDice; st.roll = []; changed(); });
    $("clear-board").addEventListener("click", () => { st.covered.clear(); st.placed.clear(); st.diceLeft = st.turnDice; st.roll = []; changed(); });
    $("play-best").addEventListener("click", playBest);
    loadBoard(null);
  }
  document.addEventListener("DOMContentLoaded", init);
})();
