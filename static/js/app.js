// Tischblock's own script: the service worker that keeps the app for offline use, and a live
// sheet that never pulls the rug from under a thumb.

if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    // Always ask the server for a new worker (and the Workbox files it loads), never a browser cache.
    navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {});
  });
}

// Which live streams are open, as htmx's SSE extension announces them: from the first attempt to
// connect (reconnects included) until it closes the stream for good. This script runs before the
// extension's, so it hears every announcement.
const streaming = new WeakSet();
document.addEventListener("htmx:sse:before:connection", (event) => streaming.add(event.target));
document.addEventListener("htmx:sse:close", (event) => streaming.delete(event.target));
// Set once htmx has processed the live stream's element (below): from then on it may be connected by hand.
let liveProcessed = false;

// The live stream's script may arrive after htmx has looked at the page; then nothing would
// connect. By DOMContentLoaded every deferred script has run, so connect here if needed.
document.addEventListener("DOMContentLoaded", () => {
  const live = document.getElementById("live");
  if (live && window.htmx) {
    if (!streaming.has(live)) window.htmx.process(live);
    liveProcessed = true;
  }
});

// A sheet opened without a network could not connect its live stream; connect it when the
// network is back (a stream that was connected reconnects by itself).
window.addEventListener("online", () => {
  const live = document.getElementById("live");
  if (live && window.htmx && liveProcessed && !streaming.has(live)) {
    window.htmx.ajax("GET", live.getAttribute("hx-sse:connect"), { source: live });
  }
});

// The live stream pushes the re-rendered sheet. While this phone has something open on it
// (a card picker, an explanation), the update waits until it is closed, so nothing snaps shut;
// then the sheet fetches itself.
let refreshWaiting = false;

function somethingOpen() {
  return document.querySelector("#sheet details[open]") !== null;
}

function fromLive(event) {
  const ctx = event.detail && event.detail.ctx;
  return ctx && ctx.sourceElement && ctx.sourceElement.id === "live" ? ctx : null;
}

document.addEventListener("htmx:sse:before:message", (event) => {
  if (alreadyShown(event.detail.message)) {
    event.detail.cancelled = true;
    return;
  }
  if (somethingOpen()) {
    event.detail.cancelled = true;
    refreshWaiting = true;
  }
});

// A tap's answer is the sheet every phone at the address is pushed: the phone that tapped shows it
// already when the push comes, and lets it go by instead of swapping the same sheet in again.
function alreadyShown(message) {
  const sheet = document.getElementById("sheet");
  if (!message || message.event || !message.id || !sheet || !sheet.dataset.version) return false;
  return Number(message.id) <= Number(sheet.dataset.version);
}

// A pushed sheet (and the sheet answering a tap) is the same for every phone that shows it:
// each fills in its own form token and a fresh key per tap form before it is shown, so a
// resent tap still counts once.
function freshKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

document.addEventListener("htmx:before:swap", (event) => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  for (const task of event.detail.tasks || []) {
    if (!task.fragment) continue;
    for (const input of task.fragment.querySelectorAll('input[name="csrf_token"]')) {
      if (!input.value && meta) input.value = meta.content;
    }
    for (const input of task.fragment.querySelectorAll('input[name="key"]')) {
      if (!input.value) input.value = freshKey();
    }
  }
});

// A rematch started on another phone: once the stream pushes the sheet that says so, this phone
// opens the running game by itself, as the TV does, with this page's rights (its seat is the table's).
// Not while this page is already on its way somewhere (this phone started the rematch itself):
// a second navigation would cut the first one off.
let leaving = false;
window.addEventListener("beforeunload", () => {
  leaving = true;
});
window.addEventListener("pageshow", () => {
  leaving = false;
});
document.addEventListener("htmx:sse:after:message", () => {
  const next = document.querySelector("#sheet [data-follow]");
  if (next && !leaving) location.assign(next.href);
});

// New addresses were made at the table: the stream says so as its last word (or answers 404 when it
// reconnects), and the phone says what happened and what to do instead of losing its next tap.
let retired = false;

function showRetired() {
  retired = true;
  document.body.dataset.retired = "";  // a TV's code to join no longer works: the stylesheet takes it off the screen
  const notice = document.getElementById("retired");
  if (notice) notice.hidden = false;
}

document.addEventListener("retired", (event) => {
  if (event.target && event.target.id === "live") showRetired();
});
document.addEventListener("htmx:sse:error", (event) => {
  if (event.detail && event.detail.status === 404) showRetired();
});
document.addEventListener("htmx:sse:before:connection", (event) => {
  if (retired) event.detail.connection.cancelled = true;
});

