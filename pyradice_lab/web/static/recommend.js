// The one recommendation of an answer, the same for every game: the sentence at the top of the page (#rec), the next
// alternatives below the game's picture, the whole ranking folded away (<details>).  The server builds it from the
// game's advice (answer.recommendation: engine/recommend.py): options named as on the board, identical ones
// merged, each with its value or "not searched".
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // an element with its attributes and text, appended to parent (the pages' one element helper: window.h)
  function h(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  window.h = h;

  const shown = {};      // the last recommendation of each game (the bar shows the picked game's)

  // the sentence in its pieces (what to do in bold, why in a lighter face), its text exactly rec.headline
  function sentence(line, rec) {
    line.innerHTML = "";
    for (const p of rec.parts || [{ kind: "text", text: rec.headline }]) h("span", { class: "rec-" + p.kind }, line, p.text);
  }

  // ids: { alts, table, summary } of the view showing the answer; game: whose answer it is
  function showRecommendation(rec, ids, game) {
    shown[game] = rec;
    if (document.body.dataset.game && document.body.dataset.game !== game) return;
    const bar = $("rec"), line = $("rec-headline");
    sentence(line, rec);
    line.dataset.label = rec.options.length ? rec.options[0].label : "";
    bar.hidden = false;
    bar.classList.remove("stale");
    const alts = $(ids.alts);
    alts.innerHTML = "";
    const next = rec.options.slice(1, 1 + rec.alternatives);
    if (alts.parentElement) alts.parentElement.hidden = next.length === 0;
    for (const o of next) {
      const li = h("li", { "data-rank": o.rank }, alts);
      h("span", { class: "alt-label" }, li, o.label);
      h("span", { class: "alt-value" }, li, o.value === null ? " — not searched" :
        ` — ${o.value_text}${o.diff_text ? " (" + o.diff_text + ")" : ""}`);
      if (o.detail) h("span", { class: "alt-why" }, li, o.detail);
    }
    const table = $(ids.table), head = table.querySelector("thead tr"), body = table.querySelector("tbody");
    head.innerHTML = ""; body.innerHTML = "";
    for (const c of ["#", "option", rec.value_name, "vs best", "why"]) h("th", {}, head, c);
    rec.options.forEach((o, i) => {
      const tr = h("tr", { "data-rank": o.rank }, body);
      h("td", { class: "n" }, tr, String(i + 1));
      h("td", {}, tr, o.label + (o.count > 1 ? ` (${o.count} moves alike)` : ""));
      h("td", { class: "n" }, tr, o.value_text);
      h("td", { class: "n" }, tr, o.diff_text);
      h("td", {}, tr, [o.detail, o.extra].filter(Boolean).join("; "));
    });
    const bits = [`${rec.options.length} option${rec.options.length === 1 ? "" : "s"}`];
    if (rec.merged) bits.push(`${rec.merged} identical ${rec.merged === 1 ? "one" : "ones"} merged`);
    if (rec.not_searched) bits.push(`${rec.not_searched} not searched`);
    $(ids.summary).textContent = `The whole ranking (${bits.join(", ")})`;
    $(ids.summary).parentElement.hidden = false;
  }

  // the answer no longer fits the position (a new question is on its way, or an error): grey it out or clear it
  function clearRecommendation(ids, stale, game) {
    const bar = $("rec");
    if (stale && !bar.hidden) { bar.classList.add("stale"); return; }
    if (game) delete shown[game];
    bar.hidden = true; $("rec-headline").textContent = ""; $("rec-headline").dataset.label = "";
    if (!ids) return;
    $(ids.alts).innerHTML = "";
    if ($(ids.alts).parentElement) $(ids.alts).parentElement.hidden = true;
    $(ids.table).querySelector("tbody").innerHTML = "";
    $(ids.summary).parentElement.hidden = true;
  }

  // the picked game's last recommendation in the bar (another game's is never shown)
  function recallRecommendation(game) {
    const rec = shown[game], line = $("rec-headline");
    $("rec").hidden = !rec; $("rec").classList.remove("stale");
    if (rec) sentence(line, rec); else line.textContent = ""; line.dataset.label = rec && rec.options.length ? rec.options[0].label : "";
  }

  // a phone's zoom of the game's picture: the picture grows until its smallest piece to tap is 48 px (at most 3
  // times the screen's width) and scrolls inside its frame; the page itself never gets wider than the screen
  function zoom(button) {
    const svg = $(button.dataset.zoom), frame = svg.parentElement, on = button.getAttribute("aria-pressed") !== "true";
    frame.classList.toggle("zoomed", on); svg.style.width = "";
    button.setAttribute("aria-pressed", String(on));
    if (!on) return;
    const sizes = [...svg.querySelectorAll('[role="button"]')].map((e) => {
      const r = e.getBoundingClientRect(); return Math.min(r.width, r.height);
    }).filter((x) => x > 0);
    const factor = Math.min(3, Math.max(1.5, 48 / Math.min(...sizes, 48)));
    svg.style.width = `${Math.round(100 * factor)}%`;
  }
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest ? ev.target.closest(".zoom-btn") : null;
    if (b) zoom(b);
  });

  window.showRecommendation = showRecommendation;
  window.recallRecommendation = recallRecommendation;
  window.clearRecommendation = clearRecommendation;
})();
