// The sheet's outbox: every tap is kept on the phone first, then sent, one after the other.
//
// htmx collects the tapped form; instead of sending it, the tap goes into the outbox (stored in
// localStorage with its own idempotency key) and shows on the sheet at once, marked as waiting.
// The outbox sends the taps in order. A tap the network, a timeout or a server error stops stays
// kept, with a banner ("offline – 3 changes waiting"), and goes when the phone is back online
// (or on the next try); the key makes the server count it once however often it is sent.
// A refused tap is reported in a notice that stays until the player has read it, outside the
// part of the page the live updates replace; the taps after it still go. Where the server names
// a way to make it count after all (its round's correction, filled in with it), the notice links it.
// While taps wait, Undo takes back the last of them on the phone, and names it: the last thing done
// here (undoing a counted change queued behind them would be refused once they arrive).
//
// What waits is marked by one attribute contract, the same for every game: whatever shows a
// waiting tap gets `data-pending`, and the sheet's stylesheet draws it. A form fills its empty
// slots first, one per waiting tap (elements marked `data-slot="empty"`, e.g. pass boxes); a form
// naming a face (`data-pending-in`, a selector) shows `data-pending-shows` there (a card just
// revealed); otherwise its button is marked.
//
// Why here and not in the service worker (Workbox's background sync): the sheet must show each
// waiting tap where it was made, count them, and say which one the server refused and why; all
// that lives in the page. Taps wait only while their sheet is open (or until it is opened again),
// which is when anyone can see them.
(() => {
  const banner = document.getElementById("connection");
  if (!banner || !window.htmx) return;
  const texts = JSON.parse(banner.dataset.texts);

  const TAP_TIMEOUT = 10_000;
  const FIRST_RETRY = 2_000;
  const LAST_RETRY = 30_000;
  const SERVER_TRIES = 5;
  // After this many server errors in a row a tap is given up and reported, so it cannot hold up the others.
  const NOT_SENT = new Set(["csrf_token", "key", "seen"]);

  const sheet = () => document.getElementById("sheet");
  const sheetAddress = sheet() && sheet().getAttribute("hx-get");
  if (!sheetAddress) return;
  const STORE = `tischblock.outbox:${sheetAddress}`;

  let { taps, notices } = load();
  let trouble = navigator.onLine ? null : "offline"; // null, "offline" or "server"
  let sending = false;
  let refreshFirst = taps.length > 0; // taps from an earlier visit: fetch the sheet (and a fresh form token) first
  let retryTimer = null;
  let retryDelay = FIRST_RETRY;

  function load() {
    try {
      const stored = JSON.parse(localStorage.getItem(STORE) || "{}");
      return { taps: stored.taps || [], notices: stored.notices || [] };
    } catch {
      return { taps: [], notices: [] };
    }
  }

  function save() {
    try {
      if (taps.length || notices.length) localStorage.setItem(STORE, JSON.stringify({ taps, notices }));
      else localStorage.removeItem(STORE);
    } catch {
      // Storage full or forbidden: the taps stay in this page until it closes.
    }
  }

  function freshKey() {
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  // What a tap is about, without its key and token: the same form on a newer sheet has the same identity.
  function identity(action, fields) {
    const kept = [...fields].filter(([name]) => !NOT_SENT.has(name)).map(([name, value]) => `${name}=${value}`);
    return `${new URL(action, location.href).pathname}?${kept.sort().join("&")}`;
  }

  function formIdentity(form) {
    return identity(form.getAttribute("hx-post"), new FormData(form));
  }

  function describe(form) {
    const button = form.querySelector("button");
    return form.dataset.tap || (button && (button.getAttribute("aria-label") || button.textContent.trim())) || "";
  }

  // --- Showing what waits -------------------------------------------------------------------

  function showPending() {
    const current = sheet();
    if (current) {
      current.querySelectorAll("[data-pending-was]").forEach((face) => {
        face.textContent = face.dataset.pendingWas;
        delete face.dataset.pendingWas;
      });
      current.querySelectorAll("[data-pending]").forEach((element) => delete element.dataset.pending);
      const counts = new Map();
      taps.forEach((tap) => counts.set(tap.identity, (counts.get(tap.identity) || 0) + 1));
      current.querySelectorAll("form[hx-post]").forEach((form) => {
        const waiting = counts.get(formIdentity(form));
        if (waiting) mark(form, waiting);
      });
    }
    showUndo();
    showBanner();
  }

  // Undo takes back the last thing done on this phone: while taps wait, that is the last waiting tap, which it names.
  function undoForm() {
    return sheet()?.querySelector("form:has(button.undo)") || null;
  }

  function takeBack() {
    return taps.length > (sending ? 1 : 0) ? taps[taps.length - 1] : null; // the tap on its way cannot be taken back
  }

  function showUndo() {
    const what = undoForm()?.querySelector(".undo-what");
    if (!what) return;
    what.dataset.undoWas ??= what.textContent;
    const last = takeBack();
    what.textContent = last ? last.tap : what.dataset.undoWas;
  }

  // A form fills its next empty slot per waiting tap; past its slots its button is marked, and a named face shows the tap.
  function mark(form, waiting) {
    const empty = [...form.querySelectorAll('[data-slot="empty"]')];
    empty.slice(0, waiting).forEach((slot) => (slot.dataset.pending = ""));
    if (empty.length >= waiting) return;
    const button = form.querySelector("button");
    if (button) button.dataset.pending = "";
    const face = form.dataset.pendingIn && document.querySelector(form.dataset.pendingIn);
    if (face && form.dataset.pendingShows) {
      face.dataset.pendingWas ??= face.textContent;
      face.textContent = form.dataset.pendingShows;
      face.dataset.pending = "";
    }
  }

  function counted(one, many) {
    return taps.length === 1 ? one : many.replace("{n}", taps.length);
  }

  function asOf() {
    const stamp = sheet()?.dataset.asOf;
    const when = stamp ? new Date(stamp) : new Date();
    return when.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
  }

  function showBanner() {
    let text = "";
    if (taps.length && trouble === "server") text = counted(texts.serverTroubleOne, texts.serverTroubleMany);
    else if (taps.length && trouble) text = `${counted(texts.waitingOne, texts.waitingMany)} · ${texts.asOf.replace("{time}", asOf())}`;
    else if (trouble === "offline") text = texts.offlineAsOf.replace("{time}", asOf());
    if (banner.dataset.text === text) return;
    banner.dataset.text = text;
    banner.replaceChildren();
    if (!text) return;
    const line = document.createElement("span");
    line.textContent = text;
    banner.append(line);
    if (taps.length) {
      const retry = document.createElement("button");
      retry.type = "button";
      retry.className = "send-now";
      retry.title = texts.sendNow;
      const icon = document.createElement("span");
      icon.setAttribute("aria-hidden", "true");
      icon.textContent = "↻";
      const name = document.createElement("span");
      name.className = "visually-hidden";
      name.textContent = texts.sendNow;
      retry.append(icon, name);
      retry.addEventListener("click", () => {
        refreshFirst = true;
        pump(true);
      });
      banner.append(retry);
    }
  }

  function setTrouble(kind) {
    trouble = kind;
    showBanner();
  }

  function showNotices() {
    const box = document.getElementById("notices");
    if (!box) return;
    box.replaceChildren(
      ...notices.map((notice) => {
        const item = document.createElement("div");
        item.className = "notice";
        item.setAttribute("role", "alert");
        const title = document.createElement("p");
        title.className = "notice-title";
        title.textContent = notice.title;
        item.append(title);
        notice.reasons.forEach((reason) => {
          const line = document.createElement("p");
          line.textContent = reason;
          item.append(line);
        });
        const forget = () => {
          notices = notices.filter((other) => other.id !== notice.id);
          save();
        };
        if (notice.fix && /^\/(?!\/)/.test(notice.fix.href)) {
          const link = document.createElement("a");
          link.className = "button primary fix";
          link.href = notice.fix.href;
          link.textContent = notice.fix.text;
          link.addEventListener("click", forget); // the player goes to fix it: read
          item.append(link);
        }
        const read = document.createElement("button");
        read.type = "button";
        read.textContent = notice.replace ? notice.replace.keep : texts.dismiss;
        read.addEventListener("click", () => {
          forget();
          showNotices();
        });
        item.append(read);
        if (notice.replace) {
          // Another phone moved the same thing meanwhile: send this phone's tap again, made on the sheet as it is now.
          const replace = document.createElement("button");
          replace.type = "button";
          replace.className = "primary";
          replace.textContent = notice.replace.label;
          replace.addEventListener("click", () => {
            notices = notices.filter((other) => other.id !== notice.id);
            take(notice.replace.action, new URLSearchParams(notice.replace.body), notice.tap);
            showNotices();
          });
          item.append(replace);
        }
        return item;
      }),
    );
  }

  // ``fix``: where the server says the tap can still be made to count (its round's correction, filled in with it);
  // ``replace``: the choice after another phone moved the same thing meanwhile (send mine again on the state as it is).
  function report(template, tap, reasons, fix = null, replace = null) {
    notices.push({ id: tap.key, title: template.replace("{tap}", tap.tap), reasons, fix, tap: tap.tap, replace });
    save();
    showNotices();
  }

  // --- Sending ----------------------------------------------------------------------------------

  // A picker or an explanation opened while a tap was on its way stays open when the answer
  // replaces the sheet: the thumb is already on it. Each is found again by its kind and place.
  function placed(root) {
    const seen = new Map();
    return [...root.querySelectorAll("details")].map((details) => {
      const place = seen.get(details.className) || 0;
      seen.set(details.className, place + 1);
      return [`${details.className}#${place}`, details];
    });
  }

  // A sheet this phone shows already (the push of its own tap came first) is not swapped in again, unless it says more:
  // a refusal's sheet carries the notice of it.
  function shownAlready(current, html) {
    const arriving = /<section id="sheet"[^>]*\sdata-version="(\d+)"/.exec(html);
    return Boolean(arriving && current.dataset.version && Number(current.dataset.version) >= Number(arriving[1]));
  }

  async function swapSheet(html, { unlessShown = false } = {}) {
    const current = sheet();
    if (!current || (unlessShown && shownAlready(current, html))) return;
    const open = new Set(placed(current).filter(([, details]) => details.open).map(([place]) => place));
    await htmx.swap({ text: html, sourceElement: current, target: current, swap: "outerHTML" });
    const arrived = sheet();
    if (arrived) placed(arrived).forEach(([place, details]) => open.has(place) && (details.open = true));
  }

  function timedFetch(url, options) {
    return fetch(url, { credentials: "same-origin", cache: "no-store", signal: AbortSignal.timeout(TAP_TIMEOUT), ...options });
  }

  // The sheet as it is now: whatever other phones did meanwhile, and a form token that is not stale.
  async function refresh() {
    try {
      const response = await timedFetch(sheetAddress, { headers: { "HX-Request": "true", Accept: "text/html" } });
      if (response.status >= 500) {
        setTrouble("server");
        return false;
      }
      if (response.ok) await swapSheet(await response.text());
      return true;
    } catch {
      setTrouble("offline");
      return false;
    }
  }

  // Send one tap; say whether it is kept (try again later), to be sent again at once with a fresh
  // token (renew), or settled, with what to show.
  async function deliver(tap) {
    const body = new URLSearchParams(tap.body);
    const token = sheet()?.querySelector("input[name=csrf_token]");
    if (token) body.set("csrf_token", token.value);
    let response;
    let html;
    try {
      response = await timedFetch(tap.action, { method: "POST", body, headers: { "HX-Request": "true", Accept: "text/html" } });
      html = await response.text();
    } catch {
      setTrouble("offline");
      return { kept: true };
    }
    if (response.status >= 500) {
      tap.failures = (tap.failures || 0) + 1;
      save();
      if (tap.failures < SERVER_TRIES) {
        setTrouble("server");
        return { kept: true };
      }
      return { notice: [texts.failed, []] };
    }
    // The server answered, but the answer may have been on its way when the phone lost its network: then
    // the phone is offline all the same, and the taps after it wait (pump sends nothing until "online").
    setTrouble(navigator.onLine ? null : "offline");
    if (response.ok) return { html };
    if (response.status === 400 && !tap.renewed) {
      // Most likely the form's token ran out while the sheet stood still: once more with a fresh one.
      tap.renewed = true;
      save();
      return { renew: true };
    }
    // The server says why as data (views/pages/refusals.py); an answer without it (from a proxy) is reported by its text.
    const said = refusalOf(response);
    const page = new DOMParser().parseFromString(html, "text/html");
    const reasons = said && said.reasons.length ? said.reasons : [page.body.textContent.trim()];
    const replace = said && said.replace && { ...said.replace, body: new URLSearchParams(said.replace.body).toString() };
    page.querySelectorAll(".problems").forEach((box) => box.remove()); // the notice says it instead
    const refreshed = page.getElementById("sheet");
    return { notice: [texts.refused, reasons, (said && said.fix) || null, replace || null], html: refreshed ? refreshed.outerHTML : null };
  }

  // What a refusal's ``Tischblock-Refusal`` header says: its reasons, where it can be fixed, and the tap to send again.
  function refusalOf(response) {
    try {
      return JSON.parse(response.headers.get("Tischblock-Refusal"));
    } catch {
      return null;
    }
  }

  async function pump(asked = false) {
    if (sending || (!navigator.onLine && !asked)) return;
    sending = true;
    clearTimeout(retryTimer);
    try {
      while (taps.length) {
        if (refreshFirst && !(await refresh())) return retryLater();
        refreshFirst = false;
        const tap = taps[0];
        const settled = await deliver(tap);
        if (settled.kept) return retryLater();
        if (settled.renew) {
          refreshFirst = true;
          continue;
        }
        taps.shift();
        save();
        if (settled.notice) report(settled.notice[0], tap, ...settled.notice.slice(1));
        if (settled.html) await swapSheet(settled.html, { unlessShown: !settled.notice });
        retryDelay = FIRST_RETRY;
      }
    } finally {
      sending = false;
      showPending();
    }
  }

  function retryLater() {
    refreshFirst = true;
    if (navigator.onLine) retryTimer = setTimeout(pump, retryDelay);
    retryDelay = Math.min(retryDelay * 2, LAST_RETRY);
  }

  // --- Taking taps --------------------------------------------------------------------------------

  // A thumb that bounces, or a double tap, clicks one button twice within a few dozen milliseconds;
  // two deliberate taps on the same boxes are 300 ms apart or more. So a second click on the same
  // tap sooner than BOUNCE after the first is dropped before htmx sees it, as long as the sheet it
  // was made on is still shown: once the answer to the first tap has replaced the sheet, the next tap
  // is the player's response to what they see. Not the dblclick gesture itself (a click's detail of
  // 2): phones count taps up to about half a second apart as one gesture, which would drop a deliberate cross.
  const BOUNCE = 250;
  let lastClick = { identity: null, at: -Infinity, on: null };
  document.addEventListener(
    "click",
    (event) => {
      const form = event.target.closest && event.target.closest("#sheet form[hx-post]");
      if (!form || !event.target.closest("button")) return;
      const now = performance.now();
      const tapIdentity = formIdentity(form);
      if (tapIdentity === lastClick.identity && now - lastClick.at < BOUNCE && lastClick.on === sheet()) {
        event.preventDefault();
        event.stopImmediatePropagation();
        return;
      }
      lastClick = { identity: tapIdentity, at: now, on: sheet() };
    },
    true,
  );

  document.addEventListener("htmx:config:request", (event) => {
    const ctx = event.detail.ctx;
    const form = ctx.sourceElement;
    if (ctx.request.method !== "POST" || !form.closest || !form.closest("#sheet")) return;
    event.preventDefault();
    if (form === undoForm() && takeBack()) {
      taps.pop();
      save();
      showPending();
      return;
    }
    const picker = form.closest("details");
    if (picker) picker.open = false;
    take(ctx.request.action, new URLSearchParams(ctx.request.body), describe(form));
  });

  // Keep a tap, with a key of its own, show it as waiting and send it.
  function take(action, fields, tap) {
    fields.set("key", freshKey());
    taps.push({ key: fields.get("key"), action, body: fields.toString(), tap, identity: identity(action, fields) });
    save();
    showPending();
    pump();
  }

  document.addEventListener("htmx:after:swap", showPending);
  window.addEventListener("online", () => {
    setTrouble(null);
    refreshFirst = true;
    pump();
  });
  window.addEventListener("offline", () => setTrouble("offline"));
  // The live stream notices first when the server cannot be reached although the phone has a network.
  document.addEventListener("htmx:sse:error", () => setTrouble("offline"));
  document.addEventListener("htmx:error", (event) => {
    if (event.target.closest && event.target.closest("#live, #sheet")) setTrouble("offline");
  });
  document.addEventListener("htmx:sse:after:connection", () => {
    if (trouble !== "offline" || !navigator.onLine) return;
    setTrouble(null);
    refreshFirst = true;
    pump();
  });

  showNotices();
  showPending();
  pump();
})();
