/* What the dedicated views of games/<game>.js share: their stylesheet (games.css) and shared words
   (games.<lang>.json), loaded once before any of them draws, and small drawing helpers. Each view is an ES
   module exporting render(snapshot, root, helpers); helpers = {el, t, has, act, fmt, renderGeneric, ...}
   (app.js). Every word goes through the i18n catalogue (t): the page's, then the game's own words
   (games/<game>.<lang>.json, which app.js loads with the view), then the shared ones. */

const css = document.createElement("link");
css.rel = "stylesheet";
css.href = "/static/games.css";
document.head.append(css);
await window.goblin.loadGameMessages();

/** The helpers with `t` reading the views' shared words (games.<lang>.json) first. */
export function own(h) {
  const M = window.goblinGameMessages || {};
  const t = (key, params, fallback) => {
    if (!Object.prototype.hasOwnProperty.call(M, key)) return h.t(key, params, fallback);
    return String(M[key]).replace(/\{(\w+)\}/g, (whole, name) =>
      params && params[name] !== undefined && params[name] !== null ? h.fmt(params[name]) : whole);
  };
  return Object.assign({}, h, { t });
}

/** A game's render(snapshot, root, helpers): `draw` with the helpers in the page's language, then the
    generic view folded away (without `omit`) and the flow's forms, even if `draw` failed. */
export function view(draw, omit) {
  return (s, root, h0) => {
    const h = own(h0);
    try { draw(s, root, h); } finally { generic(h, s, root, omit); }
  };
}

/** After a dedicated view: the generic view folded away (every field of the view but `omit`, which the
    dedicated view already shows in the page's language) and the flow's forms. */
export function generic(h, s, root, omit) {
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
export function newsCard(h, id, lines) {
  if (!lines || !lines.length) return null;
  return card(h, id, h.t("games.news"),
    h.el("ul", { class: "news" }, lines.map((l) => h.el("li", { text: typeof l === "string" ? l : h.t(l.key, l.params, l.text) }))));
}

export function card(h, id, title, ...children) {
  return h.el("section", { class: "card game-card", id }, title ? h.el("h2", { text: title }) : null, ...children);
}

export function facts(h, pairs) {
  const dl = h.el("dl", { class: "facts" });
  for (const [label, value, id] of pairs) {
    if (value === null || value === undefined || value === "") continue;
    dl.append(h.el("dt", { text: label }), h.el("dd", { id }, value instanceof Node ? value : String(value)));
  }
  return dl;
}

export function yesNo(h, v) {
  return v ? h.t("value.yes") : h.t("value.no");
}

/** The choice (from the snapshot) whose action matches `test`, or undefined. */
export function findChoice(s, test) {
  return (s.choices || []).find((c) => c.action && test(c.action));
}

export function tapChoice(h, s, choice) {
  return () => h.act("choose", { index: choice.index });
}

/** A small form of labelled inputs whose submit sends `build(values)` as a manual action. */
export function actionForm(h, id, title, fields, build, submitText) {
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
