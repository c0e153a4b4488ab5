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
  // the page's words in its language (the board's catalogue, as i18n.js reads it: window.DominoI18n once it has;
  // until then English); N_ marks a message looked up later, where it is shown
  function _(message, params) {
    if (window.DominoI18n) { return window.DominoI18n._(message, params); }
    return message.replace(/\{(\w+)\}/g, function (whole, name) { return params && name in params ? String(params[name]) : whole; });
  }
  function N_(message) { return message; }
  function megabytes(n) { return (n / 1048576).toFixed(1) + " MB"; }

  function say(message, bad) {
    var box = element("siteload");
    if (!box) { return; }
    box.querySelector(".what").textContent = message;
    box.classList.toggle("bad", !!bad);
  }

  // ---- the loading line: what the engine is doing, in words, its seconds counting (it never looks hung) ----
  var STAGES = {
    compiling: N_("Compiling the engine (Python's interpreter, WebAssembly)"),
    python: N_("Starting Python: importing the project's code"),
    storage: N_("Reading your records kept in this browser")
  };
  var loading = {words: N_("Loading the engine"), since: Date.now(), done: false, bytes: null};
  function stage(words, bytes, params) {
    if (loading.done) { return; }
    if (words !== loading.words) { loading.since = Date.now(); }
    loading.words = words;
    loading.params = params || null;
    loading.bytes = bytes || null;
    showLoading();
  }
  function showLoading() {
    if (loading.done) { return; }
    var bar = element("siteprogress");
    if (bar) {
      if (loading.bytes) { bar.max = loading.bytes.total; bar.value = loading.bytes.loaded; } else { bar.removeAttribute("value"); }
    }
    var seconds = Math.floor((Date.now() - loading.since) / 1000);
    say(_(loading.words, loading.params) + "…" + (seconds >= 1 ? " " + seconds + " s" : ""));
  }
  var ticking = setInterval(showLoading, 1000);
  function loaded() { loading.done = true; clearInterval(ticking); }
  var local = false;      // the workers read the files the service worker keeps (not the network)
  function downloading(m) {
    var params = {loaded: megabytes(m.loaded), total: megabytes(m.total), file: m.what ? " (" + m.what.split("/").pop() + ")" : ""};
    stage(local ? N_("Reading the engine kept in this browser: {loaded} of {total}{file}") :
      N_("Downloading the engine: {loaded} of {total}{file}"), {loaded: m.loaded, total: m.total}, params);
  }

  // ---- the service worker (sw.js): every file the site reads kept in this browser, so that the next visit
  // reads nothing from the network and works offline. On the first visit the engine waits for it to have
  // downloaded the files (once: the workers then read them from it); a browser without one (or a page not
  // served over https or from localhost) loads the files itself, as before.
  var kept = new Promise(function (resolve) {
    var sw = navigator.serviceWorker;
    if (!sw || !window.isSecureContext || location.protocol === "file:") { resolve(false); return; }
    if (sw.controller) { resolve(true); }
    sw.addEventListener("message", function (ev) {
      var m = ev.data || {};
      if (m.type === "sw-loading" && !sw.controller) { downloading(m); }
    });
    sw.addEventListener("controllerchange", function () { resolve(true); });
    sw.register("sw.js").then(function (registration) {
      watchUpdates(registration);
      if (sw.controller) { return; }
      site.then(function (s) {     // (until its first bytes come)
        if (!loading.bytes && s.first_visit) { downloading({loaded: 0, total: s.first_visit, what: ""}); }
      });
      var installing = registration.installing || registration.waiting;
      // (one active already, yet this page not its: a reload that bypassed it, shift-reload; the files come as
      // without it)
      if (!installing && registration.active) { resolve(false); return; }
      if (installing) {
        installing.addEventListener("statechange", function () {
          if (installing.state === "redundant") { resolve(false); }     // it could not keep the files: load them here
        });
      }
    }, function () { resolve(false); });
  });

  kept.then(function (yes) { local = yes; });

  // a new build published since this page opened: its service worker installs beside this one and waits; the
  // page says so and offers to reload (it then takes over, and the old build's files are deleted)
  function watchUpdates(registration) {
    function offer(waiting) {
      if (!waiting || !navigator.serviceWorker.controller) { return; }
      var button = element("siteupdate");
      button.hidden = false;
      button.onclick = function () {
        navigator.serviceWorker.addEventListener("controllerchange", function () { location.reload(); });
        waiting.postMessage({type: "take-over"});
      };
    }
    if (registration.waiting) { offer(registration.waiting); }
    registration.addEventListener("updatefound", function () {
      var next = registration.installing;
      if (!next) { return; }
      next.addEventListener("statechange", function () { if (next.state === "installed") { offer(next); } });
    });
  }

  // ---- a worker and its queue of calls ----------------------------------------------------------------
  function Engine(name, storage) {
    this.name = name; this.storage = storage; this.ready = null; this.info = null;
    this.queue = []; this.busy = null; this.pending = {}; this.progress = {};
    this.start();
  }
  Engine.prototype.start = function () {
    var self = this;
    this.ready = Promise.all([kept, site]).then(function (both) {
      self.worker = new Worker("site/worker.js");
      var up = new Promise(function (resolve, reject) { self.listen(resolve, reject); });
      self.worker.postMessage({type: "init", storage: self.storage, records: both[1].records || []});
      return up;
    });
    this.ready.catch(function () {});
  };
  Engine.prototype.listen = function (resolve, reject) {
    var self = this;
    self.worker.onmessage = function (ev) {
      var m = ev.data;
      if (m.type === "loading" && self.storage) {
        if (m.total) { downloading(m); }
      } else if (m.type === "stage" && self.storage) {
        stage(STAGES[m.stage] || m.stage);
        if (m.stage !== "compiling" && self.compiled) { self.compiled(); }
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
    if (this.worker) { this.worker.terminate(); }
    Object.keys(this.pending).forEach(function (id) {
      self.pending[id].resolve({status: 409, data: {error: _("the analysis was cancelled"), cancelled: true}});
    });
    this.pending = {}; this.busy = null; this.progress = {};
    this.start();
    this.next();
  };

  // the two workers: the board's (quick calls, the reader's files) first, the analyses' as soon as the board's
  // has compiled Python's interpreter (while it imports the project's code), not after it is ready
  var board = new Engine("board", true);
  var analysis = null;
  function engine() {
    if (!analysis) {
      analysis = new Engine("analysis", false);
      analysis.ready.then(function () { element("siteload").setAttribute("data-analysis", "ready"); });
    }
    return analysis;
  }
  board.compiled = engine;
  board.ready.then(function (m) {
    var info = m.info;
    loaded();
    say(_("Engine ready in {seconds} s: {note}. Python {python} in this page, no server.", {seconds: m.seconds.toFixed(1),
      note: info.note, python: info.python}));
    element("siteload").classList.add("ready");
    engine();
  }, function (e) {
    loaded();
    say(_("The engine could not start in this browser: {why}", {why: e.message}), true);
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

  // The link's record at once, before the engine is ready (it is read here, in the page): its text in the
  // editor (not to be edited until the board has opened it), its name chosen in the list of records, its tags
  // beside the board, and what the board waits for. Nothing about its moves: the board's position is Python's.
  var preview = null;    // {text} while the link's record is shown before the board has opened it
  // The tags of game ``game`` (1 the first; null: the first) of a record: the tag lines of its header. A game's
  // header is its run of tags and hands (docs/notation.md, "Several games in one file"): a tag after a move line,
  // or a second Game tag after a hand, begins the next game's. A game without tags of its own shows none, never
  // another game's. (Only the tags are read here: the board, its moves and their checks are Python's.)
  var TAG = /^\s*\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$/;
  var HAND = /^[^\[\]{};"]+:/;            // a seat's hand, "A: [0-0] [0-2] ..."
  function tagsOf(text, game) {
    var want = game || 1, at = 1, tags = [], moved = false, hand = false, numbered = false;
    text.split("\n").some(function (line) {
      var m = TAG.exec(line), t = line.trim();
      if (m) {
        if (moved || (m[1] === "Game" && numbered && hand)) {
          at += 1;
          moved = hand = numbered = false;
        }
        if (at > want) { return true; }
        numbered = numbered || m[1] === "Game";
        if (at === want) { tags.push([m[1], m[2].replace(/\\(.)/g, "$1")]); }
      } else if (HAND.test(t)) {
        hand = true;
      } else if (t !== "" && t.charAt(0) !== "{" && t.charAt(0) !== ";") {
        moved = true;
      }
      return false;
    });
    return tags;
  }
  function showPreview(found) {
    var text = element("text");
    if (!text || text.value !== "" || loading.done) { return; }
    preview = {text: found.text};
    text.value = found.text;
    text.readOnly = true;
    var files = element("files");
    var option = document.createElement("option");
    option.value = "/home/pyodide/records/" + link.name;
    option.textContent = "records/" + link.name;
    files.appendChild(option);
    files.value = option.value;
    var box = element("sitepreview");
    box.querySelector(".what").textContent = found.game ?
      _("This link's record is here: the board at game {game}, move {step} is drawn once the engine has started (Python replays the record; this page judges no move).",
        {game: found.game, step: found.step}) :
      _("This link's record is here: the board is drawn once the engine has started (Python replays the record; this page judges no move).");
    var list = box.querySelector(".tags");
    list.textContent = "";
    tagsOf(found.text, found.game).forEach(function (tag) {
      var dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = tag[0];
      dd.textContent = tag[1];
      list.appendChild(dt);
      list.appendChild(dd);
    });
    box.hidden = false;
    document.body.classList.add("previewing");
    element("stepinfo").textContent = _("starting the engine…");
  }
  function endPreview() {
    if (!preview) { return; }
    preview = null;
    element("text").readOnly = false;
    element("sitepreview").hidden = true;
    document.body.classList.remove("previewing");
  }
  window.addEventListener("beforeunload", function () {
    // (the page left before the board opened the link: the preview is nobody's unsaved text, so the board's
    // own keeping of unsaved text, which runs next, finds none)
    if (preview && element("text").value === preview.text) { element("text").value = ""; }
  });
  if (link) {
    var show = function () {
      link.opened.then(showPreview, function (e) {
        var box = element("sitepreview");
        box.querySelector(".what").textContent = _("This link opens nothing: {why}", {why: e.message});
        box.classList.add("bad");
        box.hidden = false;
      });
    };
    if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", show); } else { show(); }
  }

  var written = null;
  function writeLink() {
    // written once, under a name of the link's own: a file of that name kept already (the reader's edits of
    // this link, saved) is opened as it is, never overwritten (the save of a new file refuses an existing one)
    return written || (written = link.opened.then(function (found) {
      return board.call("save", {path: link.name, text: found.text, token: null}).then(function () { return found; });
    }));
  }

  // where the link's move is in the record as Python replays it: {game, step} (from 0) to show, or the
  // start with the words saying why (a move the record does not reach: a game or a step past its end)
  function linkMove(found, text) {
    if (!found.game) { return Promise.resolve(null); }
    var asked = "game " + found.game + ", move " + found.step;
    return board.call("position", {text: text, game: found.game - 1, step: null}).then(function (r) {
      if (r.status === 200 && found.step <= r.data.steps) { return {game: found.game - 1, step: found.step}; }
      var why = r.status !== 200 ? (r.data.games ? "the record has " + r.data.games + " game" + (r.data.games === 1 ? "" : "s")
        : r.data.error || "no such game") : "game " + found.game + " has " + r.data.steps + " move" + (r.data.steps === 1 ? "" : "s");
      return {game: 0, step: 0, missing: _("This link's move ({move}) is not in its record ({why}): it opens at the start.", {move: asked, why: why})};
    });
  }

  function openLink(body) {
    return writeLink().then(function (found) {
      return board.call("open", body).then(function (answer) {
        endPreview();
        if (answer.status === 200) {
          linkMove(found, answer.data.text).then(function (at) {
            if (!at) { return; }
            // (a move not in the record: the board stays where it opens, at the start, the text's cursor there)
            if (at.missing) { say(at.missing, true); return; }
            // (after the board's own first position, asked for where the text's cursor stands)
            setTimeout(function () { window.DominoBoard.at(at.game, at.step); }, 400);
          });
        }
        return answer;
      });
    }, function (e) {
      element("sitepreview").hidden = true;
      say(_("This link opens nothing: {why}", {why: e.message}), true);
      return {status: 422, data: {error: _("This link opens nothing: {why}", {why: e.message})}};
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
        game: step.game || null, games: step.games || null, done: step.done || null, total: step.total || null,
        words: step.words || null}});
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
        say(game ? _("Link copied: {n} characters, at game {game}, move {step}.", {n: address.length, game: game, step: step}) :
          _("Link copied: {n} characters.", {n: address.length}));
      }, function () {
        shown.select();
        say(_("The link is in the box: copy it from there ({n} characters).", {n: address.length}));
      });
    });
  }
  // ---- a file on the reader's disk: opened into the editor (a new record), downloaded ------------------------
  function openFromDisk() {
    var input = element("diskfile"), file = input.files && input.files[0];
    if (!file) { return; }
    file.text().then(function (value) {
      window.DominoBoard.newRecord(value);
      say(_("Opened {file} from this computer ({n} characters): Save keeps it in this browser.", {file: file.name, n: value.length}));
      input.value = "";
    }, function () { say(_("The file {file} could not be read", {file: file.name}), true); });
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
