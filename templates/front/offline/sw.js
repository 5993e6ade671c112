// The site's service worker (front/views/offline.py serves it at /sw.js).
// - The shell (styles, scripts, icons, the offline page) is kept at install, served from the
//   phone first: the hashed file names change with their content.
// - A score sheet the phone opens is kept, per login: each page of the site names its viewer
//   (header X-Viewer, a keyed hash of the login), the sheets of another viewer are dropped as
//   soon as a page of a new one is seen, and offline only the current viewer's are served.
//   So one login's private sheet is never shown to another on a shared phone.
// - Offline, a kept sheet opens as it was last seen (its waiting deals are on the phone, in
//   localStorage); any other page opens the offline page.
// - A new version takes over at once and empties the old version's caches.
{% autoescape off %}"use strict";

const VERSION = {{ version }};
const SHELL_CACHE = "shell-" + VERSION;
const SHEET_CACHE = "sheets-" + VERSION;
const SHELL = {{ shell }};
const OFFLINE_PAGE = {{ offline_page }};
const STATIC_PREFIX = {{ static_prefix }};
const SHEET_PATH = /^\/clubs\/[^/]+\/soirees\/\d+\/poules\/\d+\/$/;
const VIEWER_KEY = "/__viewer__";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => caches.open(SHEET_CACHE))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => !key.endsWith("-" + VERSION)).map((key) => caches.delete(key))
      ))
      .then(() => self.clients.claim())
  );
});

// This version's cache, unless a newer version has emptied it already: an old worker still
// finishing a request must not bring back what the new one deleted.
async function ownCache(name) {
  return (await caches.has(name)) ? caches.open(name) : null;
}

async function currentViewer() {
  const kept = await caches.match(VIEWER_KEY, { cacheName: SHEET_CACHE });
  return kept ? kept.text() : null;
}

// A page of the site answered: note its viewer; another viewer's sheets go at once.
async function noteViewer(response) {
  const viewer = response.headers.get("X-Viewer");
  const cache = await ownCache(SHEET_CACHE);
  if (!viewer || !cache) return null;
  const before = await currentViewer();
  if (before !== viewer) {
    for (const request of await cache.keys()) await cache.delete(request);
    await cache.put(VIEWER_KEY, new Response(viewer));
  }
  return viewer;
}

function sheetKey(url, viewer) {
  return url.split("#")[0].split("?")[0] + "?viewer=" + encodeURIComponent(viewer);
}

async function keepSheet(url, response) {
  const viewer = await noteViewer(response);
  const cache = await ownCache(SHEET_CACHE);
  if (!viewer || !response.ok || !cache) return;
  await cache.put(sheetKey(url, viewer), response);
}

async function page(event) {
  const url = new URL(event.request.url);
  try {
    const response = await fetch(event.request);
    if (SHEET_PATH.test(url.pathname)) {
      event.waitUntil(keepSheet(url.href, response.clone()));
    } else {
      event.waitUntil(noteViewer(response));
    }
    return response;
  } catch (offline) {
    const viewer = await currentViewer();
    if (viewer && SHEET_PATH.test(url.pathname)) {
      const kept = await caches.match(sheetKey(url.href, viewer), { cacheName: SHEET_CACHE });
      if (kept) return kept;
    }
    const fallback = await caches.match(OFFLINE_PAGE, { cacheName: SHELL_CACHE });
    return fallback || Response.error();
  }
}

async function shellFile(request) {
  const kept = await caches.match(request, { cacheName: SHELL_CACHE });
  if (kept) return kept;
  const response = await fetch(request);
  const cache = response.ok ? await ownCache(SHELL_CACHE) : null;
  if (cache) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(shellFile(request));
  }
});

// The sheet changed on this page (a deal recorded, undone): the kept copy follows, so that a
// reload offline shows the sheet as the scorer last saw it.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "sheet-changed" || !data.url) return;
  const url = new URL(data.url, self.location.origin);
  if (url.origin !== self.location.origin || !SHEET_PATH.test(url.pathname)) return;
  event.waitUntil(
    fetch(url.href, { credentials: "same-origin", headers: { "X-Sheet-Copy": "1" } })
      .then((response) => keepSheet(url.href, response))
      .catch(() => null)
  );
});

// Logged out: nobody's sheets stay on the phone.
self.addEventListener("message", (event) => {
  if ((event.data || {}).type !== "forget-sheets") return;
  event.waitUntil(caches.delete(SHEET_CACHE));
});
{% endautoescape %}
