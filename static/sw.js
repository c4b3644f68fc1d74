// Tischblock's service worker: keeps the rules FAQ (pages, search index, styles) for use without a network.
// Score sheets always go to the network: a stale sheet would show wrong points.
const CACHE = "tischblock-faq-v3";
const PRECACHE = [
  "/faq",
  "/faq/auruxxx",
  "/faq/12days",
  "/faq/offline-index.json",
  "/static/css/app.css",
  "/static/js/app.js",
  "/static/js/faq-offline.js",
  "/static/vendor/htmx.min.js",
  "/static/icons/tischblock.svg",
];

// Every answer page too, so a search result opened without a network still shows its answer.
async function precache() {
  const cache = await caches.open(CACHE);
  await cache.addAll(PRECACHE);
  const index = await (await fetch("/faq/offline-index.json")).json();
  const pages = [...new Set(index.entries.map((entry) => `/faq/${entry.game}/${entry.id}`))];
  await cache.addAll(pages);
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

function keepsOffline(url) {
  return url.origin === self.location.origin && (url.pathname.startsWith("/faq") || url.pathname.startsWith("/static/"));
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || !keepsOffline(url) || url.pathname === "/faq/search") {
    return;
  }
  // Network first, so answers stay current; the cached copy when the network is gone.
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request, { ignoreVary: true }).then((cached) => cached || Response.error())),
  );
});
