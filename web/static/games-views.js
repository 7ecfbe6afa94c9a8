/* Dedicated table views (loaded by static/games.js) of Dadoteck, GobCon, Goblins: Epic Death and the skirmish rules.
   app.js calls window.goblinViews[game](snapshot, root, helpers) instead of its generic renderer;
   helpers = {el, t, has, act, fmt, renderGeneric}. Every word goes through the i18n catalogue (t). */
(() => {
  "use strict";

  const views = (window.goblinFullViews = window.goblinFullViews || {});

  /** The helpers with `t` reading this file's own catalogue (games.<lang>.json) first. */
  function own(h) {
    const M = window.goblinGameMessages || {};
    const t = (key, params, fallback) => {
      if (!Object.prototype.hasOwnProperty.call(M, key)) return h.t(key, params, fallback);
      return String(M[key]).replace(/\{(\w+)\}/g, (whole, name) =>
        params && params[name] !== undefined && params[name] !== null ? h.fmt(params[name]) : whole);
    };
    return Object.assign({}, h, { t });
  }

  /** After a dedicated view: the generic view folded away (every field of the view but `omit`, which the
      dedicated view already shows in the page's language) and the flow's forms. */
  function generic(h, s, root, omit) {
    const scratch = h.el("div");
    const view = Object.assign({}, s.view);
    for (const key of omit || []) delete view[key];
    h.renderGeneric(Object.assign({}, s, { view }), scratch);
    const data = scratch.querySelector("#generic-view");
    if (data) {
      data.removeAttribute("id");
      data.classList.remove("card");
      root.append(h.el("details", { class: "card all-data", id: "generic-view" }, h.el("summary", { text: h.t("games.all_data") }), data));
    }
    const forms = scratch.querySelector("#forms");
    if (forms) root.append(forms);
  }

  // ------------------------------------------------------------------------------------ shared

  /** What the last confirmed step did: the core's log lines ({key, params, text}), translated. */
  function newsCard(h, id, lines) {
    if (!lines || !lines.length) return null;
    return card(h, id, h.t("games.news"),
      h.el("ul", { class: "news" }, lines.map((l) => h.el("li", { text: typeof l === "string" ? l : h.t(l.key, l.params, l.text) }))));
  }

  function card(h, id, title, ...children) {
    return h.el("section", { class: "card game-card", id }, title ? h.el("h2", { text: title }) : null, ...children);
  }

  function facts(h, pairs) {
    const dl = h.el("dl", { class: "facts" });
    for (const [label, value, id] of pairs) {
      if (value === null || value === undefined || value === "") continue;
      dl.append(h.el("dt", { text: label }), h.el("dd", { id }, value instanceof Node ? value : String(value)));
    }
    return dl;
  }

  function yesNo(h, v) {
    return v ? h.t("value.yes") : h.t("value.no");
  }

  /** The choice (from the snapshot) whose action matches `test`, or undefined. */
  function findChoice(s, test) {
    return (s.choices || []).find((c) => c.action && test(c.action));
  }

  function tapChoice(h, s, choice) {
    return () => h.act("choose", { index: choice.index });
  }

  /** A small form of labelled inputs whose submit sends `build(values)` as a manual action. */
  function actionForm(h, id, title, fields, build, submitText) {
    const form = h.el("form", { class: "game-form", id, novalidate: true });
    form.append(h.el("h3", { text: title }));
    for (const f of fields) {
      const fid = `${id}-${f.name}`;
      let input;
      if (f.type === "select") {
        input = h.el("select", { id: fid, name: f.name },
          f.options.map(([value, text]) => h.el("option", { value, text, selected: value === f.value ? true : null })));
      } else if (f.type === "bool") {
        form.append(h.el("label", { class: "check" },
          h.el("input", { type: "checkbox", id: fid, name: f.name, checked: f.value ? true : null }), " ", f.label));
        continue;
      } else if (f.type === "textarea") {
        input = h.el("textarea", { id: fid, name: f.name, rows: 3, placeholder: f.placeholder || "" });
      } else {
        input = h.el("input", {
          id: fid, name: f.name, type: f.type === "int" ? "number" : "text", inputmode: f.type === "int" ? "numeric" : null,
          value: f.value ?? "", placeholder: f.placeholder || "", autocomplete: "off",
        });
      }
      form.append(h.el("div", { class: f.inline ? "field inline" : "field" }, h.el("label", { for: fid, text: f.label }), input));
    }
    form.append(h.el("button", { type: "submit", class: "secondary", id: `${id}-send`, text: submitText || h.t("games.form.send") }));
    form.onsubmit = async (event) => {
      event.preventDefault();
      const values = {};
      for (const f of fields) {
        const input = form.elements[f.name];
        if (f.type === "bool") values[f.name] = input.checked;
        else if (f.type === "int") values[f.name] = input.value === "" ? null : Number(input.value);
        else values[f.name] = input.value.trim();
      }
      let action;
      try {
        action = build(values);
      } catch (error) {
        return;  // build already showed what is missing
      }
      if (action) await h.act("correct", { action });
    };
    return form;
  }

  // ---------------------------------------------------------------------------------- Dadoteck

  views.dadoteck = (s, root, h0) => {
    const h = own(h0);
    try { draw_dadoteck(s, root, h); } finally { generic(h, s, root); }
  };

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

  // ------------------------------------------------------------------------------------ GobCon

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

  views.gobcon = (s, root, h0) => {
    const h = own(h0);
    try { draw_gobcon(s, root, h); } finally { generic(h, s, root); }
  };

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

  // -------------------------------------------------------------------------- Goblins: Epic Death

  views.goblins = (s, root, h0) => {
    const h = own(h0);
    try { draw_goblins(s, root, h); } finally { generic(h, s, root, ["log", "toss", "awaiting"]); }
  };

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

  // ----------------------------------------------------------------------------------- skirmish

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

  views.skirmish = (s, root, h0) => {
    const h = own(h0);
    try { draw_skirmish(s, root, h); } finally { generic(h, s, root, ["log", "pending", "held", "awaiting"]); }
  };

  function draw_skirmish(s, root, h) {
    const v = s.view;
    const t = h.t;
    const bands = v.bands || [];

    // the roll about to be made (target, every modifier, chance) is the table's "Prima del tiro" box (app.js)
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
})();
