/* Loader of the dedicated game views (static/games-views.js, games.css, games.<lang>.json): fetched only
   when the table plays one of these games, so other pages stay light. Until they arrive, app.js's
   generic view shows; then the dedicated view replaces it. */
(() => {
  "use strict";
  const GAMES = ["dadoteck", "gobcon", "goblins", "skirmish"];
  const views = (window.goblinViews = window.goblinViews || {});
  let loading = null;

  function load() {
    if (loading) return loading;
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = "/static/games.css";
    document.head.append(css);
    const script = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = "/static/games-views.js";
      s.onload = resolve;
      s.onerror = reject;
      document.head.append(s);
    });
    loading = Promise.all([script, window.goblin.loadGameMessages()]);
    return loading;
  }

  for (const game of GAMES) {
    views[game] = (s, root, h) => {
      const full = window.goblinFullViews;
      if (full && window.goblinGameMessages) return full[game](s, root, h);
      h.renderGeneric(s, root);
      load().then(() => {
        const now = window.goblin && window.goblin.state;
        // the whole page again, not only this view: the roll's check, history and forms use these words too
        if (now && now.game === game) window.goblin.rerender();
      });
      return undefined;
    };
  }
})();