// A server that holds as many streams as it may answers 503 with Retry-After: connect again then.
document.addEventListener("htmx:response:error", (event) => {
  const ctx = fromLive(event);
  if (!ctx || !ctx.response || ctx.response.status !== 503) return;
  const seconds = Number(ctx.response.headers.get("Retry-After")) || 10;
  const live = ctx.sourceElement;
  setTimeout(() => {
    if (live.isConnected && !streaming.has(live)) {
      window.htmx.ajax("GET", live.getAttribute("hx-sse:connect"), { source: live });
    }
  }, seconds * 1000 * (1 + Math.random() * 0.3));
});

document.addEventListener("htmx:before:request", (event) => {
  const ctx = event.detail && event.detail.ctx;
  const source = ctx && ctx.sourceElement;
  if (source && source.id === "sheet" && ctx.request.method === "GET" && somethingOpen()) {
    event.preventDefault();
    refreshWaiting = true;
  }
});

document.addEventListener(
  "toggle",
  (event) => {
    if (refreshWaiting && event.target.closest && event.target.closest("#sheet") && !somethingOpen()) {
      refreshWaiting = false;
      window.htmx.trigger(document.getElementById("live"), "changed");
    }
  },
  true,
);

document.addEventListener("htmx:after:swap", () => {
  refreshWaiting = false;
});

// The phone keeps the last copy of each sheet for offline use (static/sw.js). The sheet the page shows
// is kept as soon as the worker controls the page, and every sheet that arrives on it (pushed after
// another phone's tap, or answering a tap here) replaces the sheet in that copy at once, with its own
// time (data-as-of): the copy is the newest state this phone has seen, even when the network is gone
// a moment later. On a phone's first visit the page comes before its worker, so the worker fetches the
// page once to have a copy to keep the sheet in. The kept sheet is the one the server sent (with this
// phone's token and keys), never the page with its waiting taps drawn in: those stay in the outbox
// (static/js/outbox.js), which draws them again on the reloaded copy.
let shownSheet = document.getElementById("sheet")?.outerHTML; // read before any script marks a waiting tap on it
let keeping = Promise.resolve();

function askWorker(worker, message) {
  const reply = new MessageChannel();
  const answered = new Promise((resolve) => (reply.port1.onmessage = resolve));
  worker.postMessage(message, [reply.port2]);
  return answered;
}

function keepShownSheet() {
  const address = location.href.split("#")[0];
  if (!shownSheet || !navigator.serviceWorker || !window.caches) return;
  keeping = keeping
    .then(async () => {
      const worker = navigator.serviceWorker.controller;
      if (!worker) return;
      let kept = await caches.match(address);
      if (!kept) {
        await askWorker(worker, { keepPage: address });
        kept = await caches.match(address);
      }
      if (!kept) return; // not a sheet's address (the TV's), or no network to fetch the page
      const page = new DOMParser().parseFromString(await kept.text(), "text/html");
      const old = page.getElementById("sheet");
      if (!old) return;
      old.outerHTML = shownSheet;
      const headers = [...kept.headers].filter(([name]) => !["content-length", "content-encoding"].includes(name));
      await askWorker(worker, { keepSheet: address, html: `<!doctype html>\n${page.documentElement.outerHTML}`, headers });
    })
    .catch(() => {});
}

if (navigator.serviceWorker) {
  navigator.serviceWorker.addEventListener("controllerchange", keepShownSheet);
  keepShownSheet();
}

document.addEventListener("htmx:before:swap", (event) => {
  for (const task of event.detail.tasks || []) {
    const arriving = task.fragment && task.target && task.target.id === "sheet" && task.fragment.querySelector("#sheet");
    if (arriving) {
      shownSheet = arriving.outerHTML;
      keepShownSheet();
    }
  }
});

// A form that cannot reach the server says so where it was sent from, instead of doing nothing.
// (Taps on a sheet never get here: its outbox keeps them, static/js/outbox.js.)
document.addEventListener("htmx:error", (event) => {
  const ctx = event.detail && event.detail.ctx;
  const form = ctx && ctx.sourceElement;
  const text = document.querySelector("main") && document.querySelector("main").dataset.unsent;
  if (!ctx || !ctx.request || ctx.request.method !== "POST" || !form || !form.prepend || !text) return;
  let note = form.querySelector(".unsent");
  if (!note) {
    note = document.createElement("p");
    note.className = "problems unsent";
    note.setAttribute("role", "alert");
    form.prepend(note);
  }
  note.textContent = text;
});
