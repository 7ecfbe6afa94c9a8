/* "I vostri dadi": every named die with its rolls, face counts, chi-square p-value, Wilson intervals, a bar
   plot drawn here in SVG and the verdict in words (GET /api/dice); naming, hand entries, the rolls that wait
   for a die, CSV links (POST /api/dice..., control actions). Uses app.js's helpers. */
(() => {
  "use strict";

  const { t, el, show, showError, act } = window.goblin;
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const LOCALE = document.body.dataset.lang === "en" ? "en-GB" : "it-IT";
  let report = null;

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined) continue;
      if (name === "class") node.setAttribute("class", value);
      else if (name === "text") node.textContent = value;
      else node.setAttribute(name, String(value));
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  function pct(share, digits) {
    return share.toLocaleString(LOCALE, { style: "percent", maximumFractionDigits: digits === undefined ? 1 : digits });
  }

  /** A p-value as the verdicts write it (companion.dicestats.format_p). */
  function pText(p) {
    if (p < 0.001) return "p < 0.001";
    if (p < 0.1) return `p = ${Number(p.toPrecision(2))}`;
    return `p = ${p.toFixed(2)}`;
  }

  function colourName(colour) {
    return t(`dice.colour.${colour || "none"}`);
  }

  /** The verdict in the page's language: the report says it in both (companion.dicestats.SENTENCES, where
      the Italian article of a face is worked out: "il 20", "l'8"). */
  function verdictText(v) {
    return document.body.dataset.lang === "en" ? v.en : v.it;
  }

  /** The faces' shares as bars, their 95% Wilson intervals as whiskers, a fair die's share as a dashed line. */
  function plot(die) {
    const W = 320, H = 180, left = 36, right = 6, top = 10, bottom = 24;
    const k = die.sides, fair = 1 / k;
    const highest = Math.max(fair * 1.5, ...die.faces.map((f) => (die.rolls ? f.high : 0)));
    const step = highest > 0.5 ? 0.25 : highest > 0.2 ? 0.1 : highest > 0.1 ? 0.05 : 0.02;
    const ymax = Math.min(1, Math.ceil(highest / step) * step);
    const pw = W - left - right, ph = H - top - bottom, slot = pw / k;
    const y = (share) => top + ph * (1 - share / ymax);
    const root = svg("svg", { class: "dice-plot", viewBox: `0 0 ${W} ${H}`, role: "img", "data-die": die.id,
                              "aria-label": t("dice.plot.label", { name: die.name }) });
    root.append(svg("title", { text: t("dice.plot.label", { name: die.name }) }));
    for (let tick = 0; tick <= ymax + 1e-9; tick += step) {
      root.append(svg("line", { class: "grid", x1: left, x2: W - right, y1: y(tick), y2: y(tick) }));
      root.append(svg("text", { class: "axis", x: left - 4, y: y(tick) + 3, "text-anchor": "end", text: pct(tick, 0) }));
    }
    const named = die.verdict.face;
    die.faces.forEach((f, i) => {
      const x = left + i * slot, width = Math.max(1, slot * 0.68), cx = x + slot / 2;
      const bar = svg("rect", { class: `bar${f.face === named ? " flagged" : ""}`, x: cx - width / 2, y: y(f.share),
                                width, height: Math.max(0, y(0) - y(f.share)), "data-face": f.face, "data-count": f.count },
        svg("title", { text: t("dice.plot.bar", { face: f.face, count: f.count, share: pct(f.share), low: pct(f.low), high: pct(f.high) }) }));
      root.append(bar);
      if (die.rolls) {
        const cap = Math.min(width / 2, 5);
        const whisker = svg("g", { class: "whisker", "data-face": f.face },
          svg("line", { x1: cx, x2: cx, y1: y(f.high), y2: y(f.low) }),
          svg("line", { x1: cx - cap, x2: cx + cap, y1: y(f.high), y2: y(f.high) }),
          svg("line", { x1: cx - cap, x2: cx + cap, y1: y(f.low), y2: y(f.low) }));
        root.append(whisker);
      }
      if (k <= 20 || f.face === 1 || f.face % 10 === 0) {
        root.append(svg("text", { class: "axis face", x: cx, y: H - bottom + 14, "text-anchor": "middle", text: String(f.face) }));
      }
    });
    root.append(svg("line", { class: "fair-line", x1: left, x2: W - right, y1: y(fair), y2: y(fair) }));
    return root;
  }

  function countsTable(die) {
    return el("div", { class: "table-wrap" }, el("table", { class: "generic counts" },
      el("thead", {}, el("tr", {}, ...["dice.face", "dice.count", "dice.share", "dice.interval"].map((k) => el("th", { text: t(k) })))),
      el("tbody", {}, ...die.faces.map((f) => el("tr", { dataset: { face: String(f.face) } },
        el("td", { text: String(f.face) }), el("td", { text: String(f.count) }), el("td", { text: die.rolls ? pct(f.share) : "–" }),
        el("td", { text: die.rolls ? `${pct(f.low)} – ${pct(f.high)}` : "–" }))))));
  }

  function numbers(die) {
    const lines = [el("p", { class: "dice-rolls", text: t("dice.rolls", { rolls: die.rolls, hand: die.hand, camera: die.camera }) })];
    if (die.testable) {
      lines.push(el("p", { class: "dice-test", text: t("dice.test", { chi2: die.chi2.toFixed(2), df: die.df, p: pText(die.p) }) }));
    } else {
      lines.push(el("p", { class: "dice-test hint", text: t("dice.test_needs", { need: die.need }) }));
    }
    return lines;
  }

  function parseValues(text) {
    return text.split(/[\s,;]+/).filter(Boolean).map((word) => (/^\d{1,6}$/.test(word) ? Number(word) : word));
  }

  async function enter(die, payload, result) {
    const done = await act(`dice/${die.id}/rolls`, payload);
    if (done) {
      result.textContent = t("dice.enter.added", { added: done.added });
      result.hidden = false;
      await load();
    }
  }

  function entryForm(die) {
    const result = el("p", { class: "dice-entry-result teach-result ok", role: "status", hidden: true });
    const values = el("textarea", { class: "dice-values", rows: "2", inputmode: "numeric",
                                    placeholder: t("dice.enter.placeholder", { sides: die.sides }), id: `dice-values-${die.id}` });
    const tally = el("div", { class: "tally" }, ...die.faces.map((f) => el("label", { class: "tally-face" }, String(f.face),
      el("input", { type: "number", min: "0", step: "1", inputmode: "numeric", dataset: { face: String(f.face) } }))));
    return el("details", { class: "dice-entry" },
      el("summary", { text: t("dice.enter.title") }),
      el("label", { for: `dice-values-${die.id}`, text: t("dice.enter.values") }), values,
      el("div", { class: "row" }, el("button", { type: "button", class: "small dice-add", text: t("dice.enter.button"),
        onclick: () => enter(die, { values: parseValues(values.value) }, result) })),
      el("details", { class: "dice-tally" }, el("summary", { text: t("dice.enter.tally") }), tally,
        el("div", { class: "row" }, el("button", { type: "button", class: "small dice-add-tally", text: t("dice.enter.tally_button"),
          onclick: () => {
            const counts = {};
            for (const input of tally.querySelectorAll("input")) if (input.value !== "") counts[input.dataset.face] = Number(input.value);
            enter(die, { counts }, result);
          } }))),
      result,
      el("div", { class: "row" }, el("button", { type: "button", class: "secondary small dice-undo-entry", text: t("dice.enter.undo"),
        disabled: die.hand ? null : true,
        onclick: async () => { if (await act(`dice/${die.id}/undo-entry`, {})) await load(); } })));
  }

  function teachSection(die) {
    if (!report || !report.can_teach) return null;
    const state = el("p", { class: "dice-look-state", text: die.looks ? t("dice.teach.state", { looks: die.looks }) : t("dice.teach.none") });
    return el("details", { class: "dice-teach" },
      el("summary", { text: t("dice.teach.title") }),
      el("p", { class: "hint", text: t("dice.teach.how") }),
      state,
      el("div", { class: "row" }, el("button", { type: "button", class: "small dice-teach-button", text: t("dice.teach.button"),
        onclick: async () => { if (await act(`dice/${die.id}/teach`, {})) await load(); } })),
      el("div", { class: "row" }, el("button", { type: "button", class: "secondary small dice-forget-look", text: t("dice.teach.forget"),
        disabled: die.looks ? null : true,
        onclick: async () => { if (await act(`dice/${die.id}/forget-look`, {})) await load(); } })));
  }

  function dieCard(die) {
    const atTable = el("input", { type: "checkbox", class: "dice-at-table", checked: die.at_table ? true : null,
      onchange: async () => { if (!(await act(`dice/${die.id}/update`, { at_table: atTable.checked }))) atTable.checked = !atTable.checked; } });
    return el("article", { class: `card my-die verdict-${die.verdict.kind}`, id: `die-${die.id}`, dataset: { die: String(die.id) } },
      el("h2", {}, die.colour ? el("span", { class: `swatch c-${die.colour}`, title: colourName(die.colour) }) : null,
        el("span", { class: "dice-name", text: die.name }), " ", el("small", { text: `d${die.sides}${die.colour ? ` · ${colourName(die.colour)}` : ""}` })),
      el("p", { class: "verdict", text: verdictText(die.verdict) }),
      plot(die),
      ...numbers(die),
      el("details", { class: "dice-counts" }, el("summary", { text: t("dice.counts") }), countsTable(die)),
      el("label", { class: "pick" }, atTable, t("dice.at_table")),
      teachSection(die),
      entryForm(die),
      el("div", { class: "row" },
        el("a", { class: "button secondary small dice-csv", href: `/api/dice.csv?die=${die.id}`, download: `goblin-die-${die.id}.csv`, text: t("dice.csv") })),
      el("div", { class: "row" },
        el("button", { type: "button", class: "secondary small dice-rename", text: t("dice.rename"),
          onclick: async () => {
            const name = window.prompt(t("dice.rename_ask"), die.name);
            if (name !== null && name.trim() && name.trim() !== die.name && (await act(`dice/${die.id}/update`, { name }))) await load();
          } }),
        el("button", { type: "button", class: "secondary small dice-remove", text: t("dice.remove"),
          onclick: async () => {
            if (window.confirm(t("dice.remove_ask", { name: die.name, rolls: die.rolls })) && (await act(`dice/${die.id}/remove`, {}))) await load();
          } })));
  }

  function waitingItem(roll) {
    const where = roll.step === null ? t("dice.waiting.page") : t("dice.waiting.step", { game: roll.game_id, step: roll.step });
    return el("li", { dataset: { roll: String(roll.id), sides: String(roll.sides) } },
      el("label", { class: "pick" }, el("input", { type: "checkbox", value: String(roll.id), dataset: { sides: String(roll.sides) } }),
        el("b", { text: `d${roll.sides}: ${roll.value}` }), " ", el("small", { text: where + (roll.hand ? ` · ${t("dice.waiting.hand")}` : "") })));
  }

  function renderWaiting(data) {
    const list = $("dice-waiting-list");
    list.replaceChildren(...data.waiting.map(waitingItem));
    if (data.unattributed.rolls > data.waiting.length) {
      list.append(el("li", { class: "hint", text: t("dice.waiting.more", { n: data.unattributed.rolls - data.waiting.length }) }));
    }
    const select = $("dice-waiting-die");
    select.replaceChildren(...data.dice.map((d) => el("option", { value: String(d.id), text: `${d.name} (d${d.sides})` })));
    show($("dice-waiting"), data.waiting.length > 0);
    $("dice-waiting-assign").disabled = !data.dice.length;
  }

  async function load() {
    let data;
    try {
      const response = await fetch("/api/dice");
      data = await response.json();
      if (!response.ok) { showError(data); return; }
    } catch (error) {
      showError({ error: "network", detail: String(error) });
      return;
    }
    report = data;
    const open = new Set([...document.querySelectorAll("#dice-list details[open]")].map((d) => `${d.closest("[data-die]").dataset.die}:${d.className}`));
    $("dice-list").replaceChildren(...data.dice.map(dieCard));
    for (const d of document.querySelectorAll("#dice-list details")) {  // what was open stays open
      if (open.has(`${d.closest("[data-die]").dataset.die}:${d.className}`)) d.open = true;
    }
    show($("dice-empty"), !data.dice.length);
    renderWaiting(data);
    document.body.dataset.diceLoaded = String((Number(document.body.dataset.diceLoaded) || 0) + 1);
  }

  $("dice-new").onsubmit = async (event) => {
    event.preventDefault();
    const payload = { name: $("dice-new-name").value, sides: Number($("dice-new-sides").value),
                      colour: $("dice-new-colour").value, at_table: $("dice-new-at-table").checked };
    if (await act("dice", payload)) {
      $("dice-new-name").value = "";
      await load();
    }
  };

  $("dice-waiting-assign").onclick = async () => {
    const rolls = [...document.querySelectorAll("#dice-waiting-list input:checked")].map((i) => Number(i.value));
    if (!rolls.length || !report) return;
    if (await act("dice/assign", { rolls, die: Number($("dice-waiting-die").value) })) await load();
  };

  load();
})();
