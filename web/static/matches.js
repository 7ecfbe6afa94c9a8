/* The setup page's list of matches: every match kept in the log (GET /api/matches), each with its export
   and, for an archived one that was not finished, Resume (POST /api/resume). Uses app.js's helpers. */
(() => {
  "use strict";

  const { t, el, show, showError, act } = window.goblin;
  const $ = (id) => document.getElementById(id);

  function matchDate(seconds) {
    const lang = document.body.dataset.lang === "en" ? "en-GB" : "it-IT";
    return new Date(seconds * 1000).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  }

  function matchResult(m) {
    if (m.over) return m.winners.length ? t("matches.won", { names: m.winners.join(", ") }) : t("matches.draw");
    if (m.current) return t("matches.at_table", { step: m.steps });
    return t("matches.stopped", { step: m.steps });
  }

  function matchItem(m) {
    return el("li", { class: `match${m.current ? " current" : ""}`, dataset: { game: String(m.game_id) } },
      el("div", { class: "match-head" },
        el("b", { text: t(`game.${m.game}`, {}, m.title) }),
        el("time", { datetime: new Date(m.started * 1000).toISOString(), text: matchDate(m.started) })),
      el("div", { class: "match-players", text: m.players.join(" · ") }),
      el("div", { class: "match-result", text: matchResult(m) }),
      el("div", { class: "row" },
        el("a", { class: "button secondary small match-export", href: `/api/export?game_id=${m.game_id}&download=1`, download: `goblin-match-${m.game_id}.json`, text: t("matches.export") }),
        m.resumable ? el("button", { type: "button", class: "small match-resume", text: t("matches.resume"),
          onclick: async () => { if (await act("resume", { game_id: m.game_id })) location.href = "/"; } }) : null));
  }

  /** A page of matches (50 at most; `before`: the older ones), appended; "Altre partite" fetches the next. */
  async function renderMatches(before) {
    const list = $("matches-list");
    if (!list) return;
    let page;
    try {
      page = await (await fetch(before ? `/api/matches?before=${before}` : "/api/matches")).json();
    } catch (error) {
      showError({ error: "network", detail: String(error) });
      return;
    }
    const matches = page.matches || [];
    if (!before) list.replaceChildren();
    list.append(...matches.map(matchItem));
    const more = $("matches-more");
    show(more, !!page.more && matches.length > 0);
    if (more && matches.length) more.onclick = () => renderMatches(matches[matches.length - 1].game_id);
    show($("matches-empty"), !list.children.length);
  }

  renderMatches();
})();
