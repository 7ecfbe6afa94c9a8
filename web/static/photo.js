/* A phone as the table's camera (loaded only on a table that takes photos): the photo card of the table
   page. The photo is resized here before it is sent (companion.photos.LONG_SIDE), then POST /api/photo
   reads it with the table's vision and the reading comes back as the proposal.

   A plain <input type=file> works over plain HTTP on every phone browser, where getUserMedia needs a
   secure context (docs/web.md). "Take" has capture=environment (the back camera at once); "Choose" has
   none, so a phone whose camera is not allowed, or a computer without one, still sends a photo. */
(() => {
  "use strict";

  const G = window.goblin;
  const $ = (id) => document.getElementById(id);
  const card = $("photo");
  if (!G || !card) return;
  const M = JSON.parse($("photo-messages").textContent);  // this card's words (not in the page's catalogue)
  const LONG_SIDE = 2048;
  const QUALITY = 0.85;
  const TYPES = ["image/jpeg", "image/png", "image/webp"];

  function t(key, params, fallback) {
    const text = Object.prototype.hasOwnProperty.call(M, key) ? M[key] : fallback;
    if (text === undefined || text === null) return String(key);
    return String(text).replace(/\{(\w+)\}/g, (whole, name) =>
      params && params[name] !== undefined ? String(params[name]) : whole);
  }

  /** What the card says under its buttons; `problem` shows it as an error. */
  function say(text, problem) {
    const line = $("photo-status");
    line.textContent = text || "";
    line.classList.toggle("error", !!problem);
    line.hidden = !text;
  }

  function refusal(data) {
    const code = data && data.error ? data.error : "internal-error";
    const detail = data && data.key ? t(data.key, data.params, data.detail) : (data && data.detail) || "";
    return `${t(`error.${code}`, {}, G.t(`error.${code}`, {}, code))}: ${detail}`;
  }

  /** {blob, width, height}: the photo with its long side at most LONG_SIDE px, as JPEG, turned as the phone
      shows it (EXIF orientation); the file itself when this browser cannot decode it. */
  async function shrink(file) {
    let bitmap;
    try {
      bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    } catch (error) {
      return { blob: file, width: null, height: null };
    }
    const scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    canvas.getContext("2d").drawImage(bitmap, 0, 0, width, height);
    if (bitmap.close) bitmap.close();
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", QUALITY));
    canvas.width = canvas.height = 0;  // give the phone the pixels' memory back now
    return { blob: blob || file, width, height };
  }

  /** Send a photo (the table PIN asked for as for any action); the snapshot with its proposal, or null
      after saying why not. */
  async function send(file) {
    say(t("photo.preparing"));
    const photo = await shrink(file);
    if (!TYPES.includes(photo.blob.type)) {
      say(t("photo.unreadable", { type: file.type || file.name }), true);
      return null;
    }
    say(t("photo.sending", { kb: Math.round(photo.blob.size / 1024) }));
    const got = await G.withPin((headers) => {
      const s = G.state;   // again at each attempt: the table may move on while the PIN is asked
      const query = s ? `?step=${s.step}&position=${encodeURIComponent(s.position || "")}` : "";
      return fetch(`/api/photo${query}`, {
        method: "POST", headers: { ...headers, "Content-Type": photo.blob.type }, body: photo.blob });
    }, (error) => say(`${G.t("error.network")}: ${error}`, true));
    if (!got) return null;
    const { response, data } = got;
    if (!response.ok) {
      say(refusal(data), true);
      if (data.error === "stale-step") G.refresh();
      return null;
    }
    const p = data.photo || {};
    // read with no proposal (a d6 where a d20 is rolled, no die seen): the table card says why
    const read = data.proposal ? "photo.read" : "photo.read_unfit";
    say(t(p.pending ? "photo.pending" : read, { width: p.width, height: p.height,
      kb: Math.round((p.bytes || 0) / 1024), seconds: ((p.read_ms || 0) / 1000).toFixed(1) }));
    G.apply(data);
    return data;
  }

  const labels = card.querySelectorAll("label");
  const busy = (on) => {
    card.classList.toggle("busy", on);
    for (const label of labels) label.style.opacity = on ? ".45" : "";
  };
  for (const id of ["photo-camera", "photo-file"]) {
    const input = $(id);
    // out of sight but not display:none (a label opens it on every browser); styled through the CSSOM,
    // which the CSP allows, so the stylesheet other tables download stays as it was
    input.style.cssText = "position:absolute;width:1px;height:1px;opacity:0;overflow:hidden";
    input.onchange = async () => {
      const file = input.files && input.files[0];
      input.value = "";  // the same photo may be chosen again
      if (!file || card.classList.contains("busy")) return;
      busy(true);
      try {
        await send(file);
      } finally {
        busy(false);
      }
    };
  }
  // offered while the table expects a roll (a new photo replaces a reading not yet confirmed)
  const follow = (s) => { card.hidden = !s.expects; };
  G.listeners.push(follow);
  if (G.state) follow(G.state);
})();
