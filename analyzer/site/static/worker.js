// The static site's engine (docs/site.md): a Web Worker that runs Pyodide (served from this site's pyodide/
// folder, never a CDN) and the project's own Python (python/domino.zip), and answers the board's /api/* calls
// through analyzer.site.worker.SiteApi, which reads each request and calls the library exactly as the server's
// routes do (analyzer/server/api.py). This script only carries messages: it judges nothing.
//   in:  {type: "init", storage: bool, records: [names]}, {type: "call", id, route, body}
//   out: {type: "loading", what, loaded, total} (a file coming), {type: "stage", stage} (compiling: the interpreter's
//        WebAssembly; python: the project's Python unpacked and imported; storage: the reader's records read),
//        {type: "ready", info, seconds}, {type: "failed", error},
//        {type: "progress", id, step}, {type: "answer", id, status, data}
"use strict";
var HOME = "/home/pyodide";
var FOLDER = HOME + "/records";           // the reader's records: the browser's storage (IndexedDB)
var pyodide = null, api = null, storage = false;
var sizes = {}, loaded = {}, started = performance.now();

function post(message) { self.postMessage(message); }

function report(what) {
  var total = 0, got = 0;
  Object.keys(sizes).forEach(function (k) { total += sizes[k]; got += Math.min(loaded[k] || 0, sizes[k]); });
  post({type: "loading", what: what, loaded: got, total: total});
}

// every file Pyodide fetches is counted as it streams in, so the page can say how much is loaded
var realFetch = self.fetch.bind(self);
self.fetch = function (url, options) {
  return realFetch(url, options).then(function (response) {
    var name = String(url).split("?")[0].split("/").pop();
    if (!response.body || !(name in sizes)) { return response; }
    var reader = response.body.getReader();
    var stream = new ReadableStream({
      pull: function (controller) {
        return reader.read().then(function (r) {
          if (r.done) {
            controller.close();
            if (name === "pyodide.asm.wasm") { post({type: "stage", stage: "compiling"}); }
            return;
          }
          loaded[name] = (loaded[name] || 0) + r.value.length;
          report(name);
          controller.enqueue(r.value);
        });
      },
      cancel: function (why) { return reader.cancel(why); }
    });
    return new Response(stream, {status: response.status, statusText: response.statusText, headers: response.headers});
  });
};

function syncStorage(populate) {
  return new Promise(function (resolve, reject) {
    pyodide.FS.syncfs(populate, function (err) { return err ? reject(err) : resolve(); });
  });
}

// The compiled kernels' WebAssembly modules the site ships (site.json's "wasm": kernel -> file), each
// instantiated into self.dominoKernels[kernel] (its exports) before Python imports the package:
// analyzer/search/core.py then runs the searches on them (analyzer/search/wasmcore.py, wasmarms.py, wasmdraw.py).
// A module that fails to load is left out (that search runs in pure Python, and the loading line says which runs).
function loadKernels(site) {
  var kernels = self.dominoKernels = {};
  return Promise.all(Object.keys(site.wasm || {}).map(function (kernel) {
    return realFetch("../" + site.wasm[kernel]).then(function (r) {
      if (!r.ok) { throw new Error(site.wasm[kernel] + ": " + r.status); }
      return r.arrayBuffer();
    }).then(function (bytes) { return WebAssembly.instantiate(bytes); })
      .then(function (made) { kernels[kernel] = made.instance.exports; }, function () { return null; });
  }));
}

function init(message) {
  return realFetch("../site.json").then(function (r) { return r.json(); }).then(function (site) {
    ["pyodide.asm.wasm", "python_stdlib.zip", "domino.zip"].forEach(function (name) {
      var key = Object.keys(site.sizes).filter(function (k) { return k.split("/").pop() === name; })[0];
      if (key) { sizes[name] = site.sizes[key]; }
    });
    report("pyodide.asm.js");
    importScripts("../pyodide/pyodide.js");
    return Promise.all([loadPyodide({indexURL: new URL("../pyodide/", self.location.href).href}),
                        loadKernels(site)]).then(function (made) {
      pyodide = made[0];
      return self.fetch("../" + site.python.file + "?v=" + site.python.sha256);
    }).then(function (r) {
      if (!r.ok) { throw new Error("python/domino.zip: " + r.status); }
      return r.arrayBuffer();
    }).then(function (zip) {
      pyodide.unpackArchive(new Uint8Array(zip), "zip", {extractDir: HOME + "/lib"});
      // the package's data read only by some calls: each a lazy file at its place, fetched when first read
      Object.keys(site.lazy || {}).forEach(function (place) {
        var at = (HOME + "/lib/" + place).split("/"), name = at.pop();
        pyodide.FS.mkdirTree(at.join("/"));
        pyodide.FS.createLazyFile(at.join("/"), name, new URL("../" + site.lazy[place], self.location.href).href, true, false);
      });
      pyodide.runPython("import sys; sys.path.insert(0, '" + HOME + "/lib')");
      pyodide.FS.mkdirTree(FOLDER);
      if (!message.storage) { return null; }
      storage = true;
      post({type: "stage", stage: "storage"});
      pyodide.FS.mount(pyodide.FS.filesystems.IDBFS, {}, FOLDER);
      return syncStorage(true).then(function () {
        // the first visit: the bundled records, each written only where no file of that name is kept yet
        var present = pyodide.FS.readdir(FOLDER);
        return Promise.all((message.records || []).filter(function (name) { return present.indexOf(name) < 0; })
          .map(function (name) {
            return realFetch("../records/" + encodeURIComponent(name)).then(function (r) { return r.ok ? r.arrayBuffer() : null; })
              .then(function (data) { if (data) { pyodide.FS.writeFile(FOLDER + "/" + name, new Uint8Array(data)); } });
          })).then(function () { return syncStorage(false); });
      });
    }).then(function () {
      post({type: "stage", stage: "python"});
      pyodide.runPython("from analyzer.site.worker import SiteApi\napi = SiteApi('" + FOLDER + "')");
      api = pyodide.globals.get("api");
      var info = JSON.parse(api.call("site", "{}")).data;
      post({type: "ready", info: info, seconds: (performance.now() - started) / 1000});
    });
  }).catch(function (e) {
    post({type: "failed", error: String(e && e.message || e).slice(-600)});
  });
}

var WRITES = {save: true};

function call(message) {
  var progress = function (step) { post({type: "progress", id: message.id, step: JSON.parse(step)}); };
  var out;
  try {
    out = JSON.parse(api.call(message.route, JSON.stringify(message.body), progress));
  } catch (e) {      // (Python answers every error itself; this is Pyodide failing, as a server that died)
    out = {status: 500, data: {error: "the engine in this page failed (" + String(e && e.message || e).slice(-200) + ")"}};
  }
  var done = storage && WRITES[message.route] && out.status === 200 ? syncStorage(false) : Promise.resolve();
  return done.then(function () {
    post({type: "answer", id: message.id, status: out.status, data: out.data});
  }, function (e) {
    post({type: "answer", id: message.id, status: 500,
      data: {error: "the record was written, but this browser's storage could not keep it (" + String(e) + ")"}});
  });
}

var queue = Promise.resolve();
self.onmessage = function (ev) {
  var message = ev.data;
  if (message.type === "init") { queue = queue.then(function () { return init(message); }); }
  if (message.type === "call") { queue = queue.then(function () { return call(message); }); }
};
