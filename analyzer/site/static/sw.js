// The static site's service worker (docs/site.md), written by `domino site` at the site's root with SITE (above:
// the build's version and the files it keeps). It keeps every file the page reads in one cache named by the
// build's version, so a second visit reads nothing from the network and works offline; a new build (any file
// changed) is a new version: its worker installs beside the old one, the page offers a reload, and on taking over
// it deletes the old version's cache whole (its own scope's only), so a page never mixes two builds' files. It answers only the site's
// own files (SITE.cache, SITE.lazy) under its scope; any other request goes to the network untouched.
"use strict";
var SCOPE = self.registration.scope;            // the folder sw.js is served from, ending in "/"
// this site's caches: named by its scope too, so that two sites on one origin (two folders of one host) never
// take each other's caches for their own older versions (a scope, a URL, holds no space: no prefix is another's)
var PREFIX = "domino-site " + SCOPE + " ";
var CACHE = PREFIX + SITE.version;
var KNOWN = {};
SITE.cache.concat(SITE.lazy).forEach(function (name) { KNOWN[name] = true; });

// the site's file a request asks for ("index.html" for the folder itself), or null: not the site's to answer
function siteFile(url) {
  if (url.indexOf(SCOPE) !== 0) { return null; }
  var name = url.slice(SCOPE.length).split("#")[0].split("?")[0];
  if (name === "") { name = "index.html"; }
  return KNOWN[name] ? name : null;
}

function tell(message) {
  return self.clients.matchAll({includeUncontrolled: true, type: "window"}).then(function (pages) {
    pages.forEach(function (page) { page.postMessage(message); });
  });
}

// the install: every file the page reads, fetched afresh (never from the browser's HTTP cache, which may hold
// an older build's), its bytes counted as they come so the page can say how far the download is
self.addEventListener("install", function (event) {
  var total = 0, loaded = 0, last = 0;
  SITE.cache.forEach(function (name) { total += SITE.sizes[name] || 0; });
  function one(cache, name) {
    return fetch(new Request(SCOPE + name, {cache: "no-cache"})).then(function (response) {
      if (!response.ok) { throw new Error(name + ": " + response.status); }
      var reader = response.body.getReader(), parts = [];
      function read() {
        return reader.read().then(function (r) {
          if (r.done) { return; }
          parts.push(r.value);
          loaded += r.value.length;
          var now = Date.now();
          if (now - last > 150) { last = now; tell({type: "sw-loading", version: SITE.version, what: name, loaded: loaded, total: total}); }
          return read();
        });
      }
      return read().then(function () {
        // (kept as read: its type, and its length as kept, whatever encoding the host sent it in)
        var body = new Blob(parts);
        var headers = {"Content-Type": response.headers.get("Content-Type") || "application/octet-stream",
                       "Content-Length": String(body.size)};
        return cache.put(SCOPE + name, new Response(body, {status: 200, statusText: "OK", headers: headers}));
      });
    });
  }
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    // (two at a time: the big files stream while the small ones come)
    var queue = SITE.cache.slice().sort(function (a, b) { return (SITE.sizes[b] || 0) - (SITE.sizes[a] || 0); });
    function worker() {
      var name = queue.shift();
      return name === undefined ? null : one(cache, name).then(worker);
    }
    return Promise.all([worker(), worker()]);
  }).then(function () {
    tell({type: "sw-loading", version: SITE.version, what: "", loaded: total, total: total});
    // the first version takes over at once; a later one waits until the page asks (its reload) or every page
    // of the old one is closed, so no open page is handed another build's files
    if (!self.registration.active) { return self.skipWaiting(); }
  }));
});

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "take-over") { self.skipWaiting(); }
});

// taking over: the older versions' caches go (only this site's: the names it gave them), the open pages are
// served from now on
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf(PREFIX) === 0 && name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" && request.method !== "HEAD") { return; }
  var name = siteFile(request.url);
  if (name === null) { return; }                 // not the site's: the network answers, untouched
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(SCOPE + name).then(function (kept) {
      if (kept) {
        // (a HEAD, as a lazy file's first read asks its length: the kept file's headers, no body)
        return request.method === "HEAD" ? new Response(null, {status: 200, headers: kept.headers}) : kept;
      }
      return fetch(request).then(function (response) {
        // a file kept when first read (a lazy one, or one a failed install missed): this version's only
        if (request.method === "GET" && response.ok && response.status === 200) {
          var copy = response.clone();
          return cache.put(SCOPE + name, copy).then(function () { return response; }, function () { return response; });
        }
        return response;
      });
    });
  }));
});
