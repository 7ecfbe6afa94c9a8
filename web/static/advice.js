/* Button Goblin's attack advisor on the table page, on request only: games/button-goblin.js's adviceCard shows a
   Consiglio button while a player chooses an attack; its tap asks GET /api/advice, then loads this file and
   Button Goblin's words (games/button-goblin.<lang>.json, already there with its view), so the table page stays light. This
   draws the answer, kept for the step it was asked at: the five attacks of highest expected net, the
   others folded. */
(() => {
  "use strict";

  window.goblinAdvice = (card, s, data, h) => {
    const { el, t, describeDice, fmtScore } = h;
    const v = s.view;
    const mover = v.players[data.player];
    const other = v.players[1 - data.player];
    const pct = (x) => `${Math.round(x * 100)}%`;
    const signed = (x) => (x > 0 ? "+" : "") + fmtScore(Math.round(x * 10) / 10);
    const kind = (k) => t(`attack.name.${k}`, {}, k);
    const items = data.attacks.filter((a) => a.analysed)
      .sort((a, b) => b.expected_net - a.expected_net || b.win.probability - a.win.probability);
    const line = (a) => {
      const r = a.reply.likeliest[0];
      const reply = !r ? "" : r.attack === null ? t("bg.advice.reply_pass") : t("bg.advice.reply",
        { p: pct(r.probability), kind: kind(r.attack.type), attackers: r.message.params.attackers,
          targets: r.message.params.targets });
      const fire = a.attack.fire ? ` · ${t("bg.advice.fire", { n: a.attack.fire })}` : "";
      const what = t("attack.detail", { attackers: describeDice(mover.dice, a.attack.attackers),
        targets: describeDice(other.dice, a.attack.targets), fire }, a.text);
      return el("li", { class: a.best ? "best" : null },
        el("b", { text: `${kind(a.attack.type)}: ${what}` }), a.best ? ` — ${t("bg.advice.best")}` : "",
        el("br"), t("bg.advice.numbers", { points: signed(a.score_change), net: signed(a.expected_net),
          win: pct(a.win.probability), low: pct(a.win.low), high: pct(a.win.high), n: a.win.simulations }),
        reply ? el("br") : null, reply ? el("small", { text: reply }) : null);
    };
    const more = items.slice(5);  // a phone is not flooded with 50 attacks
    card.append(el("h2", { text: t("bg.advice.title", { name: data.name }) }),
      el("p", { class: "hint", text: t("bg.advice.how") }),
      el("ol", { id: "advice-list" }, items.slice(0, 5).map(line)),
      more.length ? el("details", { id: "advice-more" },
        el("summary", { text: t("bg.advice.more", { n: more.length }) }),
        el("ol", { start: 6 }, more.map(line))) : null);
    return card;
  };
})();
