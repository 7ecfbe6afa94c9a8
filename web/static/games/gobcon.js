/* The table view of GobCon (loaded by app.js when the table plays it). */

import { view, card, facts, yesNo, actionForm } from "./kit.js";

const FACES = ["king", "green", "black", "darth"];
const RECENT_KEY = "goblin.gobcon.payoffs";

function recentPayoffs() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (error) {
    return [];
  }
}

function rememberPayoff(entry) {
  const list = recentPayoffs().filter((x) => !(x.name === entry.name && x.category === entry.category));
  list.unshift(entry);
  localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 8)));
}

function payoffText(p) {
  const letter = { king: "K", green: "G", black: "B", darth: "D" };
  return FACES.map((f) => `${letter[f]}${p[f] >= 0 ? "+" : ""}${p[f]}`).join(" ");
}

export const render = view(draw_gobcon);

function draw_gobcon(s, root, h) {
  const v = s.view;
  const t = h.t;
  const names = (v.players || []).map((p) => p.name);
  const category = (c) => (c ? t(`games.gobcon.category.${c}`, {}, c) : "–");

  root.append(card(h, "gob-now", null, facts(h, [
    [t("games.turn"), v.turn, "gob-turn"],
    [t("games.gobcon.current"), v.current, "gob-current"],
    [t("games.gobcon.target"), v.target === null ? t("games.gobcon.no_target") : t("games.gobcon.gp", { n: v.target }), "gob-target"],
    [t("games.gobcon.timed"), v.timed ? (v.time_up ? t("games.gobcon.time_up") : yesNo(h, true)) : null, "gob-timed"],
  ])));

  // the ledger: pile + cards = total
  const ledger = h.el("table", { class: "generic ledger", id: "gob-ledger" },
    h.el("thead", {}, h.el("tr", {}, [t("games.name"), t("games.gobcon.pile"), t("games.gobcon.cards"), t("games.gobcon.total")].map((x) => h.el("th", { text: x })))),
    h.el("tbody", {}, (v.players || []).map((p) => h.el("tr", { class: p.current ? "current" : "", dataset: { player: p.index } },
      h.el("td", {}, p.name, p.banned.length ? h.el("small", { text: ` ${t("games.gobcon.banned", { categories: p.banned.map(category).join(", ") })}` }) : null),
      h.el("td", { class: "pile", text: p.pile }),
      h.el("td", { class: "card-gp", text: `${p.card_gp >= 0 ? "+" : ""}${p.card_gp}` }),
      h.el("td", { class: "total" }, h.el("b", { text: p.total }))))));
  root.append(card(h, "gob-ledger-card", t("games.gobcon.ledger"), ledger,
    h.el("p", { class: "hint", text: t("games.gobcon.ledger_hint", { target: v.target ?? "–" }) })));

  // the Partita being resolved (or the last one)
  const partitaCard = (part, id, title) => {
    const rolls = h.el("table", { class: "generic", id: `${id}-rolls` },
      h.el("thead", {}, h.el("tr", {}, [t("games.name"), t("games.gobcon.rolled"), t("games.gobcon.face"), t("games.gobcon.change")].map((x) => h.el("th", { text: x })))),
      h.el("tbody", {}, part.rolls.map((r) => h.el("tr", {},
        h.el("td", { text: r.name }),
        h.el("td", { text: `${t(`games.gobcon.face.${r.rolled}`, {}, r.rolled)}${r.steps ? ` (${r.steps > 0 ? "+" : ""}${r.steps})` : ""}` }),
        h.el("td", { class: `face ${r.face}` }, h.el("b", { text: t(`games.gobcon.face.${r.face}`, {}, r.face) }),
          r.rule ? h.el("small", { text: ` ${t(`games.gobcon.rule.${r.rule}`, {}, r.rule)}` }) : null),
        h.el("td", { text: `${r.change >= 0 ? "+" : ""}${r.change}` })))));
    const payoff = h.el("table", { class: "generic payoff", id: `${id}-payoff` },
      h.el("tr", {}, FACES.map((f) => h.el("th", { class: `face ${f}`, text: t(`games.gobcon.face.${f}`) }))),
      h.el("tr", {}, FACES.map((f) => h.el("td", { text: part.payoff[f] }))));
    return card(h, id, title,
      h.el("p", { class: "partita-name" }, h.el("b", { text: part.name }), ` · ${category(part.category)}`),
      facts(h, [
        [t("games.gobcon.proposer"), part.proposer_name],
        [t("games.gobcon.participants"), part.participants.join(", "), `${id}-participants`],
        [t("games.gobcon.excluded"), part.excluded.length ? part.excluded.join(", ") : null],
        [t("games.gobcon.next_declarer"), part.next_declarer],
        [t("games.gobcon.next_roller"), part.next_roller ? `${part.next_roller}${part.next_roller_steps ? ` (${part.next_roller_steps > 0 ? "+" : ""}${part.next_roller_steps})` : ""}` : null, `${id}-next`],
        [t("games.gobcon.aex_equo"), part.aex_equo ? yesNo(h, true) : null],
      ]),
      payoff, part.rolls.length ? rolls : null,
      h.el("p", { class: "hint", text: t("games.gobcon.mapping") }));
  };
  if (v.partita) root.append(partitaCard(v.partita, "gob-partita", t("games.gobcon.partita")));
  else if (v.last_partita) root.append(partitaCard(v.last_partita, "gob-last", t("games.gobcon.last_partita")));

  // cards in play
  const inPlay = (v.players || []).filter((p) => p.cards.length);
  root.append(card(h, "gob-cards", t("games.gobcon.cards_in_play"),
    inPlay.length ? inPlay.map((p) => h.el("div", { class: "cards-of", dataset: { player: p.index } },
      h.el("h3", { text: p.name }),
      h.el("ul", {}, p.cards.map((c) => h.el("li", {},
        h.el("b", { text: c.name }), ` · ${t(`games.gobcon.kind.${c.kind}`, {}, c.kind)}`,
        c.category ? ` · ${category(c.category)}` : "",
        c.effect ? ` · ${t(`games.gobcon.effect.${c.effect}`, {}, c.effect)}${c.amount ? ` ${c.amount}` : ""}` : "",
        ` · ${t("games.gobcon.gp", { n: c.value })}`))))) : h.el("p", { class: "hint", text: t("games.gobcon.no_cards") })));

  if (v.outcome) {
    const o = v.outcome;
    root.append(card(h, "gob-outcome", null, h.el("h2", {
      class: "winner",
      text: o.tie ? t("games.tie", { names: o.winner_names.join(", ") }) : t("games.winner", { name: o.winner_names.join(", ") }),
    })));
    return;
  }

  // forms: a Partita with its payoff table (recent ones remembered), a card, a modifier, tokens
  const forms = h.el("section", { class: "card game-forms", id: "gob-forms" }, h.el("h2", { text: t("games.gobcon.enter") }));
  if (v.phase === "turn") {
    const recent = recentPayoffs();
    const partitaForm = actionForm(h, "gob-partita-form", t("games.gobcon.play_partita"), [
      { name: "name", label: t("games.gobcon.partita_name"), type: "text" },
      { name: "category", label: t("games.gobcon.category"), type: "select", options: ["3d", "board", "card", "gdr"].map((c) => [c, category(c)]) },
      ...FACES.map((f) => ({ name: f, label: t(`games.gobcon.face.${f}`), type: "int", inline: true, value: { king: 3, green: 1, black: 0, darth: -1 }[f] })),
    ], (x) => {
      if (!x.name) {
        h.act("correct", { action: { type: "partita", name: "", category: x.category } });  // the server names the problem
        throw new Error("missing name");
      }
      const payoff = {};
      for (const f of FACES) payoff[f] = x[f] ?? 0;
      rememberPayoff({ name: x.name, category: x.category, payoff });
      return { type: "partita", name: x.name, category: x.category, payoff };
    }, t("games.gobcon.play_partita"));
    if (recent.length) {
      partitaForm.insertBefore(h.el("div", { class: "recent", id: "gob-recent" },
        h.el("span", { class: "hint", text: t("games.gobcon.recent") }),
        recent.map((r, i) => h.el("button", {
          type: "button", class: "secondary small", dataset: { recent: i },
          onclick: () => {
            partitaForm.elements.name.value = r.name;
            partitaForm.elements.category.value = r.category;
            for (const f of FACES) partitaForm.elements[f].value = r.payoff[f];
          },
        }, `${r.name} (${payoffText(r.payoff)})`))), partitaForm.children[1]);
    }
    forms.append(partitaForm);
  }
  if (forms.childElementCount > 1) root.append(forms);
}
