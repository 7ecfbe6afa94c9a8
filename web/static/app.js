/* Goblin Companion phone page: renders /api/state, stays live over /api/stream, sends control
   actions to /api/... with the step it showed (a stale tap gets 409 and changes nothing). */
(() => {
  "use strict";

  const M = JSON.parse(document.getElementById("messages").textContent);
  const W = {};  // the words of the games met on this page (static/games/<game>.<lang>.json), loaded with their views
  const PAGE = document.body.dataset.page;
  const PIN_KEY = "goblin.pin";
  const DIE_SIDES = [4, 6, 8, 10, 12, 20];  // the types a die the camera saw can be given (session.DIE_SIDES)
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------------------ translation

  function fmt(value) {
    if (Array.isArray(value)) return value.map(fmt).join(", ");
    // a parameter that is itself a message (a rules core's word or reason): translated in place
    if (value && typeof value === "object" && typeof value.key === "string" && "text" in value) {
      return t(value.key, value.params, value.text);
    }
    if (value && typeof value === "object") {
      return Object.entries(value).map(([k, v]) => `${k}=${fmt(v)}`).join(", ");
    }
    return value === null || value === undefined ? "" : String(value);
  }

  function fill(text, params) {
    return text.replace(/\{(\w+)\}/g, (whole, name) =>
      params && params[name] !== undefined ? fmt(params[name]) : whole);
  }

  const owns = (catalogue, key) => Object.prototype.hasOwnProperty.call(catalogue, key);

  /** The catalogued text of `key`: the page's catalogue, then the game's words (its prompts, choices, history,
      fields, log and refusals: static/games/<game>.<lang>.json, loaded with its view so a page carries only its
      own game's words), then the words the games' views share (games.<lang>.json); undefined if none has it. */
  function word(key) {
    if (!key) return undefined;
    if (owns(M, key)) return M[key];
    if (owns(W, key)) return W[key];
    const G = window.goblinGameMessages || {};
    return owns(G, key) ? G[key] : undefined;
  }

  /** The text of `key` in the page's language, else `fallback` (the flow's English words). */
  function t(key, params, fallback) {
    const found = word(key);
    const own = found !== undefined;
    const text = own ? found : fallback;
    if (text === undefined || text === null) return String(key);
    const filled = fill(String(text), params || {});
    // a message naming a parameter the flow did not give falls back to the flow's own words
    return own && fallback !== undefined && /\{\w+\}/.test(filled) ? fill(String(fallback), params || {}) : filled;
  }

  function has(key) {
    return word(key) !== undefined;
  }

  let fieldGame = null; // a field may have its own word in the game on the table: field.<game>.<key>

  function humanise(key) {
    const own = fieldGame ? `field.${fieldGame}.${key}` : "";
    if (has(own)) return word(own);
    return has(`field.${key}`) ? word(`field.${key}`) : String(key).replace(/[_-]+/g, " ");
  }

  // ---------------------------------------------------------------------------------- DOM helpers

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "dataset") Object.assign(node.dataset, value);
      else if (name === "style") node.style.cssText = value;  // CSSOM: the CSP forbids style attributes
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function show(node, visible) {
    if (node) node.hidden = !visible;
  }

  let lastError = null;  // the last error answer shown (a section may explain it in its own words)

  let gameMessages = null;
  const LANG = document.body.dataset.lang === "en" ? "en" : "it";

  // the words the games' views share (games.<lang>.json), fetched once for the whole page: by the game views'
  // kit (static/games/kit.js) and by an error worded there
  function loadGameMessages() {
    gameMessages = gameMessages || fetch(`/static/games.${LANG}.json`)
      .then((r) => r.json()).then((m) => { window.goblinGameMessages = m; return m; });
    return gameMessages;
  }

  const wordsLoaded = {};  // game -> the promise of its words

  /** Game `game`'s words (static/games/<game>.<lang>.json), fetched once, into W. */
  function loadWords(game) {
    if (!game) return Promise.resolve({});
    wordsLoaded[game] = wordsLoaded[game] || fetch(`/static/games/${encodeURIComponent(game)}.${LANG}.json`)
      .then((r) => (r.ok ? r.json() : {})).catch(() => ({})).then((words) => Object.assign(W, words));
    return wordsLoaded[game];
  }

  function showError(data) {
    lastError = data || null;
    const box = $("error");
    if (!box) return;
    if (data && data.key && !has(data.key) && !(window.goblinGameMessages && (!state || wordsLoaded[state.game]))) {
      Promise.all([loadGameMessages(), loadWords(state && state.game)])
        .then(() => { if (lastError === data) showError(data); }).catch(() => {});
    }
    const code = data && data.error ? data.error : "internal-error";
    const detail = data && data.key ? t(data.key, data.params, data.detail) : (data && data.detail) || "";
    box.textContent = `${t(`error.${code}`, {}, code)}: ${detail}`;
    box.dataset.code = code;
    box.hidden = false;
  }

  function hideError() {
    const box = $("error");
    if (box) box.hidden = true;
  }

  // ----------------------------------------------------------------------------------- the API

  let state = null;
  const listeners = [];
  const log = [];  // [{version, at}] for every snapshot received over the stream (tests read it)
  // rerender: a game's view or the games' own catalogue arrived (static/games/), so every part of the page (the roll's check,
  // the history, the forms' hints) is drawn again in the page's language, not only the game's view
  // el, show, showError and act are for the setup page's list of matches (static/matches.js); has, hideError and
  // lastError, upload for the settings page's sections (static/settings.js); the rest for photo.js
  window.goblin = { log, get state() { return state; }, t, loadGameMessages, loadWords, rerender() { if (state) for (const l of listeners) l(state); },
                    el, show, showError, act: (path, payload) => act(path, payload), upload, withPin, apply, refresh, listeners,
                    has, hideError, get lastError() { return lastError; } };

  function apply(snapshot) {
    if (!snapshot || typeof snapshot.version !== "number") return;
    if (state && snapshot.version < state.version) return;
    state = snapshot;
    gameView(snapshot.game);  // the game's view and words start loading (table and correction pages)
    for (const listener of listeners) listener(snapshot);
  }

  /** Show dialog `name` (`<name>-dialog`, its `<name>-form` and `<name>-cancel`) with `focus` focused;
      resolves true once its form is sent and `accept()` agrees, false on cancel. */
  function ask(name, focus, accept) {
    const dialog = $(`${name}-dialog`);
    return new Promise((resolve) => {
      const done = (ok) => {
        dialog.close();
        resolve(ok);
      };
      $(`${name}-cancel`).onclick = () => done(false);
      $(`${name}-form`).onsubmit = (event) => {
        event.preventDefault();
        if (accept()) done(true);
      };
      dialog.showModal();
      $(focus).focus();
    });
  }

  function askPin(wrong) {
    $("pin-error").hidden = !wrong;
    $("pin-input").value = "";
    return ask("pin", "pin-input", () => {
      const pin = $("pin-input").value.trim();
      if (pin) localStorage.setItem(PIN_KEY, pin);
      return !!pin;
    });
  }

  /** Ask the players whether the match in progress (the 409 game-in-progress answer's params) may be
      archived; resolves true to go ahead. The setup page has the dialog; elsewhere: no. */
  function askArchive(params) {
    if (!$("archive-dialog")) return Promise.resolve(false);
    const p = params || {};
    $("archive-text").textContent = t("matches.archive_ask", { title: t(`game.${p.game}`, {}, p.title), step: p.step });
    return ask("archive", "archive-ok", () => true);
  }

  /** ``send(headers)`` (a fetch) with the table PIN, asked for again while it is refused: {response, data},
      or null after a network error, which ``onNetworkError(error)`` shows (default: the page's error line). */
  async function withPin(send,
    onNetworkError = (error) => showError({ error: "network", detail: String(error) })) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const headers = {};
      const pin = localStorage.getItem(PIN_KEY);
      if (pin) headers["X-Table-PIN"] = pin;
      let response;
      let data;
      try {
        response = await send(headers);
        data = await response.json();
      } catch (error) {
        onNetworkError(error);
        return null;
      }
      if (response.status === 403 && (data.error === "pin-required" || data.error === "wrong-pin")) {
        if (data.error === "wrong-pin") localStorage.removeItem(PIN_KEY);
        if (await askPin(data.error === "wrong-pin")) continue;
      }
      return { response, data };
    }
    return null;
  }

  /** POST a control action; returns the new snapshot, or null after showing the error. A match in
      progress is archived only after the players said yes (409 game-in-progress, then "archive": true). */
  async function act(path, payload) {
    const body = Object.assign({}, payload || {});
    if (state && !("step" in body)) {
      body.step = state.step;
      body.position = state.position;
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const got = await withPin((headers) => fetch(`/api/${path}`, { method: "POST",
        headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) }));
      if (!got) return null;
      const { response, data } = got;
      if (response.status === 409 && data.error === "game-in-progress" && !body.archive) {
        if (!(await askArchive(data.params))) return null;
        body.archive = true;
        continue;
      }
      if (!response.ok) {
        showError(data);
        if (data.error === "stale-step") refresh();
        return null;
      }
      hideError();
      apply(data);
      return data;
    }
    return null;
  }

  /** POST a file's own bytes (``type``) with the table PIN; the answer, or null after showing the error. */
  async function upload(path, blob, type) {
    const got = await withPin((headers) => fetch(`/api/${path}`, { method: "POST",
      headers: { ...headers, "Content-Type": type }, body: blob }));
    if (!got) return null;
    if (!got.response.ok) {
      showError(got.data);
      return null;
    }
    hideError();
    return got.data;
  }

  async function refresh() {
    const response = await fetch("/api/state");
    apply(await response.json());
  }

  function connect() {
    const live = $("live");
    const source = new EventSource("/api/stream");
    source.addEventListener("state", (event) => {
      const snapshot = JSON.parse(event.data);
      log.push({ version: snapshot.version, at: performance.timeOrigin + performance.now() });
      apply(snapshot);
    });
    source.onopen = () => live && live.classList.add("on");
    source.onerror = () => live && live.classList.remove("on");
  }

  // ------------------------------------------------------------------------ shared rendering

  function renderCamera(s) {
    const badge = $("camera");
    if (!badge) return;
    const camera = s.camera || { state: "ok", message: "" };
    badge.hidden = camera.state === "ok" || camera.state === "none";
    badge.className = `camera ${camera.state}`;
    badge.textContent = t(`camera.${camera.state}`, {}, camera.state);
    badge.title = camera.message || "";
    const line = $("camera-state");
    if (line) line.textContent = `${t(`camera.${camera.state}`, {}, camera.state)} ${camera.message || ""}`;
    // why it was lost, where a phone shows it (a title is never seen on a touch screen)
    const why = $("camera-why");
    if (why) {
      // a replay shows recorded photos, not the table: every page says so, lest its dice pass for the players'
      const replay = !!camera.replay && camera.state !== "lost";
      why.hidden = camera.state !== "lost" && !replay;
      const reason = camera.code ? t(`camera.why.${camera.code}`, { where: camera.where || "" }, camera.error || camera.message)
        : camera.error || camera.message || "";
      why.textContent = replay ? t("camera.replay", { source: camera.source || "" }) : `${t("camera.lost")}: ${reason}`;
      why.classList.toggle("replay", replay);
    }
  }

  let imageVersion = -1;

  function renderSnapshotImage(s, force) {
    const figure = $("camera-figure");
    const img = $("snapshot");
    if (!figure || !img) return;
    if (s.image === false || (!force && !(s.proposal || s.expects))) {
      figure.hidden = true;
      return;
    }
    if (imageVersion === s.version) return;
    imageVersion = s.version;
    img.onload = () => { figure.hidden = false; };
    img.onerror = () => { figure.hidden = true; };
    img.src = `/api/snapshot.jpg?v=${s.version}`;
  }

  function gameTitle(s) {
    return s.game ? t(`game.${s.game}`, {}, s.title || s.game) : "";
  }

  function renderTitle(s) {
    const title = gameTitle(s);
    const pageName = t(`page.${PAGE}`);
    document.title = [pageName, title, t("app.name")].filter(Boolean).join(" · ");
    const heading = $("game-title");
    if (heading) heading.textContent = title;
    if (PAGE === "table") document.querySelector("main h1").textContent = title || pageName;
  }

  /** The sentences that say what happens now, translated where the flow gave a key. */
  function statusLines(s) {
    const view = s.view || {};
    const lines = [];
    if (Array.isArray(view.prompts) && view.prompts.length) {
      for (const p of view.prompts) lines.push(t(p.key, p.params, p.text));
    } else if (s.expects) {
      lines.push(expectsText(s));
    } else if (view.awaiting && typeof view.awaiting === "object") {
      const a = view.awaiting;
      const key = a.kind ? `${s.game}.awaiting.${a.kind}` : null;
      lines.push(t(key, a, a.message || a.what || a.purpose || a.kind || ""));
    }
    if (s.over) lines.push(t("table.over"));
    if (s.notice) lines.push(s.notice);
    return lines.filter(Boolean);
  }

  function expectsText(s) {
    const e = s.expects;
    if (!e) return "";
    const p = e.params || {};
    const english = p.why || p.what || (e.kind === "tokens" ? `toss ${p.count ?? ""}` : "roll the dice");
    return t(e.prompt, p, english);
  }

  // ------------------------------------------------------------------------------ table page

  // ------------------------------------------------------------------------------ the games' views

  // A game's own view: web/static/games/<game>.js, an ES module (render, and choiceText, slotLabel,
  // renderCheck if it has its own), imported when a snapshot names the game; the generic view meanwhile.
  const views = {};  // game -> its module; null while it loads or when the game has no view of its own

  function gameView(game) {
    if (!game || (PAGE !== "table" && PAGE !== "correct")) return null;
    if (!(game in views)) {
      views[game] = null;
      // the game's words come with its view: the view draws once both are here (no English first)
      const words = loadWords(game);
      words.then(() => { if (state && state.game === game) window.goblin.rerender(); });
      Promise.all([import(`/static/games/${encodeURIComponent(game)}.js`), words]).then(([module]) => {
        views[game] = module;
        if (state && state.game === game) window.goblin.rerender();
      }).catch(() => {});  // no view of its own: the generic view stays
    }
    return views[game];
  }

  /** What the game's view says for `name`, or undefined. */
  function viewHook(game, name, ...args) {
    const view = gameView(game);
    return view && typeof view[name] === "function" ? view[name](...args, helpers) : undefined;
  }

  function fmtScore(n) {
    if (n === null || n === undefined) return "–";
    return Number.isInteger(n) ? String(n) : String(Math.round(n * 10) / 10).replace(".", M["number.decimal"] || ".");
  }

  // what a game's view draws with
  const helpers = { el, t, has, act, fmt, fmtScore, showError, renderGeneric };

  // shown elsewhere on the page (status line, choices, forms) or only for machines
  const SKIP = new Set(["game", "title", "phase", "choices", "forms", "expects", "prompts", "over", "attacks",
    "attack_groups", "awaiting", "message", "index"]);

  function isScalar(v) {
    return v === null || ["string", "number", "boolean"].includes(typeof v);
  }

  function scalarText(v) {
    if (v === null || v === undefined) return "–";
    if (typeof v === "boolean") return v ? t("value.yes") : t("value.no");
    return String(v);
  }

  /** Any flow's view as definition lists and tables: every game shows something sensible. */
  function genericValue(value, depth) {
    if (isScalar(value)) return document.createTextNode(scalarText(value));
    if (Array.isArray(value)) {
      if (!value.length) return document.createTextNode("–");
      if (value.every(isScalar)) {
        return value.length > 6 && typeof value[0] === "string"
          ? el("ul", {}, value.map((x) => el("li", { text: scalarText(x) })))
          : document.createTextNode(value.map(scalarText).join(", "));
      }
      if (value.every((x) => x && typeof x === "object" && !Array.isArray(x))) return genericTable(value, depth);
      return el("ul", {}, value.map((x) => el("li", {}, genericValue(x, depth + 1))));
    }
    if (depth > 3) return el("code", { text: JSON.stringify(value) });
    const dl = el("dl", { class: "facts" });
    for (const [k, v] of Object.entries(value)) {
      if (SKIP.has(k) || v === null || v === undefined || (Array.isArray(v) && !v.length)) continue;
      // nested objects and tables take the full width, under their name
      const wide = !isScalar(v) && !(Array.isArray(v) && v.every(isScalar)) ? "wide" : null;
      dl.append(el("dt", { class: wide, text: humanise(k) }), el("dd", { class: wide }, genericValue(v, depth + 1)));
    }
    return dl;
  }

  /** A board of numbered squares (Dadoteck's): one tile per square with its pawn and its special rule. */
  function boardGrid(rows) {
    return el("div", { class: "board" }, rows.map((r) => el("div", {
      class: `square${r.special && r.active !== false ? " special" : ""}${r.in_play === false ? " out" : ""}${r.name || r.pawn !== null && r.pawn !== undefined ? " taken" : ""}`,
      title: r.special ? humanise(r.special) : "",
      dataset: { square: r.square },
    }, el("b", { text: r.square }), el("span", { text: r.name || "" }),
    r.special ? el("small", { text: t(`square.${r.special}`, {}, humanise(r.special)) }) : null)));
  }

  function genericTable(rows, depth) {
    if (rows.every((r) => typeof r.square === "number")) return boardGrid(rows);
    const columns = [];
    for (const row of rows) {
      for (const [k, v] of Object.entries(row)) {
        if (!columns.includes(k) && isScalar(v) && k !== "index" && rows.some((r) => r[k] !== null && r[k] !== false && r[k] !== undefined)) columns.push(k);
      }
    }
    const nested = [];
    for (const row of rows) {
      for (const [k, v] of Object.entries(row)) if (!isScalar(v) && !nested.includes(k)) nested.push(k);
    }
    const shown = columns.slice(0, 7);
    const table = el("table", { class: "generic" },
      el("thead", {}, el("tr", {}, shown.map((c) => el("th", { text: humanise(c) })))),
      el("tbody", {}, rows.map((row) => el("tr", {}, shown.map((c) => el("td", { text: scalarText(row[c]) }))))));
    const out = el("div", { class: "table-wrap" }, table);
    if (nested.length && depth < 2) {
      rows.forEach((row) => {
        const parts = nested.filter((k) => row[k] && (!Array.isArray(row[k]) || row[k].length));
        if (!parts.length) return;
        const label = row.name || row.label || (row.index !== undefined ? `#${row.index + 1}` : "");
        const box = el("details", {}, el("summary", { text: `${label}: ${parts.map(humanise).join(", ")}` }));
        for (const k of parts) box.append(el("h3", { text: humanise(k) }), genericValue(row[k], depth + 1));
        out.append(box);
      });
    }
    if (rows.length > 8) return el("details", { open: depth === 0 && rows.length <= 20 ? true : null }, el("summary", { text: t("table.rows", { n: rows.length }) }), out);
    return out;
  }

  function renderGeneric(s, root) {
    const v = s.view || {};
    const card = el("section", { class: "card generic-view", id: "generic-view" });
    if (v.phase) card.append(el("p", { class: "phase" }, t("table.phase"), " ", el("b", { text: t(`${s.game}.phase.${v.phase}`, {}, String(v.phase)) })));
    card.append(genericValue(v, 0));
    root.append(card);
    const forms = (Array.isArray(v.forms) ? v.forms : []).filter((f) => f && f.type && f.available !== false);
    if (forms.length) root.append(renderForms(s, forms));
  }

  // --------------------------------------------------------------- the flows' parameterised actions

  /** The placeholder of a flow form's field: the catalogue's `hint.<game>.<form>.<field>` (an example or
      what the number means, in the page's language), else none: the flow's descriptor is English for code. */
  function formHint(s, path) {
    const key = `hint.${s.game}.${path.join(".")}`;
    return has(key) ? t(key) : "";
  }

  /** An input for one field of a flow's form, from its descriptor (a type word, options, or a sentence). */
  function formInput(s, name, spec, path) {
    const id = `form-${path.join("-")}`;
    const players = (s.view && (s.view.players || s.view.bands)) || [];
    if (Array.isArray(spec)) {
      return el("select", { id, dataset: { path: path.join("."), kind: "option" } },
        spec.map((o) => el("option", { value: JSON.stringify(o), text: o === null ? "—" : t(`option.${name}.${o}`, {}, String(o)) })));
    }
    const words = String(spec).toLowerCase();
    if (words === "player" || words === "player index") {
      return el("select", { id, dataset: { path: path.join("."), kind: "number" } },
        players.map((p, i) => el("option", { value: i, text: p.name || `#${i + 1}` })));
    }
    if (words === "bool") return el("input", { id, type: "checkbox", dataset: { path: path.join("."), kind: "bool" } });
    const placeholder = formHint(s, path);
    // a card's notation ("notation name|attack|goblins spent") is text, whatever words its fields have
    if (words.startsWith("notation")) {
      return el("input", { id, type: "text", placeholder, autocomplete: "off", dataset: { path: path.join("."), kind: "text" } });
    }
    if (words.startsWith("list") || words.includes("indices")) {
      return el("input", { id, type: "text", placeholder, dataset: { path: path.join("."), kind: "json" } });
    }
    if (words === "int" || words === "card" || /\b(index|seconds|cm|goblins|number)\b/.test(words)) {
      return el("input", { id, type: "number", inputmode: "numeric", placeholder, dataset: { path: path.join("."), kind: "number" } });
    }
    return el("input", { id, type: "text", placeholder, autocomplete: "off", dataset: { path: path.join("."), kind: "text" } });
  }

  function formFields(s, fields, path) {
    const out = [];
    for (const [name, spec] of Object.entries(fields || {})) {
      if (spec && typeof spec === "object" && !Array.isArray(spec)) {
        out.push(el("fieldset", { class: "group" }, el("legend", { text: humanise(name) }), formFields(s, spec, [...path, name])));
        continue;
      }
      const input = formInput(s, name, spec, [...path, name]);
      if (input.type === "checkbox") out.push(el("label", { class: "check" }, input, " ", humanise(name)));
      else out.push(el("label", { for: input.id, text: humanise(name) }), input);
    }
    return out;
  }

  function readForm(form, type) {
    const action = { type };
    for (const input of form.querySelectorAll("[data-path]")) {
      const kind = input.dataset.kind;
      let value;
      if (kind === "bool") value = input.checked;
      else if (input.value === "") continue;
      else if (kind === "number") value = Number(input.value);
      else if (kind === "option") value = JSON.parse(input.value);
      else if (kind === "json") {
        try { value = JSON.parse(/^[\[{]/.test(input.value.trim()) ? input.value : `[${input.value}]`); } catch (error) { value = input.value; }
      } else value = input.value.trim();
      const keys = input.dataset.path.split(".").slice(1);
      let target = action;
      for (const key of keys.slice(0, -1)) target = target[key] = target[key] || {};
      target[keys[keys.length - 1]] = value;
    }
    return action;
  }

  function renderForms(s, forms) {
    const box = el("details", { class: "card forms", id: "forms", open: formsOpen ? true : null,
      ontoggle: (event) => { formsOpen = event.target.open; } },
      el("summary", { text: t("table.more_actions") }),
      el("p", { class: "hint", text: t("table.more_actions_hint") }));
    for (const f of forms) {
      const title = t(`form.${s.game}.${f.type}`, {}, f.label || humanise(f.type));
      const form = el("form", { class: "flow-form", dataset: { type: f.type }, novalidate: true },
        formFields(s, f.fields, [f.type]),
        el("button", { type: "submit", text: t("table.send") }));
      form.onsubmit = (event) => {
        event.preventDefault();
        act("correct", { action: readForm(form, f.type) });
      };
      box.append(el("details", { class: "flow-form-box", dataset: { type: f.type } }, el("summary", { text: title }), form));
    }
    return box;
  }

  function groupTitle(s, group) {
    if (has(`group.${group}`)) return t(`group.${group}`);
    const groups = (s.view && s.view.attack_groups) || [];
    const known = groups.find((g) => g.group === group);
    return known ? known.title : humanise(group || "choices");
  }

  function choiceText(s, c) {
    const own = viewHook(s.game, "choiceText", s, c);  // a game's own words for its choices
    return own === undefined ? t(c.key, c.params, c.label) : own;
  }

  let formsOpen = false;
  const openGroups = new Set();  // groups this phone opened (kept open across updates)

  function renderChoices(s) {
    const box = $("choices");
    const groups = $("choice-groups");
    const choices = s.choices || [];
    show(box, choices.length > 0);
    groups.replaceChildren();
    if (!choices.length) return;
    const order = [];
    for (const c of choices) if (!order.includes(c.group)) order.push(c.group);
    for (const group of order) {
      const members = choices.filter((c) => c.group === group);
      const hint = has(`group.${group}.hint`) ? el("p", { class: "hint", text: t(`group.${group}.hint`) }) : null;
      // a long list folds by group, so a thumb finds the kind of move first; the selected one stays open
      const open = choices.length <= 12 || members.some((c) => c.index === s.selected) || openGroups.has(group);
      groups.append(el("details", {
        class: "choice-group", dataset: { group }, open: open ? true : null,
        ontoggle: (event) => { if (event.target.open) openGroups.add(group); else openGroups.delete(group); },
      },
        el("summary", { text: `${groupTitle(s, group)} (${members.length})` }), hint,
        members.map((c) => el("button", {
          type: "button",
          class: `choice${s.selected === c.index ? " selected" : ""}`,
          "aria-pressed": s.selected === c.index ? "true" : "false",
          dataset: { index: c.index, group: c.group },
          onclick: () => act("select", { index: c.index }),
        }, choiceText(s, c)))));
    }
    const selected = choices.find((c) => c.index === s.selected);
    const button = $("confirm-choice");
    button.disabled = !selected;
    button.textContent = selected ? t("action.confirm_this", { choice: choiceText(s, selected) }) : t("action.confirm_selected");
  }

  function renderProposal(s) {
    const box = $("proposal");
    const p = s.proposal;
    show(box, !!p);
    show($("awaiting"), !p && !!s.expects);
    if (s.expects && !p) {
      const r = s.reading;
      const why = r && !r.fits && r.why
        ? ` (${r.why_key ? t(r.why_key, r.why_params || {}, t("table.reading_unfit", {}, r.why)) : t("table.reading_unfit", {}, r.why)})`
        : "";
      const text = expectsText(s);
      $("awaiting-text").textContent = statusLines(s).includes(text) ? why.replace(/^ \(|\)$/g, "") : text + why;
    }
    if (!p) return;
    const dice = $("proposal-dice");
    dice.replaceChildren();
    const a = p.action || {};
    if (a.values) {
      const slots = (s.expects && s.expects.slots) || [];
      for (const [key, value] of Object.entries(a.values)) {
        const slot = slots.find((x) => x.key === key) || { key, label: key, sides: null };
        dice.append(el("a", { class: "die tap", href: `/correct#slot-${key}`, title: t("correct.tap"), dataset: { slot: key } },
          el("b", { text: value }), el("small", { text: slotLabel(s, { key, ...slot }) })));
      }
    } else if ("alive" in a || "dead" in a) {
      dice.append(el("p", { class: "tokens", text: t("tokens.count", { alive: a.alive, dead: a.dead }) }));
    } else {
      dice.append(el("code", { text: JSON.stringify(a) }));
    }
  }

  function historyText(s, entry) {
    const a = entry.action || {};
    const type = a.type || "?";
    const params = Object.assign({}, a);
    if (a.values) params.values = Object.values(a.values).join(", ");
    const key = has(`history.${s.game}.${type}`) ? `history.${s.game}.${type}` : `history.${type}`;
    const details = Object.entries(a).filter(([k]) => k !== "type").map(([k, v]) => `${humanise(k)} ${fmt(v)}`).join(" · ");
    // what the flow said the step did, from the table before it (a Button Goblin attack: which die took which)
    let text = entry.said ? t(entry.said.key, entry.said.params, entry.said.text)
      : t(key, params, [humanise(type), details].filter(Boolean).join(": "));
    if (entry.manual) text += ` · ${t("history.manual")}`;
    return text;
  }

  /** A burnt or dark frame (a lamp switched on or off over the table): the camera may miss or misread dice. */
  function renderLight(s) {
    const box = $("light-note");
    const light = s.expects && s.reading && s.reading.light;
    show(box, !!light);
    if (light) box.textContent = t(`table.light.${light}`);
  }

  /** The "Prima del tiro" box: a roll's target before it is read, drawn by the game's view if it has one. */
  function renderCheck(s) {
    const box = $("check");
    show(box, viewHook(s.game, "renderCheck", s, box) === true);
  }

  /** The steps before the snapshot's window, once the players asked for the whole history. */
  let olderHistory = null;

  function renderTable(s) {
    fieldGame = s.game;
    show($("no-game"), !s.game);
    const status = $("status");
    const lines = statusLines(s);
    status.replaceChildren(...lines.map((line) => el("p", { text: line })));
    show(status, lines.length > 0);
    renderCheck(s);
    renderLight(s);
    renderProposal(s);
    renderSnapshotImage(s, false);
    const root = $("view");
    root.replaceChildren();
    if (s.view) {
      const view = gameView(s.game);
      if (view) view.render(s, root, helpers);
      else renderGeneric(s, root);
    }
    renderChoices(s);
    $("undo").disabled = !s.can_undo;
    const list = $("history");
    const steps = (history) => history.slice().reverse().map((h) => el("li", { value: h.step, text: historyText(s, h) }));
    // the snapshot carries the last 30 steps; the rest (up to 500) on request, and once asked for they
    // stay shown through the live updates that follow (until another game starts)
    if (olderHistory && olderHistory.game_id !== s.game_id) olderHistory = null;
    const older = olderHistory ? olderHistory.history.filter((h) => h.step < s.history_from) : [];
    list.replaceChildren(...steps(older.concat(s.history || [])));
    show($("history-more"), s.history_from > 1 && !olderHistory);
    $("history-all").onclick = async () => {
      const page = await (await fetch(`/api/history?from=${Math.max(1, s.step - 499)}`)).json();
      olderHistory = page;
      list.replaceChildren(...steps(page.history));
      show($("history-more"), false);
    };
  }

  function initTable() {
    $("proposal-confirm").onclick = () => act("confirm");
    $("next").onclick = () => act("next");
    $("confirm-choice").onclick = () => {
      if (state && state.selected !== null && state.selected !== undefined) act("choose", { index: state.selected });
    };
    // undo takes two taps (the second within 3 s), so a stray thumb takes nothing back
    const undo = $("undo");
    let disarm = null;
    undo.onclick = () => {
      clearTimeout(disarm);
      if (undo.dataset.armed === "yes") {
        undo.dataset.armed = "";
        undo.textContent = t("action.undo");
        act("undo");
        return;
      }
      undo.dataset.armed = "yes";
      undo.textContent = t("action.undo_again");
      disarm = setTimeout(() => { undo.dataset.armed = ""; undo.textContent = t("action.undo"); }, 3000);
    };
    listeners.push(renderTable);
  }

  // ------------------------------------------------------------------------- correction page

  function renderCorrect(s) {
    const fields = $("correct-fields");
    // keep what is being typed, unless the proposal changed (a die the camera saw was fixed)
    const key = `${s.step}:${JSON.stringify(s.proposal && s.proposal.action)}`;
    if (fields.dataset.key === key && fields.childElementCount) {
      // the game's view and words may have arrived since: the prompt and the slots' names in them, without
      // touching what is typed
      $("correct-prompt").textContent = s.expects ? expectsText(s) : "";
      for (const slot of (s.expects && s.expects.slots) || []) {
        const name = fields.querySelector(`label[for="slot-${CSS.escape(slot.key)}"] .slot-name`);
        if (name) name.textContent = slotLabel(s, slot);
      }
      return;
    }
    fields.dataset.key = key;
    fields.replaceChildren();
    const e = s.expects;
    show($("correct-none"), !e);
    show($("correct-save"), !!e);
    $("correct-prompt").textContent = e ? expectsText(s) : "";
    if (!e) return;
    const proposed = (s.proposal && s.proposal.action) || {};
    if (e.kind === "tokens") {
      for (const face of ["alive", "dead"]) {
        const value = proposed[face] ?? "";
        fields.append(el("label", { for: `tokens-${face}` }, t(`tokens.${face}`)),
          el("input", { id: `tokens-${face}`, name: face, type: "number", inputmode: "numeric", min: 0, max: e.count ?? 99, value, required: true }));
      }
      if (e.count !== null && e.count !== undefined) fields.append(el("p", { class: "hint", text: t("tokens.expected", { count: e.count }) }));
      return;
    }
    const values = proposed.values || {};
    for (const slot of e.slots) {
      const high = slot.high ?? slot.sides ?? 100;
      const select = el("select", { id: `slot-${slot.key}`, name: slot.key, dataset: { slot: slot.key }, required: true },
        el("option", { value: "", text: "?" }));
      for (let n = slot.low ?? 1; n <= high; n++) {
        select.append(el("option", { value: n, text: n, selected: values[slot.key] === n ? true : null }));
      }
      const camera = values[slot.key] !== undefined ? t("correct.camera_read", { value: values[slot.key] }) : "";
      fields.append(el("div", { class: "slot", dataset: { slot: slot.key } },
        el("label", { for: `slot-${slot.key}` }, el("span", { class: "slot-name", text: slotLabel(s, slot) }), " ", el("small", { text: camera })),
        select));
    }
    const target = location.hash.slice(1);
    if (target && $(target)) $(target).focus();
  }

  /** The dice the camera saw, each with its type and value: a misread type or value is fixed here (or a
      phantom taken away), and the reading is proposed again with the fix. */
  /** A die's type and value selects (ids ``<id>-sides``, ``<id>-value``), set to ``die``'s; the values
      follow the type, keeping the one chosen. */
  function dieSelects(id, die) {
    const sides = el("select", { id: `${id}-sides`, "aria-label": t("correct.seen_type") },
      el("option", { value: "", text: "d?" }));
    for (const n of DIE_SIDES) sides.append(el("option", { value: n, text: `d${n}`, selected: die.sides === n ? true : null }));
    const value = el("select", { id: `${id}-value`, "aria-label": t("correct.seen_value") });
    const values = () => {
      const high = Number(sides.value) || 20;
      const keep = value.value || (die.value ?? "");
      value.replaceChildren(el("option", { value: "", text: "?" }));
      for (let n = 1; n <= high; n++) value.append(el("option", { value: n, text: n, selected: String(n) === String(keep) ? true : null }));
    };
    sides.onchange = values;
    values();
    return { sides, value };
  }

  function renderSeen(s) {
    const list = $("seen-dice");
    const read = !!(s.expects && s.expects.kind === "dice" && s.reading);
    const seen = (read && s.reading.seen) || [];
    const card = $("seen-card");
    show(card, read);  // with no die seen, still there: a die the camera missed is added here
    if (!read) {
      armAdd(false);
      return;
    }
    renderAdd(s);
    const key = `${s.step}:${JSON.stringify(seen)}`;
    if (list.dataset.key === key) return;
    if (list.dataset.step !== String(s.step)) card.open = !s.reading.fits || !!s.reading.fixed;  // open when it matters
    list.dataset.key = key;
    list.dataset.step = String(s.step);
    list.replaceChildren();
    for (const die of seen) {
      const id = `seen-${die.index}`;
      const { sides, value } = dieSelects(id, die);
      const what = die.sides ? `d${die.sides} ${die.value ?? "?"}` : `${t("correct.seen_unknown")} ${die.value ?? "?"}`;
      list.append(el("li", { id, class: die.manual ? "manual" : null },
        el("span", { class: "seen-read", text: `${t("correct.seen_die", { n: die.index + 1 })}: ${what}` }),
        sides, value,
        el("button", { type: "button", class: "fix small", onclick: () => {
          if (!sides.value || !value.value) {
            showError({ error: "invalid-input", detail: t("correct.seen_missing") });
            return;
          }
          act("fix-die", { index: die.index, sides: Number(sides.value), value: Number(value.value) });
        } }, t("correct.seen_fix")),
        el("button", { type: "button", class: "remove small secondary", onclick: () => act("fix-die", { index: die.index, remove: true }) },
          t("correct.seen_remove"))));
    }
  }

  /** The row that adds a die the camera missed: its type (the first slot's, at first) and value; "Add" arms
      the camera picture, where a tap says where the die lies (``/api/add-die``). */
  function renderAdd(s) {
    const row = $("add-die-fields");
    if (row.dataset.step === String(s.step)) return;
    row.dataset.step = String(s.step);
    armAdd(false);
    const slot = (s.expects.slots || []).find((x) => x.sides);
    const { sides, value } = dieSelects("add", { sides: slot ? slot.sides : 6, value: null });
    row.replaceChildren(sides, value);
  }

  function armAdd(on) {
    const figure = $("camera-figure");
    if (!figure || !$("add-die-tap")) return;
    show($("add-die-tap"), on);
    figure.classList.toggle("tap-to-add", on);
    if (on) figure.scrollIntoView({ block: "center" });
  }

  function initAdd() {
    $("add-die-button").onclick = () => {
      if (!$("add-sides").value || !$("add-value").value) {
        showError({ error: "invalid-input", detail: t("correct.seen_missing") });
        return;
      }
      armAdd(true);
    };
    $("add-die-cancel").onclick = () => armAdd(false);
    $("snapshot").onclick = (event) => {
      if (!$("camera-figure").classList.contains("tap-to-add")) return;
      const box = event.currentTarget.getBoundingClientRect();
      const at = (v) => Math.min(1, Math.max(0, v));
      armAdd(false);
      act("add-die", { x: at((event.clientX - box.left) / box.width), y: at((event.clientY - box.top) / box.height),
        sides: Number($("add-sides").value), value: Number($("add-value").value) });
    };
  }

  /** Which die a slot is, in words a player can match with the tray: the game's view may say (Button
      Goblin's name the die's place in the button and its skills); else the label as the flow wrote it. */
  function slotLabel(s, slot) {
    const own = viewHook(s.game, "slotLabel", s, slot);
    if (own !== undefined) return own;
    return slot.sides && !slot.label.includes(`d${slot.sides}`) ? `${slot.label} d${slot.sides}` : slot.label;
  }

  function initCorrect() {
    initAdd();
    listeners.push(renderSeen);
    listeners.push(renderCorrect);
    listeners.push((s) => renderSnapshotImage(s, false));
    $("correct-form").onsubmit = async (event) => {
      event.preventDefault();
      const e = state && state.expects;
      if (!e) return;
      let action;
      if (e.kind === "tokens") {
        action = { type: "reading", alive: Number($("tokens-alive").value), dead: Number($("tokens-dead").value) };
      } else {
        const values = {};
        for (const select of document.querySelectorAll("#correct-fields select")) {
          if (select.value === "") {
            showError({ error: "invalid-input", detail: t("correct.missing", { die: select.labels[0].textContent }) });
            select.focus();
            return;
          }
          values[select.dataset.slot] = Number(select.value);
        }
        action = { type: "reading", values };
      }
      if (await act("correct", { action })) location.href = "/";
    };
  }

  // ----------------------------------------------------------------------------- setup page

  let games = [];

  function label(game, field) {
    return t(`setup.${game}.${field.key}`, {}, field.label || humanise(field.key));
  }

  function nameRow(index, value) {
    return el("input", { type: "text", name: "player-name", value: value || "", placeholder: t("setup.player_n", { n: index + 1 }), autocomplete: "off" });
  }

  /** A list of rows (players, bands) with add/remove buttons within min..max. */
  function rowList(id, min, max, makeRow, title) {
    const list = el("div", { class: "rows", id });
    const add = el("button", { type: "button", class: "secondary small", text: t("setup.add") });
    const remove = el("button", { type: "button", class: "secondary small", text: t("setup.remove") });
    const sync = () => {
      add.disabled = list.childElementCount >= max;
      remove.disabled = list.childElementCount <= min;
    };
    add.onclick = () => { list.append(makeRow(list.childElementCount)); sync(); };
    remove.onclick = () => { list.lastElementChild.remove(); sync(); };
    for (let i = 0; i < Math.max(min, 2); i++) list.append(makeRow(i));
    sync();
    return el("fieldset", { class: "group" }, el("legend", { text: title }), list,
      max > min ? el("div", { class: "row" }, remove, add) : null);
  }

  function playerRow(game, schema, perPlayer, index) {
    if (!perPlayer.length) return el("div", { class: "player-row" }, nameRow(index));
    const row = el("div", { class: "player-row card", dataset: { player: index } },
      el("h3", { text: t("setup.player_n", { n: index + 1 }) }));
    const buttons = schema.buttons || [];
    const refresh = () => {
      const chosen = {};
      row.querySelectorAll("select[data-key]").forEach((s) => { chosen[s.dataset.key] = s.value; });
      const values = Object.values(chosen);
      row.querySelectorAll("[data-required-for]").forEach((box) => {
        const needed = JSON.parse(box.dataset.requiredFor);
        box.hidden = !values.some((v) => needed.includes(v));
      });
      row.querySelectorAll("[data-swing]").forEach((box) => {
        const button = buttons.find((b) => b.name === chosen.button);
        const letters = button ? button.swing : [];
        box.hidden = !letters.length;
        const inputs = box.querySelector(".swing-inputs");
        inputs.replaceChildren(...letters.map((letter) => el("label", { class: "inline" }, letter, " ",
          el("input", { type: "number", inputmode: "numeric", min: box.dataset.min, max: box.dataset.max, dataset: { letter }, placeholder: "d?" }))));
      });
      const recipe = row.querySelector(".recipe");
      const button = buttons.find((b) => b.name === chosen.button);
      if (recipe) recipe.textContent = button ? button.recipe : "";
    };
    for (const field of perPlayer) {
      const id = `p${index}-${field.key}`;
      let input;
      if (field.type === "select") {
        input = el("select", { id, dataset: { key: field.key }, onchange: refresh },
          field.required ? null : el("option", { value: "", text: "—" }),
          (field.options || []).map((o, n) => el("option", { value: o, text: t(`option.${field.key}.${o}`, {}, o), selected: field.key === "button" && n === index ? true : null })));
      } else if (field.type === "swing") {
        input = el("div", { class: "swing-inputs" });
        row.append(el("div", { dataset: { swing: field.key, min: field.min ?? 4, max: field.max ?? 20 }, hidden: true },
          el("label", { text: label(schema.game, field) }), input));
        continue;
      } else {
        input = el("input", { id, type: "text", dataset: { key: field.key }, autocomplete: "off", placeholder: field.key === "name" ? t("setup.player_n", { n: index + 1 }) : "" });
      }
      const box = el("div", { class: "field" }, el("label", { for: id, text: label(schema.game, field) }), input);
      if (field.required_for) {
        box.dataset.requiredFor = JSON.stringify(field.required_for);
        box.hidden = true;
      }
      row.append(box);
      if (field.key === "button") row.append(el("p", { class: "recipe hint" }));
    }
    setTimeout(refresh, 0);
    return row;
  }

  function optionInput(schema, option, id) {
    const value = option.default;
    if (option.type === "bool") {
      return el("label", { class: "check" }, el("input", { type: "checkbox", id, dataset: { option: option.key, type: "bool" }, checked: value ? true : null }), " ", label(schema.game, option));
    }
    if (option.type === "player") {
      return el("div", { class: "field" }, el("label", { for: id, text: label(schema.game, option) }),
        el("select", { id, dataset: { option: option.key, type: "player" } }, el("option", { value: value ?? 0, text: t("setup.player_n", { n: (value ?? 0) + 1 }) })));
    }
    if (option.type === "int") {
      return el("div", { class: "field" }, el("label", { for: id, text: label(schema.game, option) }),
        el("input", { id, type: "number", inputmode: "numeric", min: option.min, max: option.max, value: value ?? "", dataset: { option: option.key, type: "int", nullable: option.nullable ? "yes" : "no" } }));
    }
    if (option.type === "notations") {
      return el("div", { class: "field" }, el("label", { for: id, text: label(schema.game, option) }),
        el("textarea", { id, rows: 3, placeholder: t(`setup.${schema.game}.${option.key}_example`, {}, option.example || ""), dataset: { option: option.key, type: "notations" } }));
    }
    return el("div", { class: "field" }, el("label", { for: id, text: label(schema.game, option) }),
      el("input", { id, type: "text", dataset: { option: option.key, type: "text" } }));
  }

  function bandRow(schema, field, index) {
    return el("div", { class: "band card", dataset: { band: index } },
      el("label", { text: t("setup.band_n", { n: index + 1 }) }),
      el("input", { type: "text", class: "band-name", placeholder: t("setup.band_name"), autocomplete: "off" }),
      el("label", { text: t("setup.models") }),
      el("textarea", { class: "band-models", rows: 4, placeholder: field.model_example || "" }),
      field.model_help ? el("p", { class: "hint", text: t(`setup.${schema.game}.model_help`, {}, field.model_help) }) : null);
  }

  function renderSetupFields(game) {
    const schema = games.find((g) => g.game === game).setup_schema;
    const box = $("setup-fields");
    box.replaceChildren();
    $("game-hint").textContent = t(`setup.${game}.hint`, {}, "");
    const fields = schema.fields || [];
    const perPlayer = fields.filter((f) => f.per_player);
    if (schema.players) {
      box.append(rowList("players", schema.players.min, schema.players.max,
        (i) => playerRow(game, schema, perPlayer, i), t(`setup.${game}.players`, {}, schema.players.label || t("setup.players"))));
    }
    for (const field of fields.filter((f) => !f.per_player)) {
      if (field.type === "names") {
        box.append(rowList(`field-${field.key}`, field.min ?? 1, field.max ?? 20, (i) => nameRow(i), label(game, field)));
        box.lastElementChild.dataset.names = field.key;
      } else if (field.type === "bands") {
        const group = rowList(`field-${field.key}`, field.min ?? 2, field.max ?? 2, (i) => bandRow(schema, field, i), label(game, field));
        group.dataset.bands = field.key;
        box.append(group);
      } else {
        box.append(optionInput(schema, field, `field-${field.key}`));
      }
    }
    for (const option of schema.options || []) box.append(optionInput(schema, option, `option-${option.key}`));
    syncPlayerOptions();
    box.oninput = syncPlayerOptions;
  }

  function playerNames() {
    return Array.from(document.querySelectorAll("#setup-fields [name=player-name], #setup-fields input[data-key=name]"))
      .map((input, i) => input.value.trim() || input.placeholder || `${i + 1}`);
  }

  function syncPlayerOptions() {
    const names = playerNames();
    document.querySelectorAll("#setup-fields select[data-type=player]").forEach((select) => {
      const current = Number(select.value) || 0;
      select.replaceChildren(...names.map((n, i) => el("option", { value: i, text: n, selected: i === current ? true : null })));
    });
  }

  function collectSetup(game) {
    const schema = games.find((g) => g.game === game).setup_schema;
    const setup = {};
    const perPlayer = (schema.fields || []).filter((f) => f.per_player);
    if (schema.players) {
      if (perPlayer.length) {
        setup.players = Array.from(document.querySelectorAll("#players > .player-row")).map((row) => {
          const player = {};
          row.querySelectorAll("[data-key]").forEach((input) => {
            const box = input.closest("[data-required-for]");
            if (box && box.hidden) return;
            if (input.value.trim() !== "") player[input.dataset.key] = input.value.trim();
          });
          row.querySelectorAll("[data-swing]").forEach((box) => {
            const sizes = {};
            box.querySelectorAll("input[data-letter]").forEach((input) => {
              if (input.value !== "") sizes[input.dataset.letter] = Number(input.value);
            });
            if (Object.keys(sizes).length) player[box.dataset.swing] = sizes;
          });
          return player;
        });
      } else {
        setup.players = Array.from(document.querySelectorAll("#players [name=player-name]"))
          .map((input, i) => input.value.trim() || t("setup.player_n", { n: i + 1 }));
      }
    }
    document.querySelectorAll("#setup-fields [data-names]").forEach((group) => {
      setup[group.dataset.names] = Array.from(group.querySelectorAll("[name=player-name]"))
        .map((input, i) => input.value.trim() || t("setup.player_n", { n: i + 1 }));
    });
    document.querySelectorAll("#setup-fields [data-bands]").forEach((group) => {
      setup[group.dataset.bands] = Array.from(group.querySelectorAll(".band")).map((band) => ({
        name: band.querySelector(".band-name").value.trim(),
        models: band.querySelector(".band-models").value.split("\n").map((l) => l.trim()).filter(Boolean),
      }));
    });
    document.querySelectorAll("#setup-fields [data-option]").forEach((input) => {
      const key = input.dataset.option;
      const type = input.dataset.type;
      if (type === "bool") setup[key] = input.checked;
      else if (type === "player") setup[key] = Number(input.value);
      else if (type === "int") {
        if (input.value === "") { if (input.dataset.nullable === "yes") setup[key] = null; } else setup[key] = Number(input.value);
      } else if (type === "notations") {
        const lines = input.value.split("\n").map((l) => l.trim()).filter(Boolean);
        if (lines.length) setup[key] = lines;
      } else if (input.value.trim()) setup[key] = input.value.trim();
    });
    return setup;
  }

  async function initSetup() {
    games = await (await fetch("/api/games")).json();
    const select = $("game-select");
    for (const g of games) select.append(el("option", { value: g.game, text: t(`game.${g.game}`, {}, g.title) }));
    const params = new URLSearchParams(location.search);
    // the game asked for (?game=), else the one at the table, else the first: one the list offers
    const wanted = [params.get("game"), state && state.game].find((name) => games.some((g) => g.game === name));
    select.value = wanted || games[0].game;
    renderSetupFields(select.value);
    select.onchange = () => renderSetupFields(select.value);
    $("setup-form").onsubmit = async (event) => {
      event.preventDefault();
      const game = select.value;
      if (await act("new-game", { game, setup: collectSetup(game) })) location.href = "/";
    };
    // enabled only now: a tap before would submit the bare form and reload the page (seen on a busy table)
    $("start").disabled = false;
  }

  // ------------------------------------------------------------------------------------ start

  listeners.push(renderCamera, renderTitle);
  if (PAGE === "table") initTable();
  if (PAGE === "correct") initCorrect();
  if (PAGE === "settings") {
    listeners.push((s) => renderSnapshotImage(s, true));
    for (const span of document.querySelectorAll("[data-style]")) span.style.cssText = span.dataset.style;
  }
  const lang = $("lang-toggle");
  if (lang) {
    lang.onclick = (event) => {
      event.preventDefault();
      const url = new URL(location.href);
      url.searchParams.set("lang", lang.dataset.lang);
      location.replace(url.toString());
    };
  }
  refresh().then(() => {
    if (PAGE === "setup") initSetup();
    connect();
  });
})();
