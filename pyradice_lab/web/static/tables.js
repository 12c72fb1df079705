// The table companion's game picker and table view.  The games come from GET /api/games (the server's registry);
// a game with a page view of its own (window.gameViews, e.g. advisor.js) shows that view; Meerkat Kingdom, Rocking
// Raft and Pyradice draw their table as SVG from GET /api/<game>/layout, let the position be set by clicking, and
// ask POST /api/<game>/advise with the position document (the format of the game's position files) on every
// change; any other game gets its position document to edit as JSON (the same layout and advise endpoints).
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const COLOURS = { r: "#d32f2f", y: "#f2c12e", g: "#2e7d32", b: "#1e5bc6", k: "#222", R: "#d32f2f", Y: "#f2c12e",
                    B: "#1e5bc6", K: "#222" };
  const st = { game: null, seq: 0, data: {}, best: null, answer: null, titles: {}, ticker: null };
  const IDS = { alts: "table-alts", table: "table-options", summary: "table-ranking-summary" };

  function el(name, attrs, parent, text) {
    const e = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  const h = window.h;      // recommend.js's element helper
  function select(id, label, options, value, parent, onchange) {
    const l = h("label", {}, parent, label + " ");
    const s = h("select", { id }, l);
    for (const [v, t] of options) h("option", { value: v }, s, t);
    s.value = String(value);
    s.addEventListener("change", () => onchange(s.value));
    return s;
  }
  function button(id, text, parent, onclick) {
    const b = h("button", { id, type: "button" }, parent, text);
    b.addEventListener("click", onclick);
    return b;
  }
  function clickable(g, fn) {
    g.setAttribute("tabindex", 0); g.setAttribute("role", "button");
    g.addEventListener("click", fn);
    g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(ev); } });
  }

  // ------------------------------------------------------------------------------------------ asking
  // a wait the player can see: the seconds so far, counted on the page between the server's answers
  function waiting(text, base) {
    clearInterval(st.ticker);
    const t0 = Date.now(), show = () => {
      $("table-spinner-text").textContent = text(Math.round(base + (Date.now() - t0) / 1000));
    };
    show(); $("table-spinner").hidden = false;
    st.ticker = setInterval(show, 1000);
  }
  async function ask() {
    const G = GAMES[st.game], seq = ++st.seq, sent = G.body();
    const timer = setTimeout(() => waiting((n) => n < 2 ? "Thinking…" : `Thinking… ${n} s so far`, 0), 250);
    let res, data;
    try {
      res = await fetch(`/api/${st.game}/advise`, { method: "POST", headers: { "Content-Type": "application/json" },
                                                   body: JSON.stringify(sent) });
      data = await res.json();
    } catch (e) {
      res = { ok: false }; data = { error: "the server did not answer: " + e };
    } finally { clearTimeout(timer); clearInterval(st.ticker); }
    if (seq !== st.seq) return;
    if (res.status === 503) {              // the game's engine is still compiling (or busy): say so, ask again
      const wait = Math.max(1, Number(res.headers.get("Retry-After")) || 2);
      if (data.warming_seconds !== undefined)
        waiting((n) => `The advisor is warming up (compiling ${G.title}'s engine once per machine): ` +
                       `preparing the solver: ${n} s so far; asking again every ${wait} s…`,
                Number(data.warming_seconds) || 0);
      else waiting(() => `The advisor is busy: ${data.error || ""} Asking again in ${wait} s…`, 0);
      document.body.dataset.warming = "1";
      setTimeout(() => { if (seq === st.seq) ask(); }, 1000 * wait);
      return;
    }
    delete document.body.dataset.warming;
    $("table-spinner").hidden = true;
    document.body.dataset.tableGame = st.game;
    document.body.dataset.tableAnswered = JSON.stringify(sent);
    if (!res.ok) { showError(data.error || "error"); return; }
    $("table-error").hidden = true;
    st.answer = data; st.best = data.best;
    showOptions(G, data); G.draw();
  }
  function showError(msg) {
    $("table-error").textContent = msg; $("table-error").hidden = false;
    window.clearRecommendation(IDS, false, st.game);
    $("table-play").hidden = true; st.best = null;
    if (GAMES[st.game].layout) GAMES[st.game].draw();
  }
  function showOptions(G, d) {
    window.showRecommendation(d.recommendation, IDS, st.game);
    $("rec-headline").dataset.option = d.best.option;
    $("table-note").textContent = `ranked by: ${d.player || "?"}` + (d.player_why ? ` (${d.player_why})` : "") +
      `; value: ${d.objective}; answered in ${(1000 * d.seconds).toFixed(0)} ms.` +
      (d.moves ? ` ${d.moves} moves, the ${d.candidates} best sampled ${d.samples} times each (seed ${d.seed}).` : "");
    $("table-play").hidden = !G.play;
  }

  // ------------------------------------------------------------------------------------------ Meerkat
  const Meerkat = {
    title: "Meerkat Kingdom",
    sub: "Click a tile to put a meerkat of the chosen seat on it (or take one off, move the queen or the male " +
         "there, or set its oasis token); click a die to turn it; the seat's guardians, pups, bonus points and " +
         "lost meerkats are under its line. The advisor ranks the reroll or the action.",
    legend: "Each tile: its number, its majority values, the meerkats of every seat (Q: the queen).",
    layout: null, doc: null, seat: 0, mode: "add", objective: "margin", token: "",
    stages: [["reroll", "the reroll"], ["action", "the action"]],
    controls(c) {
      const seats = this.doc.seat.map((s, i) => [i, i < this.doc.players ? `p${i + 1}` : "automa"]);
      select("mk-seat", "Seat", seats, this.seat, c, (v) => { this.seat = Number(v); this.refreshSeat(); });
      select("mk-mode", "Click", [["add", "adds a meerkat"], ["remove", "removes a meerkat"], ["queen", "moves the queen"],
                                  ["male", "moves the male"], ["token", "sets the oasis token"]],
             this.mode, c, (v) => { this.mode = v; });
      select("mk-token", "Token", [["", "none (takes it off)"], ...this.layout.tokens.map((x) => [x, x])], this.token, c,
             (v) => { this.token = v; });
      this.seatControls(c);
      select("mk-stage", "Decision", [["reroll", "reroll (keep which dice?)"], ["action", "action (reroll done)"]],
             this.doc.stage, c, (v) => { this.doc.stage = v; changed(); });
      select("mk-objective", "Objective", [["margin", "points margin"], ["points", "own points"]], this.objective, c,
             (v) => { this.objective = v; changed(); });
    },
    body() { return { position: this.doc, objective: this.objective }; },
    // the chosen seat's guardians in reserve, pups, bonus points and meerkats lost (the supply pays for the
    // reserve and the lost ones: every seat's 20 meerkats stay accounted for; the server checks the rest)
    seatControls(c) {
      const box = h("details", { class: "setup", id: "mk-seat-details" }, c), summary = h("summary", {}, box);
      const s = () => this.doc.seat[this.seat];
      const show = () => {
        const x = s();
        summary.textContent = `${this.seat < this.doc.players ? "p" + (this.seat + 1) : "automa"}: supply ${x.supply}, ` +
          `guardians in reserve ${x.reserve}, pups ${x.pups}, bonus ${x.bonus} points, lost ${x.lost}, ` +
          `burrow ${x.burrow.length ? x.burrow.join("/") : "none"}; bonus tokens taken ${this.doc.bonus_taken}`;
      };
      show();
      this.showSeat = show;
      // the burrow action spaces holding one of this seat's meerkats (used once each; paid from the supply)
      this.layout.burrow.forEach((a) => {
        select(`mk-burrow-${a}`, `Burrow space "${a}"`, [["", "free"], ["1", "holds its meerkat"]],
               s().burrow.includes(a) ? "1" : "", box, (v) => {
          const x = s(), on = x.burrow.includes(a);
          if (v && !on && x.supply > 0) { x.burrow.push(a); x.supply -= 1; }
          else if (!v && on) { x.burrow = x.burrow.filter((b) => b !== a); x.supply += 1; }
          $(`mk-burrow-${a}`).value = x.burrow.includes(a) ? "1" : "";
          show(); changed();
        });
      });
      for (const [key, label, paid] of [["reserve", "Guardians in reserve", true], ["pups", "Pups", false],
                                         ["bonus", "Bonus points", false], ["lost", "Meerkats lost", true]]) {
        const l = h("label", {}, box, label + " ");
        const inp = h("input", { id: `mk-${key}`, type: "number", min: 0, max: 20, value: s()[key] }, l);
        inp.addEventListener("change", () => {
          const x = s(), v = Math.max(0, Math.round(Number(inp.value)) || 0), d = v - x[key];
          if (paid && d > x.supply) { inp.value = x[key]; return; }
          if (paid) x.supply -= d;
          x[key] = v; show(); changed();
        });
      }
      const l = h("label", {}, box, "Bonus tokens taken (all seats) ");
      const taken = h("input", { id: "mk-bonus-taken", type: "number", min: 0, max: this.doc.seat.length - 1,
                                 value: this.doc.bonus_taken }, l);
      taken.addEventListener("change", () => {
        this.doc.bonus_taken = Math.max(0, Math.min(this.doc.seat.length - 1, Math.round(Number(taken.value)) || 0));
        taken.value = this.doc.bonus_taken; show(); changed();
      });
    },
    refreshSeat() {
      const x = this.doc.seat[this.seat];
      for (const key of ["reserve", "pups", "bonus", "lost"]) if ($(`mk-${key}`)) $(`mk-${key}`).value = x[key];
      for (const a of this.layout.burrow) if ($(`mk-burrow-${a}`)) $(`mk-burrow-${a}`).value = x.burrow.includes(a) ? "1" : "";
      if (this.showSeat) this.showSeat();
    },
    click(t) {
      const s = this.doc.seat[this.seat], k = String(t), have = s.meerkats[k] || 0;
      if (this.mode === "add" && s.supply > 0) { s.meerkats[k] = have + 1; s.supply -= 1; }
      else if (this.mode === "remove" && have > 0) {
        if (have === 1) delete s.meerkats[k]; else s.meerkats[k] = have - 1;
        s.supply += 1;
      } else if (this.mode === "queen" && s.queen >= 0) s.queen = s.queen === t ? 0 : t;
      else if (this.mode === "male") this.doc.male = t;
      else if (this.mode === "token") { if (this.token) this.doc.tokens[k] = this.token; else delete this.doc.tokens[k]; }
      else return;
      if (this.showSeat) this.showSeat();
      changed();
    },
    turn(i) { this.doc.roll[i] = this.doc.roll[i] % 6 + 1; changed(); },
    draw() {
      const svg = $("table-svg"), L = this.layout, d = this.doc;
      svg.innerHTML = "";
      const TW = 150, TH = 120, PAD = 10, widest = Math.max(...L.rows);
      const layout = d.layout || [3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
      const values = Object.fromEntries(L.tiles.map((x) => [x.tile, x.values]));
      const names = d.seat.map((s, i) => i < d.players ? `p${i + 1}` : "automa");
      let p = 0;
      const height = L.rows.length * TH + 2 * PAD + 70;
      svg.setAttribute("viewBox", `0 0 ${widest * TW + 2 * PAD} ${height}`);
      const bestTile = st.best && st.best.tile ? st.best.tile : null;
      L.rows.forEach((n, r) => {
        for (let j = 0; j < n; j++, p++) {
          const t = layout[p], x = PAD + (j + (widest - n) / 2) * TW, y = PAD + r * TH;
          const g = el("g", { class: "tile" + (t === bestTile ? " best" : ""), "data-tile": t,
                              "aria-label": `tile ${t}` }, svg);
          el("rect", { class: "face", x: x + 3, y: y + 3, width: TW - 6, height: TH - 6, rx: 10 }, g);
          el("text", { class: "big", x: x + 12, y: y + 26 }, g, String(t));
          el("text", { x: x + 45, y: y + 24 }, g, values[t].join("/"));
          const lines = [];
          d.seat.forEach((s, i) => {
            const c = s.meerkats[String(t)] || 0, q = s.queen === t;
            if (c || q) lines.push(`${names[i]}: ${c ? c : ""}${q ? (c ? "+Q" : "Q") : ""}`);
          });
          lines.slice(0, 4).forEach((line, i) => el("text", { x: x + 12, y: y + 48 + 16 * i }, g, line));
          const extra = [d.tokens[String(t)], d.male === t ? "male" : null].filter(Boolean).join(", ");
          if (extra) el("text", { x: x + 12, y: y + TH - 12 }, g, extra);
          clickable(g, () => this.click(t));
        }
      });
      const y0 = L.rows.length * TH + PAD + 10;
      el("text", { class: "label", x: PAD, y: y0 + 30 }, svg, `${names[d.to_move - 1]} rolled:`);
      d.roll.forEach((v, i) => {
        const keep = st.best && st.best.keep !== undefined && (st.best.keep >> i & 1);
        const g = el("g", { class: "die" + (keep ? " best" : ""), id: `mk-die-${i}`, "data-die": i }, svg);
        el("rect", { class: "face", x: PAD + 100 + 60 * i, y: y0 + 5, width: 44, height: 44, rx: 6, fill: "#fff" }, g);
        el("text", { x: PAD + 116 + 60 * i, y: y0 + 34, class: "label" }, g, String(v));
        clickable(g, () => this.turn(i));
      });
      const me = d.seat[d.to_move - 1];   // seats are numbered from 1
      el("text", { class: "label", x: PAD + 300, y: y0 + 30 }, svg,
         `supply ${me.supply}, reserve ${me.reserve}, pups ${me.pups}; ${d.stage === "reroll" ? "reroll available" : "choose the action"}`);
    },
  };

  // ------------------------------------------------------------------------------------------ Raft
  function gems(text) {
    const out = {};
    if (!text || text.trim() === "-") return out;
    for (const m of text.matchAll(/([A-Za-z])([0-9]+)/g)) out[m[1].toUpperCase()] = Number(m[2]);
    return out;
  }
  function gemText(g, letters) {
    const parts = letters.filter((x) => g[x]).map((x) => x + g[x]);
    return parts.length ? parts.join(" ") : "-";
  }
  const Raft = {
    title: "Rocking Raft",
    sub: "Click a raft space to add a gem of the chosen colour (or take one off); click a lifeboat slot to fill or " +
         "empty it. The advisor ranks every edge, finger space and hold time by its exact expected points.",
    legend: "The raft seen from above, north at the top; the recommended edge is green, its finger space marked.",
    layout: null, doc: null, colour: "R", mode: "add", objective: "points",
    stages: [["tilt", "the tilt"], ["load", "loading the gems that fell"]],
    controls(c) {
      select("rf-colour", "Gem", this.layout.letters.map((x, i) => [x, this.layout.colours[i]]), this.colour, c,
             (v) => { this.colour = v; });
      select("rf-mode", "Click", [["add", "adds a gem"], ["remove", "removes a gem"]], this.mode, c, (v) => { this.mode = v; });
      select("rf-objective", "Objective", [["points", "expected points"], ["completed", "points completed now"]],
             this.objective, c, (v) => { this.objective = v; changed(); });
      this.tableControls(c);
    },
    // every seat's score and lifeboat cards, the mover's timing noise and the cards above the pirate flag
    tableControls(c) {
      const d = this.doc, L = this.layout, box = h("details", { class: "setup", id: "rf-table" }, c);
      const summary = h("summary", {}, box);
      const show = () => {
        summary.textContent = d.seat.map((x, i) => `seat ${i + 1}: ${x.score} pts (${x.boats.map((b) => "#" + b.card).join(", ")})`)
          .join(" · ") + ` · timing noise ${d.skill === null || d.skill === undefined ? "the model's" : d.skill}` +
          ` · ${d.flag < 0 ? "the flag is drawn" : d.flag + " cards above the flag"}` +
          ` · deck: ${d.deck ? d.deck.length + " cards" : "not given (its average card)"}`;
      };
      show();
      const number = (id, label, value, attrs, set, parent) => {
        const l = h("label", {}, parent || box, label + " ");
        const inp = h("input", { id, type: "number", value, ...attrs }, l);
        inp.addEventListener("change", () => { const v = Number(inp.value); if (Number.isNaN(v)) return; set(v); show(); changed(); });
      };
      number("rf-skill", "Your timing noise (0: perfect)", d.skill ?? "", { min: 0, max: 2, step: 0.05 },
             (v) => { d.skill = v; });
      number("rf-flag", "Cards above the pirate flag (-1: drawn)", d.flag, { min: -1, max: 60 }, (v) => { d.flag = Math.round(v); });
      // the cards still in the deck (their order is hidden): the replacement cards' prospect; empty: not given
      const dl = h("label", {}, box, "Cards still in the deck (numbers; empty: not given) ");
      const deck = h("input", { id: "rf-deck", type: "text", inputmode: "numeric", value: (d.deck || []).join(" ") }, dl);
      deck.addEventListener("change", () => {
        const ids = deck.value.split(/[^0-9]+/).filter((x) => x).map(Number);
        if (ids.length) d.deck = ids; else delete d.deck;
        show(); changed();
      });
      const cards = Object.entries(L.cards).sort((a, b) => Number(a[0]) - Number(b[0])).map(([id, x]) => [id, x.label]);
      // one framed row per seat under its name: points, lifeboats completed, its lifeboat cards (two to a line;
      // a phone stacks them)
      d.seat.forEach((x, si) => {
        const row = h("fieldset", { class: "seat-row", id: `rf-seat-${si + 1}` }, box);
        h("legend", {}, row, `Seat ${si + 1}`);
        number(`rf-score-${si + 1}`, "points", x.score, { min: 0, max: 999 }, (v) => { x.score = Math.round(v); }, row);
        number(`rf-completed-${si + 1}`, "lifeboats completed", x.completed, { min: 0, max: 99 },
               (v) => { x.completed = Math.round(v); }, row);
        x.boats.forEach((b, bi) => select(`rf-card-${si + 1}-${bi + 1}`, `lifeboat ${bi + 1}`, cards, b.card, row,
          (v) => { b.card = Number(v); b.filled = "-"; show(); changed(); }));
      });
    },
    body() { return { position: this.doc, objective: this.objective }; },
    click(r, c) {
      const g = gems(this.doc.raft[r][c]), x = this.colour;
      if (this.mode === "add") g[x] = (g[x] || 0) + 1;
      else if (g[x]) g[x] -= 1;
      else return;
      this.doc.raft[r][c] = gemText(g, this.layout.letters);
      changed();
    },
    hand() {     // the gems in the mover's hand after the tilt: the decision is then how to load them
      const g = gems(this.doc.fallen), x = this.colour;
      if (this.mode === "add") g[x] = (g[x] || 0) + 1;
      else if (g[x]) g[x] -= 1;
      else return;
      const text = gemText(g, this.layout.letters);
      if (text === "-") delete this.doc.fallen; else this.doc.fallen = text;
      changed();
    },
    slot(s, b, colour, k) {
      const boat = this.doc.seat[s].boats[b], f = gems(boat.filled);
      f[colour] = (f[colour] || 0) > k ? k : k + 1;
      boat.filled = gemText(f, this.layout.letters);
      changed();
    },
    draw() {
      const svg = $("table-svg"), L = this.layout, d = this.doc;
      svg.innerHTML = "";
      const C = 110, PAD = 40, X0 = PAD, Y0 = PAD;
      const seats = d.seat.length, boatsY = Y0 + 3 * C + PAD;
      // a phone: the lifeboats under the raft, with slots big enough to tap; a wide screen: beside it
      const narrow = window.matchMedia("(max-width: 700px)").matches;
      const BW = narrow ? 200 : 150, SP = narrow ? 32 : 20, R = narrow ? 11 : 7, BH = narrow ? 60 : 40;
      const seatH = narrow ? BH + 32 : 3 * C / Math.max(seats, 3), by0 = narrow ? Y0 + 3 * C + 70 : Y0;
      svg.setAttribute("viewBox", narrow ? `0 0 ${Math.max(3 * C + 2 * PAD, 2 * BW + 2 * PAD)} ${by0 + seats * seatH + 10}`
        : `0 0 ${3 * C + 2 * PAD + 330} ${Math.max(boatsY, 3 * C + 2 * PAD) + 40}`);
      const best = st.best && st.best.edge ? st.best : null;
      const edges = { north: [X0, Y0 - 12, X0 + 3 * C, Y0 - 12], south: [X0, Y0 + 3 * C + 12, X0 + 3 * C, Y0 + 3 * C + 12],
                      west: [X0 - 12, Y0, X0 - 12, Y0 + 3 * C], east: [X0 + 3 * C + 12, Y0, X0 + 3 * C + 12, Y0 + 3 * C] };
      for (const [e, [x1, y1, x2, y2]] of Object.entries(edges)) {
        el("line", { class: "edge" + (best && best.edge === e ? " best" : ""), x1, y1, x2, y2, "data-edge": e }, svg);
        const fingers = L.fingers[e];
        fingers.forEach((f, i) => {
          const t = (i + 1) / (fingers.length + 1), fx = x1 + (x2 - x1) * t, fy = y1 + (y2 - y1) * t;
          const on = best && best.edge === e && best.finger === f;
          el("circle", { cx: fx, cy: fy, r: on ? 9 : 4, fill: on ? "#1a9c4a" : "#6b4f2a" }, svg);
        });
      }
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
        const x = X0 + c * C, y = Y0 + r * C, g = el("g", { class: "cell", "data-cell": `${r},${c}` }, svg);
        el("rect", { class: "face", x: x + 2, y: y + 2, width: C - 4, height: C - 4, rx: 6 }, g);
        const gm = gems(d.raft[r][c]);
        let k = 0;
        for (const x0 of L.letters) for (let n = 0; n < (gm[x0] || 0); n++, k++) {
          el("circle", { cx: x + 16 + 19 * (k % 5), cy: y + 18 + 19 * Math.floor(k / 5), r: 8, fill: COLOURS[x0],
                         stroke: "#fff" }, g);
        }
        clickable(g, () => this.click(r, c));
      }
      const hg = el("g", { class: "hand", id: "rf-hand" }, svg), hy = Y0 + 3 * C + 20;
      el("rect", { x: X0, y: hy, width: 3 * C, height: 30, rx: 6, fill: "#fff", stroke: "#8a7a5a" }, hg);
      const hand = gems(d.fallen);
      el("text", { class: "label", x: X0 + 6, y: hy + 20 }, hg, d.fallen ? "hand:" : "hand: empty (click: a gem fell)");
      let hk = 0;
      for (const x0 of L.letters) for (let n = 0; n < (hand[x0] || 0); n++, hk++)
        el("circle", { cx: X0 + 60 + 19 * hk, cy: hy + 15, r: 8, fill: COLOURS[x0], stroke: "#fff" }, hg);
      clickable(hg, () => this.hand());
      const bx = narrow ? X0 - 20 : X0 + 3 * C + PAD + 10;
      d.seat.forEach((s, si) => {
        const y = by0 + si * seatH;
        el("text", { class: "label", x: bx, y: y + 12 }, svg,
           `seat ${si + 1}${si + 1 === d.to_move ? " (to tilt)" : ""}: ${s.score} pts`);
        s.boats.forEach((b, bi) => {
          const card = L.cards[String(b.card)], f = gems(b.filled), gx = bx + bi * BW;
          const g = el("g", { class: "boat" }, svg);
          el("rect", { x: gx, y: y + 18, width: BW - 10, height: BH, rx: 8 }, g);
          el("text", { x: gx + 6, y: y + 32 }, g, `#${b.card} (${card.points} pts)`);
          let k = 0;
          for (const [colour, n] of Object.entries(card.slots)) for (let j = 0; j < n; j++, k++) {
            const filled = (f[colour] || 0) > j;
            const sg = el("g", { class: "slot", "data-slot": `${si},${bi},${colour},${j}` }, svg);
            const cx = gx + 6 + SP / 2 + SP * k;
            el("rect", { x: cx - SP / 2, y: y + 18, width: SP, height: BH, fill: "transparent" }, sg);  // the tap area
            el("circle", { cx, cy: y + 18 + BH - R - 5, r: R, fill: filled ? COLOURS[colour] : "#fff",
                           stroke: COLOURS[colour] }, sg);
            clickable(sg, () => this.slot(si, bi, colour, j));
          }
        });
      });
    },
  };

  // ------------------------------------------------------------------------------------------ Pyradice
  const Pyradice = {
    title: "Pyradice",
    sub: "Click an available die of the quarry (thick outline), then a space of the mover's pyramid (blue outline) " +
         "to play that move; or play the recommended one. The advisor ranks every move (die, space, skill use).",
    legend: "Quarry layers top, middle, bottom (? = what the player cannot see); the pyramids, level 6 at the top.",
    layout: null, occ: null, pyr: null, toMove: 0, selected: null, samples: 32, seed: 0, play: true, mode: "take",
    reset() {
      const L = this.layout;
      this.occ = new Set(L.dice.map((x) => x.i));
      this.pyr = Array.from({ length: L.players }, () => ({ v: Array(21).fill(0), c: Array(21).fill(-1) }));
      this.toMove = L.position.to_move - 1; this.selected = null;   // files number seats from 1
      this.setup = JSON.parse(JSON.stringify(L.position.setup));
    },
    // the goal tokens, skill tokens and objective cards (with their discs) on the table: shown in the summary,
    // each one a choice from the components' catalogue (the server checks the combination)
    setupControls(c) {
      const L = this.layout, S = this.setup, cat = L.catalogue, box = h("details", { class: "setup", id: "pr-setup" }, c);
      const summary = h("summary", {}, box);
      const show = () => {
        summary.textContent = `Goals (levels 1-5): ${S.goals.join(" ")} · skills (levels 2-6): ` +
          `${S.skills.map((x) => x || "-").join(" ")} · cards: ${S.cards.map((x, i) => S.discs ? `${x} (${S.discs[i]})` : x).join(", ")}`;
      };
      show();
      const set = (fn) => (v) => { fn(v); show(); changed(); };
      S.goals.forEach((code, k) => select(`pr-goal-${k + 1}`, `Goal, level ${k + 1}`,
        cat.goals.map((g) => [g.code, `${g.code} ${g.name}`]), code, box, set((v) => { S.goals[k] = v; })));
      S.skills.forEach((code, k) => select(`pr-skill-${k + 2}`, `Skill, level ${k + 2}`,
        [["", "none"], ...cat.skills.filter((x) => x.level === k + 2).map((x) => [x.code, `${x.code} ${x.name}`])],
        code || "", box, set((v) => { S.skills[k] = v || null; })));
      S.cards.forEach((name, k) => {
        select(`pr-card-${k + 1}`, `Card ${k + 1}`, cat.cards.map((x) => [x.name, x.name]), name, box,
               set((v) => { S.cards[k] = v; }));
        if (S.discs) select(`pr-disc-${k + 1}`, "disc", L.colours.map((x) => [x, x]), S.discs[k], box,
                            set((v) => { S.discs[k] = v; }));
      });
    },
    controls(c) {
      select("pr-samples", "Rollouts per move", [[16, "16"], [32, "32"], [64, "64"], [128, "128"]], this.samples, c,
             (v) => { this.samples = Number(v); changed(); });
      button("pr-restart", "Restart the game", c, () => { this.reset(); changed(); });
      // set the quarry in front of you: a click on any die turns its value, changes its colour, or takes it off
      // the table / puts it back (the server checks the position and names what does not fit)
      select("pr-mode", "Click a die", [["take", "takes it (then a space: the move)"], ["value", "turns its value"],
                                        ["colour", "changes its colour"], ["remove", "removes / puts it back"],
                                        ["pvalue", "(a pyramid's space) turns its die's value, 6 → empty"],
                                        ["pcolour", "(a pyramid's space) changes its die's colour"]],
             this.mode, c, (v) => { this.mode = v; this.selected = null; this.draw(); });
      if (this.layout.catalogue) this.setupControls(c);
    },
    topFree(i) { const n = this.layout.n; return this.layout.dice[i].covers.every((j) => j === n || !this.occ.has(j)); },
    freeSides(i) { const n = this.layout.n; return this.layout.dice[i].sides.filter((j) => j === n || !this.occ.has(j)).length; },
    available(i) { return this.occ.has(i) && this.freeSides(i) + (this.topFree(i) ? 1 : 0) >= 3; },
    legal(s) {
      const P = this.pyr[this.toMove], sp = this.layout.spaces[s];
      return !P.v[s] && (sp.supports[0] < 0 || (P.v[sp.supports[0]] && P.v[sp.supports[1]]));
    },
    position() {
      const L = this.layout, pos = JSON.parse(JSON.stringify(L.position));
      if (this.setup) pos.setup = JSON.parse(JSON.stringify(this.setup));     // as set on the page
      const keys = ["bottom", "middle", "top"];
      keys.forEach((key, layer) => {
        const [rows, cols] = L.shapes[layer], out = [];
        for (let r = 0; r < rows; r++) {
          const cells = [];
          for (let c = 0; c < cols; c++) {
            const d = L.dice.find((x) => x.layer === layer && x.row === r && x.col === c);
            cells.push(this.occ.has(d.i) ? `${d.value}${L.letters[d.colour]}` : ".");
          }
          out.push(cells.join(" "));
        }
        pos.quarry[key] = out;
      });
      pos.to_move = this.toMove + 1;
      pos.seat = this.pyr.map((P, s) => ({ seat: s + 1, pyramid: [1, 2, 3, 4, 5, 6].map((k) =>
        L.spaces.filter((x) => x.level === k).map((x) => P.v[x.space] ? `${P.v[x.space]}${L.letters[P.c[x.space]]}` : ".").join(" ")) }));
      return pos;
    },
    body() { return { position: this.position(), samples: this.samples, candidates: 8, seed: this.seed }; },
    done() { return this.occ.size <= this.layout.n - 21 * this.layout.players; },
    clickDie(i) {
      const d = this.layout.dice[i];
      if (this.mode === "value" && this.occ.has(i)) { d.value = d.value % 6 + 1; changed(); }
      else if (this.mode === "colour" && this.occ.has(i)) { d.colour = (d.colour + 1) % this.layout.letters.length; changed(); }
      else if (this.mode === "remove") { if (this.occ.has(i)) this.occ.delete(i); else this.occ.add(i); changed(); }
      else if (this.mode === "take" && this.available(i)) { this.selected = this.selected === i ? null : i; this.draw(); }
    },
    clickSpace(seat, s) {
      const P = this.pyr[seat], nc = this.layout.letters.length;
      if (this.mode === "pvalue") {      // set a pyramid as it stands on the table (the server checks it)
        P.v[s] = (P.v[s] + 1) % 7; P.c[s] = P.v[s] ? Math.max(0, P.c[s]) : -1; changed(); return;
      }
      if (this.mode === "pcolour") { if (P.v[s]) { P.c[s] = (P.c[s] + 1) % nc; changed(); } return; }
      if (seat !== this.toMove || this.selected === null || !this.legal(s)) return;
      const d = this.layout.dice[this.selected];
      P.v[s] = d.value; P.c[s] = d.colour;
      this.advance(this.selected);
    },
    advance(take) {
      this.occ.delete(take); this.selected = null;
      this.toMove = (this.toMove + 1) % this.layout.players;
      if (this.done()) { st.best = null; this.draw(); showError("the game is over: every pyramid is full"); return; }
      changed();
    },
    playBest() {
      const b = st.best; if (!b) return;
      const P = this.pyr[this.toMove];
      P.v = b.after.values.slice(); P.c = b.after.colours.slice();
      this.advance(b.take);
    },
    draw() {
      const svg = $("table-svg"), L = this.layout;
      svg.innerHTML = "";
      const D = 30, PAD = 12, best = st.best && st.best.take !== undefined ? st.best : null;
      const widths = L.shapes.map(([, c]) => c * D);
      const qh = Math.max(...L.shapes.map(([r]) => r)) * D + 30;
      const PW = 6 * 34, ph = 6 * 30 + 30;
      const W = Math.max(widths[0] + widths[1] + widths[2] + 4 * PAD, L.players * (PW + PAD) + PAD);
      svg.setAttribute("viewBox", `0 0 ${W} ${qh + ph + 3 * PAD}`);
      let x0 = PAD;
      for (const layer of [2, 1, 0]) {
        el("text", { class: "label", x: x0, y: PAD + 10 }, svg, ["bottom", "middle", "top"][layer]);
        for (const d of L.dice.filter((x) => x.layer === layer)) {
          const x = x0 + d.col * D, y = PAD + 18 + d.row * D, here = this.occ.has(d.i);
          const top = here && this.topFree(d.i), seen = here && (top || this.freeSides(d.i) > 0);
          const cls = ["die"];
          if (!here) cls.push("empty");
          if (this.available(d.i)) cls.push("available");
          if (this.selected === d.i) cls.push("selected");
          if (best && best.take === d.i) cls.push("best");
          const g = el("g", { class: cls.join(" "), "data-die": d.i }, svg);
          el("rect", { class: "face", x: x + 1, y: y + 1, width: D - 2, height: D - 2, rx: 4,
                       fill: here ? (seen ? COLOURS[L.letters[d.colour]] : "#999") : "none" }, g);
          if (here) el("text", { x: x + D / 2 - 4, y: y + D / 2 + 5, fill: L.letters[d.colour] === "y" && seen ? "#222" : "#fff" },
                       g, top ? String(d.value) : "?");
          clickable(g, () => this.clickDie(d.i));
        }
        x0 += widths[layer] + PAD;
      }
      this.pyr.forEach((P, seat) => {
        const px = PAD + seat * (PW + PAD), py = qh + 2 * PAD;
        el("text", { class: "label", x: px, y: py }, svg, `seat ${seat + 1}${seat === this.toMove ? " (to move)" : ""}`);
        for (const sp of L.spaces) {
          const k = sp.level, x = px + (k - 1) * 17 + sp.index * 34, y = py + 10 + (6 - k) * 30;
          const cls = ["space2"];
          if (seat === this.toMove && this.legal(sp.space)) cls.push("legal");
          if (best && seat === this.toMove && best.place === sp.space) cls.push("best");
          const g = el("g", { class: cls.join(" "), "data-seat": seat, "data-space": sp.space }, svg);
          const v = P.v[sp.space];
          el("rect", { class: "face", x: x + 1, y: y + 1, width: 32, height: 28, rx: 4,
                       fill: v ? COLOURS[L.letters[P.c[sp.space]]] : "#fffdf7" }, g);
          if (v) el("text", { x: x + 12, y: y + 20, fill: L.letters[P.c[sp.space]] === "y" ? "#222" : "#fff" }, g, String(v));
          clickable(g, () => this.clickSpace(seat, sp.space));
        }
      });
    },
  };

  // ------------------------------------------------------------------------------------------ any other game
  function generic(game, title) {          // the position document as JSON: edit it, ask again
    return {
      title, layout: null, doc: null,
      sub: "Edit the position (the format of the game's position files, as JSON) and ask; the advisor ranks the " +
           "options of the decision at hand.",
      legend: "",
      controls(c) {
        const area = h("textarea", { id: "table-json", rows: 18, cols: 60, spellcheck: "false" }, c);
        area.value = JSON.stringify(this.doc, null, 1);
        button("table-ask", "Ask", c, () => {
          try { this.doc = JSON.parse(area.value); } catch (e) { showError("the position is not JSON: " + e); return; }
          changed();
        });
      },
      body() { return { position: this.doc }; },
      draw() { $("table-svg").innerHTML = ""; },
    };
  }

  const GAMES = { meerkat: Meerkat, raft: Raft, pyradice: Pyradice };

  function changed() { st.best = null; window.clearRecommendation(IDS, true, st.game); GAMES[st.game].draw(); ask(); }

  function seedControl(c, G, game) {
    const l = h("label", {}, c, "Game seed ");
    const inp = h("input", { id: "table-seed", type: "number", min: 0, max: 1000000, value: G.layout.seed }, l);
    inp.style.width = "6em";
    let turn = null, stage = null;
    if (G.stages) {       // Meerkat and Raft: any turn of the seeded game (position_from_game), either decision
      const lt = h("label", {}, c, "Turn ");
      turn = h("input", { id: "table-turn", type: "number", min: 1, max: 200, value: G.layout.turn }, lt);
      turn.style.width = "5em";
      stage = select("table-stage", "At", G.stages, G.layout.stage, c, () => {});
    }
    button("table-new", "Load this game's turn", c, () => {
      G.previous = G.layout; G.layout = null;
      load(game, Number(inp.value), turn ? Number(turn.value) : undefined, stage ? stage.value : undefined);
    });
  }

  async function load(game, seed, turn, stage) {
    const G = GAMES[game];
    if (!G.layout) {
      const p = new URLSearchParams();
      if (seed !== undefined && !Number.isNaN(seed)) p.set("seed", seed);
      if (turn !== undefined && !Number.isNaN(turn)) p.set("turn", turn);
      if (stage) p.set("stage", stage);
      const q = p.toString() ? "?" + p.toString() : "";
      const res = await fetch(`/api/${game}/layout${q}`), L = await res.json();
      if (!res.ok) { G.layout = G.previous || null; showError(L.error || "error"); return; }
      G.layout = L; G.doc = JSON.parse(JSON.stringify(L.position));
      if (G.reset) G.reset();
    }
    if (st.game !== game) return;
    $("table-title").textContent = G.title; $("table-sub").textContent = G.sub; $("table-legend").textContent = G.legend;
    const c = $("table-controls"); c.innerHTML = ""; G.controls(c); seedControl(c, G, game);
    $("table-options").querySelector("tbody").innerHTML = "";
    changed();
  }

  function pick(game) {
    const views = window.gameViews || {}, own = views[game];
    st.game = game; st.seq++; st.best = null;
    document.querySelectorAll(".game-btn").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.game === game)));
    for (const [g, id] of Object.entries(views)) if ($(id)) $(id).hidden = g !== game;
    $("table-view").hidden = Boolean(own);
    document.body.dataset.game = game;
    window.recallRecommendation(game);
    if (!own) {
      if (!GAMES[game]) GAMES[game] = generic(game, st.titles[game] || game);
      load(game);
    }
  }

  // a phone turned, a window resized: the picture is drawn again for its width
  window.addEventListener("resize", () => { const G = GAMES[st.game]; if (G && G.layout && G.doc !== undefined) G.draw(); });

  async function init() {
    const views = window.gameViews || {};
    for (const id of Object.values(views)) if ($(id)) $(id).hidden = true;
    let games = [];
    try {
      const res = await fetch("/api/games");
      games = (await res.json()).games || [];
    } catch (e) { $("table-view").hidden = false; showError("the server did not list its games: " + e); return; }
    const nav = $("games");
    for (const { game, title } of games) {     // the picker: the games the server offers, in its order
      st.titles[game] = title;
      const b = button("game-" + game, title, nav, () => { history.replaceState(null, "", "#" + game); pick(game); });
      b.className = "game-btn"; b.dataset.game = game; b.setAttribute("aria-pressed", "false");
    }
    $("table-play").addEventListener("click", () => { const G = GAMES[st.game]; if (G.playBest) G.playBest(); });
    const want = location.hash.replace("#", "");
    if (games.length) pick(st.titles[want] ? want : games[0].game);
  }
  document.addEventListener("DOMContentLoaded", init);
})();
