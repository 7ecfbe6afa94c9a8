/* The settings page's sections (loaded only there): teach the table its tokens, the tray's zones, the
   camera's orientation, and the tray the camera reads (four edges, or corners tapped on the camera's
   picture). The page itself (its state, live updates, PIN and errors) is app.js's, through window.goblin. */
(() => {
  "use strict";

  const G = window.goblin;
  const $ = (id) => document.getElementById(id);
  if (!G || document.body.dataset.page !== "settings") return;
  const { t, has, el, act, hideError } = G;

  // ------------------------------------------------------------------ settings: teach the table

  function teachStateText(c) {
    if (!c.calibrated) return t("teach.none");
    const tokens = c.tokens || {};
    const lines = [t("teach.state", { alive: tokens.alive || 0, dead: tokens.dead || 0 })];
    const faces = Object.entries(c.faces || {}).map(([value, n]) => `${value} (${n})`);
    if (faces.length) lines.push(t("teach.faces", { faces: faces.join(", ") }));
    if (!tokens.alive !== !tokens.dead) lines.push(t("teach.one_side"));
    return lines.join(" ");
  }

  let teachDrawn = 0;

  function renderTeach(c) {
    teachDrawn += 1;
    const line = $("teach-state");
    line.textContent = teachStateText(c);
    line.dataset.calibrated = c.calibrated ? "yes" : "no";
    $("teach-forget").disabled = !c.examples && !c.error;
    const banner = $("calibration-banner");
    if (banner && !c.error) banner.hidden = true;
  }

  /** The line under a settings section's button: what it did, or why it could not. */
  function resultLine(id, text, ok) {
    const box = $(id);
    box.textContent = text;
    box.className = `teach-result ${ok ? "ok" : "failed"}`;
    box.hidden = false;
  }

  const teachResult = (text, ok) => resultLine("teach-result", text, ok);

  /** The error of a refused action under its section's button, in the section's words (``prefix.error.CODE``)
      when it has them. */
  function failedLine(id, prefix) {
    const code = G.lastError && G.lastError.error;
    resultLine(id, has(`${prefix}.error.${code}`) ? t(`${prefix}.error.${code}`) : $("error").textContent, false);
    hideError();
  }

  const teachFailed = () => failedLine("teach-result", "teach");

  /** The "back to the shipped one" button of a section (``tune``, ``finder``): asked first, then
   *  ``POST /api/<prefix>/forget``, the section redrawn with ``render`` and its result line saying so. */
  function forgetButton(prefix, render) {
    $(`${prefix}-forget`).onclick = async () => {
      if (!window.confirm(t(`${prefix}.forget_confirm`))) return;
      const done = await act(`${prefix}/forget`, {});
      if (!done) return failedLine(`${prefix}-result`, prefix);
      render(done);
      resultLine(`${prefix}-result`, t(`${prefix}.forgotten`), true);
    };
  }

  async function initTeach() {
    if (!$("teach")) return;
    $("teach-button").onclick = async () => {
      const button = $("teach-button");
      const label = document.querySelector("input[name=teach-label]:checked").value;
      button.disabled = true;
      teachResult(t("teach.busy"), true);
      try {
        const done = await act("teach", { kind: "token", label });
        if (!done) return teachFailed();
        renderTeach(done);
        const name = t(`teach.${label}`);
        teachResult(done.learned === 1 ? t("teach.learned_one", { label: name })
          : t("teach.learned", { count: done.learned, label: name }), true);
      } finally {
        button.disabled = false;
      }
    };
    $("teach-forget").onclick = async () => {
      if (!window.confirm(t("teach.forget_confirm"))) return;
      const done = await act("calibration/forget", {});
      if (!done) return teachFailed();
      renderTeach(done);
      teachResult(t("teach.forgotten"), true);
    };
    // the buttons answer from the page's first moment; the state asked for now is drawn only if nothing
    // newer has been (a tap answered first must not be drawn over by the older state)
    const drawn = teachDrawn;
    const response = await fetch("/api/calibration");
    const s = response.ok ? await response.json() : null;
    if (s && teachDrawn === drawn) renderTeach(s);
  }

  // ------------------------------------------------------------------ settings: adapt to the table's dice

  const TUNE_POLL_MS = 2000;

  function renderTune(s) {
    const line = $("tune-state");
    let text = `${t("tune.photos", { photos: s.photos })} ${t(s.tuned ? "tune.tuned" : "tune.not_tuned")}`;
    if (s.auto_in !== null && s.auto_in !== undefined) {
      text += ` ${s.auto_in ? t("tune.auto_in", { photos: s.auto_in }) : t("tune.auto_next")}`;
    }
    line.textContent = text;
    line.dataset.tuned = s.tuned ? "yes" : "no";
    $("tune-button").disabled = s.running;
    $("tune-forget").disabled = s.running || !s.tuned;
  }

  /** What the last run measured on the held-back photos, and whether it was kept. */
  function tuneReport(last) {
    const words = { before: last.right_before, after: last.right_after, dice: last.held_back_dice };
    if (last.reason === "too-few-faces" || last.reason === "too-few-held-back") return t(`tune.reason.${last.reason}`);
    return `${t("tune.measured", words)} ${t(last.saved ? "tune.saved" : "tune.not_saved")}`;
  }

  async function followTune() {
    for (;;) {
      const response = await fetch("/api/tune");
      if (!response.ok) return resultLine("tune-result", $("error").textContent, false);
      const s = await response.json();
      renderTune(s);
      if (!s.running) {
        if (s.error) return resultLine("tune-result", t("tune.failed", { detail: s.error }), false);
        return s.last ? resultLine("tune-result", tuneReport(s.last), true) : undefined;
      }
      await new Promise((done) => setTimeout(done, TUNE_POLL_MS));
    }
  }

  async function initTune() {
    if (!$("tune")) return;
    $("tune-button").onclick = async () => {
      $("tune-button").disabled = true;
      const started = await act("tune", {});
      if (!started) {
        failedLine("tune-result", "tune");
        $("tune-button").disabled = false;
        return;
      }
      resultLine("tune-result", t("tune.busy"), true);
      await followTune();
    };
    forgetButton("tune", renderTune);
    // a run started elsewhere (another phone, or by itself every 50 confirmed photos) is followed, and the
    // last one's report is shown: the players see that the camera adapted itself
    const response = await fetch("/api/tune");
    if (!response.ok) return;
    const s = await response.json();
    if (s.running) {
      resultLine("tune-result", t("tune.busy"), true);
      await followTune();
    } else if (s.last) {
      resultLine("tune-result", tuneReport(s.last), true);
    }
  }

  // ------------------------------------------------------------------ settings: the table's own finder

  let finderDrawn = 0;

  function renderFinder(s) {
    finderDrawn += 1;
    const line = $("finder-state");
    const card = s.card || {};
    const before = card.before || {};
    const after = card.after || {};
    let text = t(s.finder === "table" ? "finder.table" : "finder.shipped");
    if (s.finder === "table" && after.found_pct !== undefined) {
      text += ` ${t("finder.measured", { photos: card.photos, found_before: before.found_pct, found_after: after.found_pct,
        phantoms_before: before.phantom_per_photo, phantoms_after: after.phantom_per_photo })}`;
    }
    line.textContent = text;
    line.dataset.finder = s.finder;
    $("finder-forget").disabled = s.finder !== "table";
    $("finder-compare").disabled = s.finder !== "table";
    renderCompared(s.finder === "table" ? s.compared : null);
    renderFit(s);
  }

  let fitPoll = null;

  /** The fit made here (companion.finderfit): its progress while it runs (asked again every 3 s), else
   *  the last fit's numbers and whether it was installed, or why it ended without any. */
  function renderFit(s) {
    const box = $("finder-fitting");
    const running = Boolean(s.fit);
    $("finder-fit").disabled = running;
    $("finder-fit-stop").hidden = !running;
    let text = "";
    let ok = true;
    if (running) {
      text = t(`finder.fit_${s.fit.phase}`, { pct: Math.round(s.fit.spent_pct), steps: s.fit.steps, minutes: s.fit.minutes });
    } else if (s.fit_error) {
      const code = s.fit_error.code;
      text = has(`finder.fit_error.${code}`) ? t(`finder.fit_error.${code}`) : t("finder.fit_failed", { detail: s.fit_error.detail });
      ok = false;
    } else if (s.last_fit) {
      const c = s.last_fit;
      text = t(c.installed ? "finder.fit_installed" : "finder.fit_kept_out", { photos: c.photos, steps: c.steps,
        held: c.held_back, dice: c.before.dice,
        found_before: c.before.found_pct, found_after: c.after.found_pct,
        phantoms_before: c.before.phantom_per_photo, phantoms_after: c.after.phantom_per_photo });
      ok = Boolean(c.installed);
    }
    $("finder-fit-install").hidden = running || Boolean(s.fit_error) || !(s.last_fit && s.last_fit.kept);
    box.hidden = !text;
    box.textContent = text;
    box.dataset.phase = running ? s.fit.phase : s.fit_error ? "error" : s.last_fit ? "done" : "";
    box.className = `teach-result ${ok ? "ok" : "failed"}`;
    clearTimeout(fitPoll);
    if (running) {
      fitPoll = setTimeout(async () => {
        // drawn only if nothing newer was meanwhile (a Stop answered while this poll was on its way: the
        // older state would show the fit running again)
        const drawn = finderDrawn;
        const response = await fetch("/api/finder");
        const s = response.ok ? await response.json() : null;
        if (s && finderDrawn === drawn) renderFinder(s);
      }, 3000);
    }
  }

  /** The last comparison of the table's finder with the shipped one on the table's latest photos
   *  (companion.tablefinder.compare): what each missed and invented; "worse" says to go back. */
  function renderCompared(c) {
    const box = $("finder-compared");
    box.hidden = !c;
    if (!c) return;
    let text;
    if (c.verdict === "early") {
      text = t("finder.compared_early", { photos: c.photos, needed: c.needed });
    } else {
      text = `${t("finder.compared", { photos: c.photos, dice: c.dice, table_missed: c.table.missed,
        table_phantoms: c.table.phantoms, shipped_missed: c.shipped.missed,
        shipped_phantoms: c.shipped.phantoms })} ${t(`finder.compared_${c.verdict}`)}`;
    }
    box.textContent = text;
    box.dataset.verdict = c.verdict;
    box.className = `teach-result ${c.verdict === "worse" ? "failed" : "ok"}`;
  }

  async function initFinder() {
    if (!$("finder")) return;
    $("finder-file").onchange = async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      resultLine("finder-result", t("finder.busy"), true);
      const done = await G.upload("finder", file, "application/octet-stream");
      event.target.value = "";
      if (!done) return failedLine("finder-result", "finder");
      renderFinder(done);
      resultLine("finder-result", t("finder.installed", { found: done.installed.demo_found, dice: done.installed.demo_dice }), true);
    };
    $("finder-compare").onclick = async () => {
      resultLine("finder-result", t("finder.comparing"), true);
      $("finder-compare").disabled = true;
      const done = await act("finder/compare", {});
      $("finder-compare").disabled = false;
      if (!done) return failedLine("finder-result", "finder");
      $("finder-result").hidden = true;
      renderFinder(done);
    };
    $("finder-fit").onclick = async () => {
      $("finder-fit").disabled = true;
      const done = await act("finder/fit", {});
      if (!done) {
        $("finder-fit").disabled = false;
        return failedLine("finder-result", "finder");
      }
      $("finder-result").hidden = true;
      renderFinder(done);
    };
    $("finder-fit-install").onclick = async () => {
      if (!window.confirm(t("finder.fit_install_confirm"))) return;
      const done = await act("finder/fit/install", {});
      if (!done) return failedLine("finder-result", "finder");
      renderFinder(done);
    };
    $("finder-fit-stop").onclick = async () => {
      const done = await act("finder/fit/stop", {});
      if (!done) return failedLine("finder-result", "finder");
      renderFinder(done);
    };
    forgetButton("finder", renderFinder);
    // as initTeach: the buttons first (a tap before the state came back was lost: "Adatta qui" did nothing
    // on a busy table), then the state, unless a tap's answer was drawn already
    const drawn = finderDrawn;
    const response = await fetch("/api/finder");
    const s = response.ok ? await response.json() : null;
    if (s && finderDrawn === drawn) renderFinder(s);
  }

  // ------------------------------------------------------------------ settings: the tray's zones

  const SVG = "http://www.w3.org/2000/svg";

  /** Redraw the preview's zones and their labels (the same drawing the server renders first). */
  function drawZones(zones) {
    const svg = $("zones");
    const labels = $("zone-labels");
    if (!svg || !labels) return;
    svg.replaceChildren(...Object.entries(zones).map(([name, polygon]) => {
      const shape = document.createElementNS(SVG, "polygon");
      shape.setAttribute("data-zone", name);
      shape.setAttribute("points", polygon.map(([x, y]) => `${x},${y}`).join(" "));
      return shape;
    }));
    const mean = (polygon, i) => polygon.reduce((sum, point) => sum + point[i], 0) / polygon.length * 100;
    labels.replaceChildren(...Object.entries(zones).map(([name, polygon]) =>
      el("span", { style: `left: ${mean(polygon, 0).toFixed(1)}%; top: ${mean(polygon, 1).toFixed(1)}%`, text: name })));
  }

  function renderZones(z) {
    const state = $("zones-state");
    state.textContent = t(`zones.from.${z.source}`);
    state.dataset.source = z.source;
    for (const radio of document.querySelectorAll("input[name=zones-preset]")) radio.checked = radio.value === z.preset;
    $("zones-toss").checked = !!z.toss;
    $("zones-error").textContent = z.error || "";
    $("zones-error").hidden = !z.error;
    $("zones-reset").disabled = z.source !== "page" && !z.error;
    drawZones(z.zones);
  }

  /** POST a zones action; the section drawn again from the answer and its line saying so, or why not. */
  async function sendZones(path, payload, render, result, words) {
    const done = await act(path, payload);
    if (!done) {
      result($("error").textContent, false);
      return hideError();
    }
    render(done);
    return result(t(words), true);
  }

  const zonesResult = (text, ok) => resultLine("zones-result", text, ok);
  const trayResult = (text, ok) => resultLine("tray-result", text, ok);
  const WHOLE = [[0, 0], [1, 0], [1, 1], [0, 1]];
  const EDGES = ["left", "right", "top", "bottom"];
  const MAX_CORNERS = 64;  // vision.zones.TRAY_POINTS: the server refuses more

  /** The rectangle the four edge sliders set, in fractions of the picture. */
  function trayEdges() {
    const [left, right, top, bottom] = EDGES.map((edge) => Number($(`tray-${edge}`).value) / 100);
    return [[left, top], [1 - right, top], [1 - right, 1 - bottom], [left, 1 - bottom]];
  }

  /** The white outline, and while corners are tapped a dot on each (the outline closes from the third). */
  function drawTray(points) {
    const svg = $("tray-outline");
    if (!svg) return;
    const outline = document.createElementNS(SVG, "polygon");
    outline.setAttribute("points", (points || WHOLE).map(([x, y]) => `${x},${y}`).join(" "));
    const dots = tapping ? (points || []).map(([x, y]) => {
      const dot = document.createElementNS(SVG, "ellipse");
      for (const [name, value] of [["cx", x], ["cy", y], ["rx", 0.012], ["ry", 0.016]]) dot.setAttribute(name, value);
      return dot;
    }) : [];
    svg.replaceChildren(outline, ...dots);
  }

  /** The sliders at the outline's bounding box (a drawn polygon from the file shows as its box). */
  function setEdges(points) {
    const xs = (points || WHOLE).map((p) => p[0]);
    const ys = (points || WHOLE).map((p) => p[1]);
    const at = [Math.min(...xs), 1 - Math.max(...xs), Math.min(...ys), 1 - Math.max(...ys)];
    EDGES.forEach((edge, i) => { $(`tray-${edge}`).value = String(Math.round(at[i] * 100)); });
  }

  /** The outline the page would save: the sliders' rectangle, the corners tapped on the camera's picture,
   * or, until either moves, the outline in force (a drawn polygon is not squared by saving it again). */
  let trayShape = WHOLE;
  let tapping = false;

  function showCorners() {
    $("tray-tapbar").hidden = !tapping;   // under the picture, where the thumb is while tapping
    $("tray-corners").textContent = tapping ? t("zones.tray.tap.count", { n: trayShape.length }) : "";
    $("tray-unpoint").disabled = !tapping || trayShape.length === 0;
    $("camera-figure").classList.toggle("tapping", tapping);
    drawTray(trayShape);
  }

  function renderTray(z) {
    const state = $("tray-state");
    state.textContent = t(`zones.tray.from.${z.tray_source}`);
    state.dataset.source = z.tray_source;
    $("tray-reset").disabled = z.tray_source !== "page";
    setEdges(z.tray);
    trayShape = z.tray || WHOLE;
    tapping = false;
    showCorners();
  }

  /** A tap on the camera's picture, as a corner in fractions of it (the picture is the frame, scaled). */
  function tapCorner(event) {
    if (!tapping) return;
    const box = $("snapshot").getBoundingClientRect();
    if (!box.width || !box.height) return;
    const at = (v) => Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;
    if (trayShape.length >= MAX_CORNERS) return trayResult(t("zones.tray.tap.full", { n: MAX_CORNERS }), false);
    trayShape = [...trayShape, [at((event.clientX - box.left) / box.width), at((event.clientY - box.top) / box.height)]];
    showCorners();
  }

  function initTray() {
    const card = $("tray-card");
    if (!card) return;
    const start = JSON.parse(card.dataset.tray);
    setEdges(start);
    trayShape = start || WHOLE;
    for (const edge of EDGES) {
      $(`tray-${edge}`).oninput = () => {
        tapping = false;
        trayShape = trayEdges();
        showCorners();
      };
    }
    // a table with no camera reads the phones' photos whole: a tray drawn on a photo would apply to nothing
    const follow = (s) => {
      const none = !!(s.camera && s.camera.state === "none" && s.camera.source === "none");  // serve --camera none
      $("tray-no-camera").hidden = !none;
      $("tray-tap").disabled = none;
    };
    G.listeners.push(follow);
    if (G.state) follow(G.state);
    $("tray-tap").onclick = () => {
      if ($("camera-figure").hidden) return trayResult(t("zones.tray.tap.no_picture"), false);
      tapping = true;
      trayShape = [];
      $("tray-result").hidden = true;
      showCorners();
      $("camera-figure").scrollIntoView({ block: "start" });
    };
    $("tray-unpoint").onclick = () => {
      trayShape = trayShape.slice(0, -1);
      showCorners();
    };
    document.querySelector("#camera-figure .overlay-box").addEventListener("click", tapCorner);
    const send = (tray, words) => sendZones("zones/tray", { tray }, renderTray, trayResult, words);
    $("tray-save").onclick = $("tray-done").onclick = () => {
      if (trayShape.length < 3) {
        trayResult(t("zones.tray.tap.few"), false);
        if (tapping) $("tray-corners").textContent = t("zones.tray.tap.few");
        return undefined;
      }
      return send(trayShape, "zones.tray.saved");
    };
    $("tray-reset").onclick = () => send(null, "zones.tray.reset_done");
  }

  function initZones() {
    if (!$("zones-card")) return;
    $("zones-save").onclick = () => {
      const picked = document.querySelector("input[name=zones-preset]:checked");
      if (!picked) return zonesResult(t("zones.pick"), false);
      return sendZones("zones", { preset: picked.value, toss: $("zones-toss").checked }, renderZones, zonesResult,
        "zones.saved");
    };
    $("zones-reset").onclick = () => sendZones("zones/reset", {}, renderZones, zonesResult, "zones.reset_done");
  }

  // ------------------------------------------------------------------ settings: the camera's orientation

  let turnDrawn = 0;

  function renderTurn(s) {
    turnDrawn += 1;
    for (const button of document.querySelectorAll("#turn-card [data-turn]")) {
      button.setAttribute("aria-pressed", Number(button.dataset.turn) === s.turn ? "true" : "false");
      button.disabled = !s.camera;
    }
    const state = $("turn-state");
    state.textContent = t(`turn.from.${s.source}`, { turn: s.configured });
    state.dataset.source = s.source;
    $("turn-error").textContent = s.error || "";
    $("turn-error").hidden = !s.error;
    $("turn-reset").disabled = !s.camera || s.source !== "page";
    $("turn-no-camera").hidden = s.camera;
  }

  /** POST a turn (degrees, or null for the file's): the section drawn from the answer, its line saying so;
   *  the zones and tray the page set turned with the picture, so the preview's are drawn again. */
  async function sendTurn(turn, words) {
    const done = await act("camera/turn", { turn });
    if (!done) return failedLine("turn-result", "turn");
    renderTurn(done);
    resultLine("turn-result", t(words, { turn: done.turn }), true);
    if (!$("zones-card")) return undefined;
    const response = await fetch("/api/zones");
    const z = response.ok ? await response.json() : null;
    if (z) {
      renderZones(z);
      renderTray(z);
    }
    return undefined;
  }

  async function initTurn() {
    if (!$("turn-card")) return;
    for (const button of document.querySelectorAll("#turn-card [data-turn]")) {
      button.onclick = () => sendTurn(Number(button.dataset.turn), "turn.saved");
    }
    $("turn-reset").onclick = () => sendTurn(null, "turn.reset_done");
    // as initTeach: the buttons first, then the state, unless a tap's answer was drawn already
    const drawn = turnDrawn;
    const response = await fetch("/api/camera/turn");
    const s = response.ok ? await response.json() : null;
    if (s && turnDrawn === drawn) renderTurn(s);
  }

  // ------------------------------------------------------------------ settings: the focus aid

  const FOCUS_EVERY_MS = 500;
  const FOCUS_FOR_MS = 180000;  // a measure stops by itself: no phone left open keeps the Pi measuring
  const FOCUS_AT_BEST = 0.97;   // within 3% of the best seen: as sharp as it got (noise moves it ~2%)

  function initFocus() {
    if (!$("focus")) return;
    let timer = null;
    let best = 0;
    let shown = null;
    let until = 0;
    let run = 0;  // the measuring run; a fetch answered after Stop (or a new start) is not drawn
    const say = (text) => { $("focus-state").textContent = text; };
    const stop = (why) => {
      clearTimeout(timer);
      timer = null;
      run += 1;
      $("focus-button").textContent = t("focus.start");
      if (why) say(why);
    };
    async function measure(mine) {
      if (mine !== run) return undefined;
      if (Date.now() > until) return stop(t("focus.stopped"));
      try {
        const response = await fetch("/api/focus", { cache: "no-store" });
        if (mine !== run) return undefined;
        if (!response.ok) return stop(t("focus.stopped"));
        const f = await response.json();
        if (mine !== run) return undefined;
        if (f.frame !== null && !f.error && f.frame !== shown) {  // the measured square, full resolution
          shown = f.frame;
          $("focus-view").src = `/api/focus.jpg?frame=${f.frame}`;
          $("focus-view").hidden = false;
        }
        if (f.frame === null) say(t("focus.no_frame"));
        else if (f.error) say(t("focus.bad_frame"));
        else if (f.sharpness === null) say(t("focus.few_edges"));
        else {
          best = Math.max(best, f.sharpness);
          const share = f.sharpness / best;
          $("focus-meter").value = share;
          $("focus-state").dataset.share = share.toFixed(3);
          say(`${t("focus.figure", { now: f.sharpness.toFixed(2), best: best.toFixed(2) })} `
            + t(share >= FOCUS_AT_BEST ? "focus.sharp" : "focus.turn"));
        }
      } catch (e) {
        return mine === run ? stop(t("focus.stopped")) : undefined;
      }
      if (timer !== null) timer = setTimeout(() => measure(mine), FOCUS_EVERY_MS);
    }
    $("focus-button").onclick = () => {
      if (timer !== null) return stop(t("focus.stopped"));
      best = 0;
      until = Date.now() + FOCUS_FOR_MS;
      run += 1;
      const mine = run;
      $("focus-button").textContent = t("focus.stop");
      timer = setTimeout(() => measure(mine), 0);
    };
  }

  initTeach();
  initTune();
  initFinder();
  initZones();
  initTray();
  initTurn();
  initFocus();
})();
