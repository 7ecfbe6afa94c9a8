/* The table view of Button Goblin (loaded by app.js when the table plays it): the two buttons' dice with
   the camera's unconfirmed reading on them, the scores, initiative and rounds; and the words of its attacks
   and of its dice's slots. helpers = {el, t, has, act, fmt, fmtScore, showError, renderGeneric} (app.js). */

function dieChip(h, die, opts) {
  const { el } = h;
  const sides = die.sides && die.sides.length ? die.sides : null;
  const size = die.size === null || die.size === undefined ? "?" : die.size;
  return el("span", {
    class: `die${die.barred ? " barred" : ""}${die.reroll ? " reroll" : ""}${die.proposed ? " proposed" : ""}${opts && opts.captured ? " captured" : ""}`,
    title: die.label || "",
  },
  el("b", { text: die.value === null || die.value === undefined ? "–" : die.value }),
  el("small", { text: die.twin && sides ? `(${sides.join(",")})` : `d${size}` }),
  (die.skills || []).length ? el("i", { text: die.skills.join(" ") }) : null);
}

/** "d6 #2 (4)": the size, which of that size when there are several (as the flow counts), the value. */
function dieName(dice, i) {
  const d = dice[i];
  if (!d) return `#${i + 1}`;
  const same = dice.filter((x) => x.size === d.size);
  const nth = same.length > 1 ? ` #${same.indexOf(d) + 1}` : "";
  return `d${d.size}${nth} (${d.value})`;
}

function describeDice(dice, indices) {
  return indices.map((i) => dieName(dice, i)).join(" + ");
}

