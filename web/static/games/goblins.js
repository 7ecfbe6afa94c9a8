/* The table view of Goblins: Epic Death (loaded by app.js when the table plays it). */

import { view, newsCard, card, facts, yesNo } from "./kit.js";

export const render = view(draw_goblins, ["log", "toss", "awaiting"]);

function draw_goblins(s, root, h) {
  const v = s.view;
  const t = h.t;
  const phase = v.phase === "over" ? t("games.over") : t(`goblins.phase.${v.phase}`, {}, v.phase);
  root.append(card(h, "gob-turn-card", null, facts(h, [
    [t("games.goblins.turn_of"), v.current_name, "goblins-current"],
    [t("games.phase"), phase, "goblins-phase"],
    [t("games.goblins.centre_left"), v.centre_left, "goblins-centre"],
  ])));

  // the toss the camera counts
  if (v.toss) {
    const p = s.proposal && s.proposal.action;
    const counted = p && "alive" in p ? p : null;
    root.append(card(h, "goblins-toss", t("games.goblins.toss"),
      h.el("p", { text: t(`goblins.toss.${v.toss.purpose}`, v.toss, v.toss.why) }),
      h.el("div", { class: "tokens-count" },
        h.el("div", { class: "alive" }, h.el("b", { id: "goblins-alive", text: counted ? counted.alive : "?" }), h.el("small", { text: t("tokens.alive") })),
        h.el("div", { class: "dead" }, h.el("b", { id: "goblins-dead", text: counted ? counted.dead : "?" }), h.el("small", { text: t("tokens.dead") })),
        h.el("div", {}, h.el("b", { id: "goblins-count", text: v.toss.count }), h.el("small", { text: t("games.goblins.tossed") }))),
      h.el("p", { class: "hint", text: counted ? t("games.goblins.confirm_hint") : t("games.goblins.toss_hint") })));
  }

  // the combat, with the Epic Death threshold
  if (v.combat) {
    const c = v.combat;
    const terrain = c.terrain;
    const half = Math.floor(c.modified_defence / 2);
    root.append(card(h, "goblins-combat", t("games.goblins.combat", { terrain: terrain.name }), facts(h, [
      [t("games.goblins.defence"), terrain.defence],
      [t("games.goblins.reduction"), c.reduction ? `−${c.reduction}` : "0"],
      [t("games.goblins.modified_defence"), c.modified_defence, "goblins-md"],
      [t("games.goblins.attack"), c.attack, "goblins-attack"],
      [t("games.goblins.requirement"), terrain.requires ? `${t(`games.goblins.requires.${terrain.requires}`, {}, terrain.requires)} · ${yesNo(h, c.requirements_met)}` : null],
      [t("games.goblins.epic_threshold"), t("games.goblins.epic_rule", { half, md: c.modified_defence }), "goblins-epic-threshold"],
      [t("games.goblins.epic_allowed"), yesNo(h, c.epic_death_allowed), "goblins-epic-allowed"],
      [t("games.goblins.epic"), c.epic ? yesNo(h, true) : null],
      [t("games.goblins.result"), c.won === null || c.won === undefined ? null : (c.won ? t("games.goblins.won") : t("games.goblins.lost")), "goblins-result"],
    ])));
  }

  const news = newsCard(h, "goblins-news", v.log);
  if (news) root.append(news);

  // the armies
  for (const p of v.players || []) {
    root.append(h.el("section", { class: `card army${p.current ? " to-move" : ""}`, id: `army-${p.index}` },
      h.el("h2", {}, p.name, " ", h.el("small", { text: `${t("games.goblins.vp", { n: p.vp })} · #${p.rank}` })),
      facts(h, [
        [t("games.goblins.troops"), p.troops, `army-${p.index}-troops`],
        [t("games.goblins.attack"), p.attack, `army-${p.index}-attack`],
        [t("games.goblins.brawl_attack"), p.brawl_attack],
        [t("games.goblins.heroes"), p.heroes.length ? p.heroes.map((x) => `${x.name} (${t("games.goblins.hero_detail", { attack: x.attack, cost: x.cost })})`).join(", ") : null, `army-${p.index}-heroes`],
        [t("games.goblins.machines"), p.machines.length ? p.machines.map((m) => `${m.name} (−${m.reduction}, ${t("games.goblins.crew", { n: m.crew_size ?? m.crew ?? "" })}${m.crewed ? "" : `, ${t("games.goblins.uncrewed")}`})`).join(", ") : null],
        [t("games.goblins.pile"), p.pile.length ? p.pile.map((x) => `${x.name} (${x.vp})`).join(", ") : null],
      ])));
  }
  if (v.outcome && v.outcome.winner_name) {
    root.append(card(h, "goblins-outcome", null, h.el("h2", { class: "winner", text: t("games.winner", { name: v.outcome.winner_name }) })));
  }
}
