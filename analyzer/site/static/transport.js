// The static site's transport (docs/site.md): the board's one network function (board.js api(), through
// window.dominoTransport) answered by two Web Workers running the project's Python in Pyodide (worker.js): one
// for the board's quick calls and the reader's files (kept in this browser's storage), one for analyses, so the
// page and its checks stay live while an analysis runs, and a cancel ends that worker at once (a new one starts).
// It also opens a record link (#r=..., link.js), offers "Copy link", and says what is loading and which search
// runs. It judges no move: every answer is the Python's.
(function () {
  "use strict";
  var LONG = {analyze: true, answer: true};           // the routes the analysis worker answers
  var site = fetch("site.json").then(function (r) { return r.json(); });
  var sequence = 0;

  function element(id) { return document.getElementById(id); }
  function megabytes(n) { return (n / 1048576).toFixed(1) + " MB"; }

  function say(message, bad) {
    var box = element("siteload");
    if (!box) { return; }
    box.querySelector(".what").textContent = message;
    box.classList.toggle("bad", !!bad);
  }

  // ---- a worker and its queue of calls ----------------------------------------------------------------
  function Engine(name, storage) {
    this.name = name; this.storage = storage; this.ready = null; this.info = null;
    this.queue = []; this.busy = null; this.pending = {}; this.progress = {};
    this.start();
  }
  Engine.prototype.start = function () {
    var self = this;
    this.worker = new Worker("site/worker.js");
    this.ready = new Promise(function (resolve, reject) {
      self.worker.onmessage = function (ev) {
        var m = ev.data;
        if (m.type === "loading" && self.storage) {
          var bar = element("siteprogress");
          if (bar && m.total) { bar.max = m.total; bar.value = m.loaded; }
          say("Loading the engine: " + megabytes(m.loaded) + " of " + megabytes(m.total) + " (" + m.what + ")");
        } else if (m.type === "ready") {
          self.info = m.info;
          resolve(m);
        } else if (m.type === "failed") {
          reject(new Error(m.error));
        } else if (m.type === "progress") {
          self.progress[m.id] = m.step;
        } else if (m.type === "answer") {
          var done = self.pending[m.id];
          delete self.pending[m.id];
          delete self.progress[m.id];
          self.busy = null;
          if (done) { done.resolve({status: m.status, data: m.data}); }
          self.next();
        }
      };
      self.worker.onerror = function (ev) { reject(new Error(ev.message || "the engine's worker failed")); };
    });
    site.then(function (s) { self.worker.postMessage({type: "init", storage: self.storage, records: s.records || []}); });
    this.ready.catch(function () {});
  };
  Engine.prototype.next = function () {
    var self = this;
    if (this.busy || !this.queue.length) { return; }
    var call = this.queue.shift();
    this.busy = call;
    this.pending[call.id] = call;
    this.ready.then(function () {
      self.worker.postMessage({type: "call", id: call.id, route: call.route, body: call.body});
    }, function (e) {
      delete self.pending[call.id];
      self.busy = null;
      call.resolve({status: 503, data: {error: "the engine could not start in this browser (" + e.message + ")"}});
      self.next();
    });
  };
  Engine.prototype.call = function (route, body, signal) {
    var self = this;
    return new Promise(function (resolve, reject) {
      var call = {id: ++sequence, route: route, body: body, resolve: resolve, reject: reject};
      var job = body && body.job;
      if ((route === "validate" || route === "repair") && job) {
        // the page's next check replaces its last one still waiting, as the server's checks do
        self.queue = self.queue.filter(function (c) {
          if (c.route === route && c.body && c.body.job === job) { c.resolve({status: 200, data: {superseded: true}}); return false; }
          return true;
        });
      }
      if (signal) {
        signal.addEventListener("abort", function () {
          var at = self.queue.indexOf(call);
          if (at >= 0) { self.queue.splice(at, 1); reject(new DOMException("cancelled", "AbortError")); }
        });
      }
      self.queue.push(call);
      self.next();
    });
  };
  Engine.prototype.running = function (job) {
    var c = this.busy;
    return c && c.body && c.body.job === job ? c : null;
  };
  Engine.prototype.restart = function () {
    // a cancel: the worker ends at once (Python cannot be interrupted mid-search without shared memory)
    var self = this;
    this.worker.terminate();
    Object.keys(this.pending).forEach(function (id) {
      self.pending[id].resolve({status: 409, data: {error: "the analysis was cancelled", cancelled: true}});
    });
    this.pending = {}; this.busy = null; this.progress = {};
    this.start();
    this.next();
  };

  var board = new Engine("board", true);
  var analysis = null;
  function engine() { return analysis || (analysis = new Engine("analysis", false)); }
  board.ready.then(function (m) {
    var info = m.info;
    say("Engine ready in " + m.seconds.toFixed(1) + " s: " + info.note + ". Python " + info.python + " in this page, no server.");
    element("siteload").classList.add("ready");
    engine();          // the analyses' worker loads now, while the reader looks at the board
  }, function (e) {
    say("The engine could not start in this browser: " + e.message, true);
  });

  // ---- a record in a link --------------------------------------------------------------------------------
  var link = null;       // {name, opened: Promise of {text, game, step}} of the link this page was opened with
  (function () {
    if (!/(^#|&)(r|m)=/.test(location.hash)) { return; }
    var value = location.hash, h = 2166136261;
    for (var i = 0; i < value.length; i++) { h = Math.imul(h ^ value.charCodeAt(i), 16777619) >>> 0; }
    var name = "link-" + h.toString(16) + ".dom";
    link = {name: name, opened: window.DominoLink.read(location.hash)};
    link.opened.catch(function () {});
    var address = new URL(location.href);
    address.searchParams.set("path", "/home/pyodide/records/" + name);     // (worker.js FOLDER: the board lists real paths)
    history.replaceState(null, "", address.pathname + address.search + address.hash);
  }());

  var written = null;
  function writeLink() {
    // written once, under a name of the link's own: a file of that name kept already (the reader's edits of
    // this link, saved) is opened as it is, never overwritten (the save of a new file refuses an existing one)
    return written || (written = link.opened.then(function (found) {
      return board.call("save", {path: link.name, text: found.text, token: null}).then(function () { return found; });
    }));
  }

  function openLink(body) {
    return writeLink().then(function (found) {
      return board.call("open", body).then(function (answer) {
        if (answer.status === 200 && found.game) {
          setTimeout(function () { window.DominoBoard.at(found.game - 1, found.step); }, 400);
        }
        return answer;
      });
    }, function (e) {
      say("This link opens nothing: " + e.message, true);
      return {status: 422, data: {error: "This link opens nothing: " + e.message}};
    });
  }

  // ---- the board's one transport -----------------------------------------------------------------------
  window.dominoTransport = function (route, body, signal) {
    if (route === "open" && link && body && typeof body.path === "string" && body.path.split("/").pop() === link.name) {
      return openLink(body);
    }
    if (route === "files" && link) {          // (the link's record listed with the others, once it is written)
      return writeLink().then(null, function () {}).then(function () { return board.call(route, body, signal); });
    }
    if (route === "cancel") {
      var running = analysis && body && analysis.running(body.job);
      if (running) { analysis.restart(); }
      return Promise.resolve({status: 200, data: {cancelled: !!running}});
    }
    if (route === "progress") {
      var call = analysis && body && analysis.running(body.job);
      var step = call ? analysis.progress[call.id] || {} : {};
      return Promise.resolve({status: 200, data: {job: body && body.job, running: !!call, phase: step.phase || null,
        game: step.game || null, games: step.games || null, done: step.done || null, total: step.total || null}});
    }
    return (LONG[route] ? engine() : board).call(route, body, signal);
  };

  // ---- Copy link -------------------------------------------------------------------------------------------
  function copyLink() {
    var B = window.DominoBoard, at = B.where();
    var game = at ? at.game + 1 : null, step = at ? at.step : null;
    return window.DominoLink.fragment(B.text(), game, step).then(function (fragment) {
      var address = location.origin + location.pathname + fragment;
      var shown = element("sitelink");
      shown.value = address;
      shown.hidden = false;
      var copied = navigator.clipboard && window.isSecureContext ? navigator.clipboard.writeText(address) : Promise.reject();
      return copied.then(function () {
        say("Link copied: " + address.length + " characters" + (game ? ", at game " + game + ", move " + step : "") + ".");
      }, function () {
        shown.select();
        say("The link is in the box: copy it from there (" + address.length + " characters).");
      });
    });
  }
  // ---- a file on the reader's disk: opened into the editor (a new record), downloaded ------------------------
  function openFromDisk() {
    var input = element("diskfile"), file = input.files && input.files[0];
    if (!file) { return; }
    file.text().then(function (value) {
      window.DominoBoard.newRecord(value);
      say("Opened " + file.name + " from this computer (" + value.length + " characters): Save keeps it in this browser.");
      input.value = "";
    }, function () { say("The file " + file.name + " could not be read", true); });
  }

  function download() {
    var B = window.DominoBoard, name = (element("files").value || "record.dom").split("/").pop();
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([B.text()], {type: "text/plain;charset=utf-8"}));
    a.download = /\.(dom|txt)$/i.test(name) ? name : name + ".dom";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    element("copylink").addEventListener("click", copyLink);
    element("diskopen").addEventListener("click", function () { element("diskfile").click(); });
    element("diskfile").addEventListener("change", openFromDisk);
    element("download").addEventListener("click", download);
  });
}());
