// Tischblock's own script: the service worker that keeps the app for offline use, and a live
// sheet that never pulls the rug from under a thumb.

if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    // Always ask the server for a new worker (and the Workbox files it loads), never a browser cache.
    navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {});
  });
}

// The live stream's script may arrive after htmx has looked at the page; then nothing would
// connect. By DOMContentLoaded every deferred script has run, so connect here if needed.
document.addEventListener("DOMContentLoaded", () => {
  const live = document.getElementById("live");
  if (live && window.htmx && !(live._htmx && live._htmx.sse)) {
    window.htmx.process(live);
  }
});

// A sheet opened without a network could not connect its live stream; connect it when the
// network is back (a stream that was connected reconnects by itself).
window.addEventListener("online", () => {
  const live = document.getElementById("live");
  if (live && window.htmx && live._htmx && live._htmx.initialized && !live._htmx.sse) {
    window.htmx.ajax("GET", live.getAttribute("hx-sse:connect"), { source: live });
  }
});

// A change from another phone re-renders the sheet. While this phone has something open on it
// (a card picker, an explanation), the refresh waits until it is closed, so nothing snaps shut.
let refreshWaiting = false;

function somethingOpen() {
  return document.querySelector("#sheet details[open]") !== null;
}

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

// The phone keeps the last copy of each sheet for offline use (static/sw.js). A sheet that changed
// on the page (a tap here, or on another phone) is fetched once more after a quiet moment, so
// the kept copy is the state this phone last saw, not the one it was opened with.
const KEEP_AFTER_MS = 3_000;
let keepTimer = null;

document.addEventListener("htmx:after:swap", () => {
  const sheet = document.getElementById("sheet");
  if (!sheet || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
  clearTimeout(keepTimer);
  keepTimer = setTimeout(() => {
    if (navigator.onLine) fetch(sheet.getAttribute("hx-get"), { credentials: "same-origin" }).catch(() => {});
  }, KEEP_AFTER_MS);
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
