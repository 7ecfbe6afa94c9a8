/* The table view of the skirmish rules (loaded by app.js when the table plays it). */

import { view, own, newsCard, card, facts } from "./kit.js";

const CYCLE = ["tiro2", "tiro3", "assalto2", "assalto3", "speciale"];
const CLOCK_KEY = "goblin.skirmish.clock.";
let clockTimer = null;

function clockStart(gameId, elapsed) {
  const key = CLOCK_KEY + gameId;
  let start = Number(localStorage.getItem(key));
  if (!start) {
    start = Date.now() - elapsed * 1000;
    localStorage.setItem(key, String(start));
  }
  return Math.min(start, Date.now() - elapsed * 1000);
}

function mmss(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export const render = view(draw_skirmish, ["log", "pending", "held", "awaiting"]);

function draw_skirmish(s, root, h) {
  const v = s.view;
  const t = h.t;
  const bands = v.bands || [];

  // the roll about to be made (target, every modifier, chance) is the table's "Prima del tiro" box (renderCheck below)
  if (v.held) {
    root.append(card(h, "sk-held", t("games.skirmish.held"),
      h.el("p", { text: t("games.skirmish.held_text", { dice: v.held.dice.join(" + "), need: v.held.spend_at_least, points: v.held.points }) })));
  }

  // every pending test, not only the first
  const EACH_BAND = ["deploy", "first"];
  const pending = v.pending || [];
  if (pending.length) {
    root.append(card(h, "sk-pending", t("games.skirmish.pending", { n: pending.length }),
      h.el("ol", {}, pending.map((p, i) => h.el("li", { class: i === 0 ? "head" : "", dataset: { kind: p.kind } },
        h.el("b", { text: t(`games.skirmish.kind.${p.kind}`, {}, p.what) }), " · ",
        // deployment and first card: each band rolls one die (the flow counts both dice on band 0)
        EACH_BAND.includes(p.kind) ? t("games.skirmish.each_band", { bands: (v.bands || []).map((b) => b.name).join(", ") })
          : [p.model_name ? `${p.model_name} (${p.band_name})` : p.band_name, p.dice > 1 ? ` · ${p.dice}d6` : ""].join(""))))));
  }

  const news = newsCard(h, "sk-news", v.log);
  if (news) root.append(news);

  // VP, turn, clock
  const clock = v.clock || {};
  const clockNode = h.el("span", { id: "sk-clock" });
  root.append(card(h, "sk-score", null, facts(h, [
    [t("games.turn"), v.turn, "sk-turn"],
    [t("games.phase"), t(`skirmish.phase.${v.phase}`, {}, v.phase), "sk-phase"],
    [t("games.skirmish.vp"), bands.map((b) => `${b.name} ${b.vp}`).join(" – "), "sk-vp"],
    [t("games.skirmish.to_play"), bands[v.to_play] ? bands[v.to_play].name : null],
    [t("games.skirmish.card"), v.card ? v.card.name : null, "sk-card"],
    [t("games.skirmish.clock"), clock.limit_s ? clockNode : null],
  ])));
  if (clockTimer) clearInterval(clockTimer);
  clockTimer = null;
  if (clock.limit_s && s.game_id !== undefined) {
    const start = clockStart(s.game_id, clock.elapsed_s || 0);
    const tick = () => {
      const elapsed = v.over ? clock.elapsed_s : (Date.now() - start) / 1000;
      clockNode.textContent = `${mmss(elapsed)} / ${mmss(clock.limit_s)}`;
      clockNode.className = elapsed >= clock.limit_s ? "late" : "";
      clockNode.dataset.elapsed = String(Math.floor(elapsed));
    };
    tick();
    if (!v.over) clockTimer = setInterval(tick, 1000);
  }

  // the card cycle of each band
  root.append(card(h, "sk-cycle", t("games.skirmish.cycle"),
    bands.map((b) => h.el("div", { class: "cycle", dataset: { band: b.index } },
      h.el("span", { class: "band-name", text: b.name }),
      CYCLE.map((c) => {
        const inHand = b.hand.some((x) => x.card === c);
        const current = v.card && v.card.card === c && v.to_play === b.index;
        const name = (b.hand.concat(b.played).find((x) => x.card === c) || { name: c }).name;
        return h.el("span", { class: `cyc${inHand ? "" : " played"}${current ? " current" : ""}`, dataset: { card: c }, text: name });
      })))));

  // the rosters
  for (const b of bands) {
    const rows = b.models.map((m) => h.el("tr", { class: `st-${m.status}${m.acted ? " acted" : ""}`, dataset: { model: m.index } },
      h.el("td", {}, m.captain ? "★ " : "", m.name),
      h.el("td", { text: m.tiro ?? "–" }),
      h.el("td", { text: m.assalto ?? "–" }),
      h.el("td", { text: m.salvezza ?? "–" }),
      h.el("td", { text: m.points }),
      h.el("td", { text: [m.status === "ok" ? "" : t(`games.skirmish.status.${m.status}`, {}, m.status), m.level ? t("games.skirmish.hero", { level: m.level, points: m.heroism }) : "", ...m.abilities.filter((a) => a !== "capitano").map((a) => t(`games.skirmish.ability.${a}`, {}, a))].filter(Boolean).join(", ") })));
    root.append(h.el("section", { class: `card band${v.to_play === b.index ? " to-move" : ""}`, id: `band-${b.index}` },
      h.el("h2", {}, b.name, " ", h.el("small", { text: t("games.skirmish.strength", { n: b.strength, start: b.start }) + (b.below_half ? ` · ${t("games.skirmish.below_half")}` : "") })),
      h.el("div", { class: "table-wrap" }, h.el("table", { class: "generic roster" },
        h.el("thead", {}, h.el("tr", {}, [t("games.name"), "T", "A", "S", "P", t("games.skirmish.notes")].map((x) => h.el("th", { text: x })))),
        h.el("tbody", {}, rows)))));
  }
  if (v.outcome) {
    root.append(card(h, "sk-outcome", null, h.el("h2", { class: "winner", text: v.outcome.winner_name ? t("games.winner", { name: v.outcome.winner_name }) : t("games.draw") })));
  }
}

/** The table's "Prima del tiro" box (`box`): what the roll about to be made needs, every modifier and the
    exact chance; true when there is one. */
export function renderCheck(s, box, h0) {
  const h = own(h0);
  const check = s.expects && s.expects.params && s.expects.params.check;
  if (!check) return false;
  const mods = (check.modifiers || []).map((m) =>
    h.el("li", { text: `${h.t(`modifier.${m.label}`, {}, m.label)} ${m.value > 0 ? "+" : ""}${m.value}` }));
  box.replaceChildren(
    h.el("h2", { text: h.t("check.title") }),
    h.el("p", { class: "needs" }, h.el("b", { id: "check-needs", text: h.t("check.needs", { needs: h.t(`skirmish.needs.${check.needs}`, {}, check.needs), dice: check.dice }) }),
      " · ", h.el("span", { id: "check-chance", text: h.t("check.chance", { chance: check.chance, percent: h.fmtScore(check.chance_percent) }) })),
    h.el("p", { class: "hint", id: "check-who", text: check.label_message ? h.fmt(check.label_message) : check.label || "" }),
    h.el("p", { text: h.t("check.characteristic", { kind: h.t(`check.kind.${check.kind}`, {}, check.kind), value: check.characteristic }) }),
    mods.length ? h.el("ul", { class: "modifiers" }, mods) : h.el("p", { class: "hint", text: h.t("check.no_modifiers") }),
    check.heroism ? h.el("p", { text: h.t(check.heroism === 1 ? "check.heroism_one" : "check.heroism", { points: check.heroism, chance: check.chance_with_heroism }) }) : "");
  return true;
}