/** An attack in the page's language, from the action and the dice it names. */
function attackText(h, s, choice) {
  const { t } = h;
  const view = s.view || {};
  const a = choice.action || {};
  if (a.type !== "attack" || !view.turn) return t(choice.key, choice.params, choice.label);
  const mover = view.players[view.turn.player];
  const other = view.players[1 - view.turn.player];
  const fire = (a.fire || []).map((f) => {
    const d = mover.dice[f.die];
    return d ? t("attack.fire_part", { die: dieName(mover.dice, f.die).replace(/ \(.*/, ""), from: d.value, to: f.to }, `fire ${d.value}→${f.to}`) : "";
  }).filter(Boolean);
  return t("attack.detail", {
    kind: t(`group.${a.kind}`, {}, a.kind),
    attackers: describeDice(mover.dice, a.attackers || []),
    targets: describeDice(other.dice, a.targets || []),
    fire: fire.length ? ` · ${fire.join(", ")}` : "",
  }, choice.label);
}

let advice = null;  // the advice asked for, with the step it was asked at (static/advice.js draws it)

/** The attack advisor, on request only: a Consiglio button while a player chooses an attack; its tap asks
    GET /api/advice, then loads static/advice.js and the games' catalogue, which draw the answer. */
function adviceCard(s, h) {
  const { el, t, fmtScore } = h;
  const card = el("section", { class: "card", id: "advice" });
  if (advice && advice.step === s.step) return window.goblinAdvice(card, s, advice.data, { el, t, describeDice, fmtScore });
  const ask = el("button", { class: "secondary", id: "advice-ask", text: t("bg.advice.ask") });
  ask.onclick = async () => {
    ask.disabled = true;
    const r = await fetch("/api/advice");
    const data = await r.json();
    if (!r.ok) { ask.disabled = false; return h.showError(data); }
    await Promise.all([window.goblin.loadWords("button-goblin"), window.goblinAdvice ||
      new Promise((onload) => document.head.append(el("script", { src: "/static/advice.js", onload })))]);
    advice = { step: data.step, data: data.advice };
    window.goblin.rerender();
  };
  card.append(ask);
  return card;
}

export function render(s, root, h) {
  if (!Array.isArray((s.view || {}).players)) return h.renderGeneric(s, root);
  const { el, t, fmt, fmtScore } = h;
  const v = s.view;
  const facts = el("dl", { class: "facts" },
    el("dt", { text: t("bg.round") }), el("dd", { text: v.round }),
    el("dt", { text: t("bg.rounds_won") }), el("dd", { id: "rounds-won", text: v.players.map((p) => `${p.name} ${p.rounds_won}`).join(" – ") }));
  if (v.turn) facts.append(el("dt", { text: t("bg.turn") }), el("dd", { id: "turn", text: v.turn.name }));
  if (v.initiative && v.initiative.player !== null && v.initiative.player !== undefined) {
    facts.append(el("dt", { text: t("bg.initiative") }),
      el("dd", { id: "initiative" }, el("b", { text: v.players[v.initiative.player].name }), " — ", fmt(v.initiative.reason_message || v.initiative.reason)));
  }
  if (v.scores) {
    facts.append(el("dt", { text: t("bg.scores_now") }),
      el("dd", { id: "scores", text: v.players.map((p, i) => `${p.name} ${fmtScore(v.scores[i])}`).join(" – ") }));
  }
  if (v.last_round) {
    const lr = v.last_round;
    facts.append(el("dt", { text: t("bg.last_round", { round: lr.round }) }),
      el("dd", { text: `${lr.scores.map(fmtScore).join(" – ")} · ${lr.tie ? t("bg.tie") : t("bg.winner", { name: v.players[lr.winner].name })}` }));
  }
  root.append(el("section", { class: "card" }, facts));
  if (v.phase === "play" && v.turn && (v.attacks || []).length) root.append(adviceCard(s, h));
  // the camera's reading, not confirmed yet, shows on the dice it is for (dashed)
  const read = (s.proposal && s.proposal.action && s.proposal.action.values) || {};
  const proposed = (p, i, die) => {
    const one = read[`p${p}.${i}`];
    const twin = read[`p${p}.${i}a`] !== undefined ? read[`p${p}.${i}a`] + read[`p${p}.${i}b`] : undefined;
    const value = one !== undefined ? one : twin;
    return value === undefined ? die : { ...die, value, proposed: true };
  };
  v.players.forEach((p, i) => {
    const mine = v.turn && v.turn.player === i;
    root.append(el("section", { class: `card player${mine ? " to-move" : ""}`, id: `player-${i}` },
      el("h2", {}, p.name, " ", el("small", { text: `${p.button} · ${p.recipe}` })),
      el("div", { class: "dice" }, p.dice.map((d, n) => dieChip(h, proposed(i, n, d)))),
      p.captured.length ? el("p", { class: "captured" }, t("bg.captured"), " ", p.captured.map((d) => dieChip(h, d, { captured: true }))) : null,
      el("p", { class: "meta" },
        p.score !== null && p.score !== undefined ? t("bg.score", { score: fmtScore(p.score) }) : "",
        " ", t("bg.won", { n: p.rounds_won }))));
  });
  if (v.outcome) root.append(el("section", { class: "card over" }, el("h2", { text: t("match.over", { winner: v.outcome.name }) })));
}

/** A choice in the page's language: an attack or a focus names the dice it moves; else undefined (the
    flow's own words). */
export function choiceText(s, c, h) {
  const a = c.action || {};
  if (a.type === "attack") return attackText(h, s, c);
  if (a.type === "focus" && s.view && s.view.players) {
    const player = s.view.players[a.player];
    const dice = Object.entries(a.dice || {}).map(([i, to]) =>
      `${dieName(player.dice, Number(i)).replace(/ \(.*/, "")} ${player.dice[i] ? player.dice[i].value : "?"}→${to}`);
    return h.t("focus.detail", { player: player.name, dice }, c.label);
  }
  return undefined;
}

/** Which die a slot is, in words a player can match with the tray: the die's place in the button and its
    skills (undefined: not one of the button's dice). */
export function slotLabel(s, slot, h) {
  const m = /^p(\d+)\.(\d+)([ab]?)$/.exec(slot.key);
  const players = s.view && s.view.players;
  if (!m || !players || !players[m[1]]) return undefined;
  const player = players[m[1]];
  const die = player.dice[Number(m[2])];
  if (!die) return undefined;
  const half = m[3] ? ` (${m[3] === "a" ? 1 : 2}/2)` : "";
  return h.t("correct.bg_die", { player: player.name, n: Number(m[2]) + 1, die: `d${slot.sides}${half}`,
    skills: die.skills.length ? ` ${die.skills.join(" ")}` : "" }, slot.label);
}
