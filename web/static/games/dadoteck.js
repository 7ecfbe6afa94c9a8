/* The table view of Dadoteck (loaded by app.js when the table plays it). */

import { view, card, facts, findChoice, tapChoice } from "./kit.js";

export const render = view(draw_dadoteck);

function draw_dadoteck(s, root, h) {
  const v = s.view;
  const t = h.t;
  const awaiting = v.awaiting || {};
  const players = v.players || [];

  // who the camera waits for, or which choice is open
  const waitLines = [];
  if (awaiting.kind === "roll") {
    // the camera reads one die at a time: the roller the status line names first, then who follows
    const names = awaiting.names || [];
    const now = (s.expects && s.expects.params && s.expects.params.player) || names[0];
    const then = names.filter((n) => n !== now);
    waitLines.push(then.length ? t("games.dadoteck.camera_waits_then", { player: now, die: awaiting.die, names: then.join(", ") })
      : t("games.dadoteck.camera_waits", { player: now, die: awaiting.die }));
  } else if (awaiting.kind === "square") {
    waitLines.push(t("games.dadoteck.choose_square", { player: awaiting.name }));
  } else if (awaiting.kind === "victim") {
    waitLines.push(t("games.dadoteck.choose_victim", { player: awaiting.name }));
  }
  const phase = t(`dadoteck.phase.${v.phase}`, {}, v.phase);
  root.append(card(h, "dado-now", null,
    facts(h, [
      [t("games.turn"), v.turn, "dado-turn"],
      [t("games.phase"), phase, "dado-phase"],
      [t("games.dadoteck.movement_die"), `d${v.movement_die}`, "dado-movement-die"],
      [t("games.dadoteck.initiative_die"), `d${(v.initiative || {}).die}`, "dado-initiative-die"],
    ]),
    waitLines.map((line) => h.el("p", { class: "wait", id: "dado-wait", text: line }))));

  // the board: 20 squares, special ones marked, pawns on them; squares and victims to tap
  const squareChoice = (n) => findChoice(s, (a) => a.type === "square" && a.square === n);
  const victimChoice = (p) => findChoice(s, (a) => a.type === "victim" && a.player === p);
  const board = h.el("div", { class: "dado-board", id: "dado-board" });
  for (const sq of v.board || []) {
    const choice = squareChoice(sq.square);
    const classes = ["sq"];
    if (sq.special) classes.push(`special ${sq.special}`);
    if (sq.special && !sq.active) classes.push("dormant");
    if (!sq.in_play) classes.push("out");
    if (choice) classes.push("option");
    if (choice && s.selected === choice.index) classes.push("selected");
    const pawn = sq.pawn === null || sq.pawn === undefined ? null : players[sq.pawn];
    const victim = pawn ? victimChoice(pawn.index) : null;
    const pawnNode = pawn ? h.el(victim ? "button" : "span", {
      class: `pawn p${pawn.index % 8}${pawn.moving ? " moving" : ""}${victim ? " victim" : ""}`,
      type: victim ? "button" : null,
      dataset: { player: pawn.index },
      title: victim ? t("dadoteck.choice.victim", { player: pawn.name }) : pawn.name,
      onclick: victim ? tapChoice(h, s, victim) : null,
    }, pawn.name) : null;
    board.append(h.el(choice ? "button" : "div", {
      class: classes.join(" "),
      type: choice ? "button" : null,
      id: `dado-sq-${sq.square}`,
      dataset: { square: sq.square },
      title: choice ? t("dadoteck.choice.square", { square: sq.square }) : null,
      onclick: choice ? tapChoice(h, s, choice) : null,
    },
    h.el("b", { text: sq.square }),
    sq.special ? h.el("small", { text: t(`games.dadoteck.special.${sq.special}`) }) : null,
    pawnNode));
  }
  root.append(card(h, "dado-board-card", t("games.dadoteck.board"), board,
    h.el("p", { class: "hint", text: t("games.dadoteck.board_hint") })));

  // the players and the initiative order
  const init = v.initiative || {};
  const order = h.el("ol", { class: "dado-order", id: "dado-order" },
    (init.order || []).map((name) => {
      const p = players.find((x) => x.name === name) || {};
      return h.el("li", { class: `${p.moved ? "moved" : ""}${p.moving ? " moving" : ""}${p.alive === false ? " out" : ""}` },
        name, p.moving ? h.el("small", { text: ` · ${t("games.dadoteck.moving")}` }) : null,
        p.moved ? h.el("small", { text: ` · ${t("games.dadoteck.moved")}` }) : null);
    }));
  const rolls = (init.rolling || []).map((r) => `${r.name} ${r.value}`).join(" · ");
  const rounds = (init.rounds || []).map((round, i) =>
    h.el("li", { text: `${t("games.dadoteck.round", { n: i + 1 })}: ${round.map((r) => `${r.name} ${r.value}`).join(", ")}` }));
  root.append(card(h, "dado-initiative", t("games.dadoteck.initiative"),
    (init.order || []).length ? order : h.el("p", { class: "hint", text: t("games.dadoteck.no_order") }),
    rolls ? h.el("p", { id: "dado-rolling", text: `${t("games.dadoteck.rolling")}: ${rolls}` }) : null,
    (init.groups || []).filter((g) => g.length > 1).map((g) => h.el("p", { class: "tie", text: t("games.dadoteck.tie", { names: g.join(", ") }) })),
    rounds.length ? h.el("ul", { class: "rounds" }, rounds) : null));

  const table = h.el("table", { class: "generic", id: "dado-players" },
    h.el("thead", {}, h.el("tr", {}, [t("games.name"), t("games.dadoteck.square"), t("games.dadoteck.state")].map((x) => h.el("th", { text: x })))),
    h.el("tbody", {}, players.map((p) => h.el("tr", { class: p.alive ? "" : "out", dataset: { player: p.index } },
      h.el("td", { text: p.name }),
      h.el("td", { text: p.square ?? "–" }),
      h.el("td", { text: p.alive ? (p.moving ? t("games.dadoteck.moving") : p.moved ? t("games.dadoteck.moved") : t("games.dadoteck.in_play")) : t("games.dadoteck.out") })))));
  root.append(card(h, "dado-players-card", t("games.players"), table));

  const elims = v.eliminations || [];
  if (elims.length) {
    root.append(card(h, "dado-eliminations", t("games.dadoteck.eliminations"),
      h.el("ol", {}, elims.map((e) => h.el("li", {
        text: t(`games.dadoteck.cause.${e.cause}`, { name: e.name, by: e.by_name || "", square: e.square ?? "", turn: e.turn }, `${e.name} (${e.cause})`),
      })))));
  }
  if (v.outcome) {
    const o = v.outcome;
    root.append(card(h, "dado-outcome", null, h.el("h2", {
      class: "winner",
      text: o.winner_name ? t("games.winner", { name: o.winner_name }) : t("games.dadoteck.no_winner"),
    })));
  }
}
