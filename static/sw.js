// Tischblock's service worker: the app without a network.
// The server puts self.TISCHBLOCK in front of this file (views/pwa.py): the Workbox modules to
// load, the files to keep (fingerprinted, so a new version has new addresses), the pages to warm
// and the offline page.
//
// - Static files and the offline page: kept at install, served from the phone.
// - Score sheets: from the network; the last copy of each is kept, and shown when the network is
//   gone (the page itself then says "offline – as of 21:14"). Each state the open sheet shows
//   afterwards (a push, a tap's answer) replaces the sheet in that copy (the message below).
// - The rules FAQ and the front page: from the network, warmed at install, kept for offline use.
// - Any other page without a network: the offline page, never the browser's error page.
// - Taps (POST) always go to the network: the sheet's own script keeps the ones that fail
//   (static/js/outbox.js).
// A new worker takes over at once; pages are fetched from the network first, and every static
// file address carries its content's fingerprint, so nobody is left with old files.

const settings = self.TISCHBLOCK;
importScripts(...settings.workbox);

const { precaching, routing, strategies, expiration } = workbox;

const PAGES = "tischblock-pages";
const SHEETS = "tischblock-sheets";
const KEPT_SHEETS = 40;
const NETWORK_SECONDS = 5;
// A page the network has not delivered within this time comes from the phone, when it has one.

self.skipWaiting();
workbox.core.clientsClaim();

precaching.precacheAndRoute(settings.precache);
precaching.cleanupOutdatedCaches();

// One copy per address, the last one seen. Pages vary by language and by htmx's header, but only
// whole pages are kept here, and a copy that kept its Vary would sit beside the newer one.
const lastCopyOnly = {
  cacheWillUpdate: async ({ response }) => {
    if (!response || response.status !== 200) return null;
    const headers = new Headers(response.headers);
    headers.delete("Vary");
    return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
  },
};
const pages = new strategies.NetworkFirst({
  cacheName: PAGES,
  networkTimeoutSeconds: NETWORK_SECONDS,
  plugins: [lastCopyOnly],
});
const sheets = new strategies.NetworkFirst({
  cacheName: SHEETS,
  networkTimeoutSeconds: NETWORK_SECONDS,
  plugins: [lastCopyOnly, new expiration.ExpirationPlugin({ maxEntries: KEPT_SHEETS })],
});

function sameSite(url) {
  return url.origin === self.location.origin;
}

// A whole sheet (not the piece htmx asks for when another phone tapped), at either of its addresses.
function isSheet({ request, url }) {
  return sameSite(url) && /^\/g\/[^/]+$/.test(url.pathname) && request.headers.get("HX-Request") !== "true";
}

function isKeptPage({ request, url }) {
  return (
    sameSite(url) &&
    request.headers.get("HX-Request") !== "true" &&
    settings.pages.includes(url.pathname)
  );
}

function isStaticFile({ url }) {
  return sameSite(url) && url.pathname.startsWith(settings.staticPrefix);
}

routing.registerRoute(isSheet, sheets);
routing.registerRoute(isKeptPage, pages);
routing.registerRoute(isStaticFile, new strategies.NetworkOnly());
// Every other page, and every form sent as a page, goes to the network through here, so that a
// failure ends on the offline page.
const isPage = ({ request }) => request.mode === "navigate";
routing.registerRoute(isPage, new strategies.NetworkOnly());
routing.registerRoute(isPage, new strategies.NetworkOnly(), "POST");

// A sheet kept by an earlier version asks for its files under their old fingerprints: without a
// network it gets the version this worker keeps.
async function keptVersionOf(url) {
  const cache = await caches.open(workbox.core.cacheNames.precache);
  const key = (await cache.keys()).find((request) => new URL(request.url).pathname === url.pathname);
  return key ? cache.match(key) : undefined;
}

// A rules search sent as a page (the phone thought it was online, the network said otherwise) gets its
// game's kept FAQ page at the search's address; the page's script answers the question from the phone.
async function keptSearchPage(url) {
  const page = url.pathname === settings.faqSearch && settings.faqPages[url.searchParams.get("game")];
  return page ? caches.match(new URL(page, self.location.origin).href, { cacheName: PAGES }) : undefined;
}

routing.setCatchHandler(async ({ request, url }) => {
  if (request.destination === "document") {
    return (await keptSearchPage(url)) || (await precaching.matchPrecache(settings.offlinePage)) || Response.error();
  }
  if (isStaticFile({ url })) {
    return (await keptVersionOf(url)) || Response.error();
  }
  return Response.error();
});

// Warm the pages at install, so the rules answer offline even before they were opened.
// A page that fails to load now is fetched when it is opened; it does not stop the install.
self.addEventListener("install", (event) => {
  const warming = settings.pages.map((url) => {
    const [, done] = pages.handleAll({ event, request: new Request(url, { credentials: "same-origin" }) });
    return done;
  });
  event.waitUntil(Promise.allSettled(warming));
});

// A sheet page hands over each newer state it shows (static/js/app.js): that page becomes the kept
// copy of its address, so an offline reload shows what the phone saw last, not what it first loaded.
// A page loaded before this worker took control (a phone's first visit) was never kept: asked to
// (keepPage), the worker fetches it once, so that there is a copy to keep the sheet in.
async function keepPage(event, url) {
  if (await caches.match(url, { cacheName: SHEETS })) return;
  const [, done] = sheets.handleAll({ event, request: new Request(url, { credentials: "same-origin" }) });
  await done;
}

async function keepSheet(url, html, headers) {
  const cache = await caches.open(SHEETS);
  await cache.put(url, new Response(html, { status: 200, headers }));
}

self.addEventListener("message", (event) => {
  const { keepPage: page, keepSheet: sheet, html, headers } = event.data || {};
  const reply = () => event.ports[0] && event.ports[0].postMessage(true);
  const address = page ?? sheet;
  const url = typeof address === "string" ? new URL(address) : null;
  if (!url || !isSheet({ request: new Request(url), url })) return reply();
  const kept = typeof page === "string" ? keepPage(event, url) : typeof html === "string" ? keepSheet(url, html, headers) : null;
  if (!kept) return reply();
  event.waitUntil(kept.catch(() => {}).finally(reply));
});

// Caches of earlier versions of this worker (not Workbox's own) go when the new one takes over.
self.addEventListener("activate", (event) => {
  const current = new Set([PAGES, SHEETS]);
  event.waitUntil(
    caches.keys().then((names) =>
      Promise.all(names.filter((name) => name.startsWith("tischblock-") && !current.has(name)).map((name) => caches.delete(name))),
    ),
  );
});
