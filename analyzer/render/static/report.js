/* The report's script: steps through each game and draws the table at the current move.
   It reads the numbers embedded in each game's data block (JSON, deflated, in base64) and writes only numbers
   and its own words into the page (textContent, attributes), never markup. */
(function () {
  "use strict";


  // Where each tile lies is not decided here: the page's data gives every tile's place (analyzer/render/
  // geometry.py, the drawing domino diagram and the board draw too); the script puts ready tiles there, drawn by
  // the one drawing of a tile (analyzer/server/static/tiles.js: svgNode, placedTile, U), whose text the page
  // carries ahead of this script (render.page_assets).
  var HAND_TILE = 46;  // the width in pixels of a tile in a hand (svg.tile): a tile of the line is no smaller

  // How far a line of play may run from its lead on a board ``width`` pixels wide so that a tile of the line is
  // at least as large as a tile in a hand: the view (geometry.WIDE or NARROW) is the widest that fits.
  function lineHalf(width) {
    if (!width) { return Infinity; }
    return (width * 2 * U / HAND_TILE - 4 * U - 4) / 2;
  }
  // The words this script writes, in English here, in the page's language on its <body data-words> (render/page.py:
  // script_words, the messages of the calls below as Babel extracts them: _("...") is gettext): a message's {name} places filled in from
  // params; ngettext picks the form of the count params.n (a translation's forms by Intl.PluralRules' category)
  var WORDS = JSON.parse(document.body.getAttribute("data-words") || "{}"), PLURAL = new Intl.PluralRules(document.documentElement.lang);
  function filled(t, p) { return t.replace(/\{(\w+)\}/g, function (m, k) { return p && p[k] !== undefined ? p[k] : m; }); }
  function _(m, p) { return filled(typeof WORDS[m] === "string" ? WORDS[m] : m, p); }
  function ngettext(s, pl, p) { var f = WORDS[s]; return filled(f ? f[PLURAL.select(p.n)] || f.other : p.n === 1 ? s : pl, p); }

  var games = [];
  var active = null;     // the game the keys step: the one last clicked or navigated to ...
  var scrolled = false;  // ... unless the reader has scrolled since (see keyGame)

  // The tiles on the table and the arms' labels after a step from the ones before it: the tiles it adds
  // (``put``) or takes away (``drop``), the labels that change. Names only: nothing here judges a move.
  function nextTable(before, put, drop, labels) {
    var keys = before.keys.filter(function (k) { return !drop || drop.indexOf(k) < 0; });
    (put || []).forEach(function (k) { if (keys.indexOf(k) < 0) { keys.push(k); } });
    var all = {};
    Object.keys(before.labels).forEach(function (arm) { all[arm] = before.labels[arm]; });
    Object.keys(labels || {}).forEach(function (arm) {
      if (labels[arm] === null) { delete all[arm]; } else { all[arm] = labels[arm]; }
    });
    return {keys: keys, labels: all};
  }

  function viewBox(box) { return box.join(" "); }


  // ---- one game ------------------------------------------------------------------------------------

  // A game's data as pagedata.deflated packs it (the text of its script block: JSON, deflated, in base64): a promise.
  function inflated(section) {
    var bin = atob(section.querySelector("script.game-data").textContent.trim()), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).text().then(JSON.parse);
  }

  function Game(section, data) {
    this.el = section;
    this.data = data;
    this.number = this.data.game;
    this.n = this.data.moves;
    this.cur = -1;
    this.svg = section.querySelector("svg.line");
    this.ends = section.querySelector(".board .ends");
    this.counter = section.querySelector(".controls .counter");
    this.details = section.querySelectorAll(".detail");
    this.cells = section.querySelectorAll(".mv");
    this.points = section.querySelectorAll(".chart .pt");
    this.cursor = section.querySelector(".chart .cursor");
    this.hands = section.querySelectorAll(".hand");
    var labels = this.data.labels || [];
    this.data.boards.forEach(function (b) { if (b.labels) { b.labels = withLabels(b.labels, labels); } });
    joinLines(this.data.lines, labels);
    var table = this.data.table;
    this.arms = table.arms;
    if (this.arms) {
      this.svg.classList.add("arms");
      this.view = 0;
    } else {                    // the widest view whose line fits the board with tiles as large as a hand's
      var half = lineHalf(this.svg.getBoundingClientRect().width);
      this.view = table.views.length - 1;
      table.views.forEach(function (v, i) { if (v.half <= half && i < this.view) { this.view = i; } }, this);
    }
    // the tiles on the table at each board of the game (see nextTable)
    var tables = [], before = {keys: [], labels: {}};
    this.data.boards.forEach(function (b) {
      before = nextTable(before, b.put, b.drop, b.labels);
      tables.push({keys: before.keys, labels: before.labels, moved: b.moved || null});
    });
    this.tables = tables;
    var box = table.views[this.view].box;
    this.svg.setAttribute("viewBox", viewBox(box));
    // a layout with arms is drawn whole at any width: the frame (the extent of everything the game lays) fills
    // the board, so no arm runs past its edges on a phone (#66 item 9); its tiles shrink with the screen
    this.buttons = {};
    var self = this;
    ["first", "prev", "next", "last"].forEach(function (name) {
      var b = section.querySelector(".controls ." + name);
      self.buttons[name] = b;
      b.addEventListener("click", function () {
        active = self;
        scrolled = false;
        self.step(name);
      });
    });
    this.saver = section.querySelector(".save-diagram");
    if (this.saver && this.data.diagrams) {
      this.saver.hidden = false;
      this.saver.querySelector(".save-svg").addEventListener("click", function () { self.saveDiagram("svg"); });
      this.saver.querySelector(".save-png").addEventListener("click", function () { self.saveDiagram("png"); });
    }
    this.linePanel = section.querySelector(".line-view");
    this.line = null;
    Array.prototype.forEach.call(section.querySelectorAll("button.show-line"), function (b) {
      var move = Array.prototype.map.call(b.parentNode.querySelectorAll(".mt, .on"), function (s) { return s.textContent; });
      b.title = _("its best line, step by step on the board");
      b.setAttribute("aria-label", _("show the best line after {move} on the board", {move: move.join(" ")}));
      b.addEventListener("click", function () {
        active = self;
        scrolled = false;
        self.enterLine(parseInt(b.getAttribute("data-at"), 10), parseInt(b.getAttribute("data-alt"), 10));
      });
    });
    if (this.linePanel) {
      this.linePanel.querySelector(".back-to-game").addEventListener("click", function () {
        active = self;
        self.leaveLine();
      });
    }
    section.addEventListener("click", function (ev) {
      active = self;
      scrolled = false;
      var target = ev.target.closest("[data-move]");
      if (!target || !section.contains(target) || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) { return; }
      if (target.classList.contains("detail")) { return; }
      ev.preventDefault();
      self.show(parseInt(target.getAttribute("data-move"), 10), true);
      if (target.classList.contains("jump-critical") || target.classList.contains("goto")) {
        // the board first, its alternatives below it: as much of both as the screen holds
        section.querySelector(".table-col").scrollIntoView({block: "start"});
      }
    });
  }

  Game.prototype.step = function (name) {
    if (this.line) { this.stepLine(name); return; }
    var k = {first: 0, prev: this.cur - 1, next: this.cur + 1, last: this.n}[name];
    this.show(Math.max(0, Math.min(this.n, k)), true);
  };

  // the section's own id: g2, or g2r for the repaired copy of game 2
  Game.prototype.hash = function (k) { return "#" + this.el.id + "-m" + k; };

  Game.prototype.show = function (k, remember) {
    if (!(k >= 0 && k <= this.n)) { return; }
    if (this.line) { this.closeLine(); }
    this.cur = k;
    var board = this.data.boards[k];
    this.drawTable(board, this.tables[k], this.data.table.views[this.view].at, null);
    this.drawHands(board, k);
    this.counter.textContent = k + " / " + this.n;
    this.buttons.first.disabled = this.buttons.prev.disabled = k === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = k === this.n;
    var current = String(k);
    Array.prototype.forEach.call(this.details, function (d) { d.hidden = d.getAttribute("data-move") !== current; });
    Array.prototype.forEach.call(this.cells, function (c) {
      var on = c.getAttribute("data-move") === current;
      c.classList.toggle("current", on);
      if (on) { c.setAttribute("aria-current", "step"); } else { c.removeAttribute("aria-current"); }
    });
    Array.prototype.forEach.call(this.points, function (p) {
      p.classList.toggle("current", p.parentNode.getAttribute("data-move") === current);
    });
    if (this.cursor && this.data.chart) {
      var x = this.data.chart.x0 + k * this.data.chart.dx;
      this.cursor.setAttribute("x1", x);
      this.cursor.setAttribute("x2", x);
    }
    this.el.setAttribute("data-current", current);
    if (remember) {
      var hash = this.hash(k);
      if (location.hash !== hash) {
        try { history.replaceState(null, "", hash); } catch (e) { location.hash = hash; }
      }
    }
  };

  // ---- the diagram of a position, saved as a file ------------------------------------------------------

  // The SVG of every position of the game (domino diagram's drawings), made once (a promise) from
  // pagedata.packed_diagrams, {plans, lines}: each drawing by its plan, pairs first, count: count lines of the
  // drawing before from first on, or (first -1) the next count of the new ``lines``.
  Game.prototype.diagrams = function () {
    if (!this.unpacked) {
      var packed = this.data.diagrams;
      this.unpacked = new Promise(function (done) {
        var fresh = packed.lines, taken = 0, before = [];
        done(packed.plans.map(function (plan) {
          var lines = [];
          for (var i = 0; i < plan.length; i += 2) {
            var from = plan[i] < 0 ? fresh : before, at = plan[i] < 0 ? taken : plan[i];
            lines.push.apply(lines, from.slice(at, at + plan[i + 1]));
            if (plan[i] < 0) { taken += plan[i + 1]; }
          }
          before = lines;
          return lines.join("\n");
        }));
      });
    }
    return this.unpacked;
  };

  function saveFile(blob, name) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);   // a download of our own bytes: nothing is loaded
    a.download = name;
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
  }

  // Save the position on the board (the game's, never a line's) as SVG or, drawn on a canvas, as PNG.
  Game.prototype.saveDiagram = function (kind) {
    var k = this.cur, self = this;
    var name = "game" + this.number + (this.el.id.slice(-1) === "r" ? "-repaired" : "") + "-move" + k;
    var note = this.saver.querySelector(".save-note");
    note.textContent = "";
    function noPng() { return _("this browser cannot make a PNG: save the SVG"); }
    this.diagrams().then(function (list) {
      var svg = list[k];
      if (kind === "svg") {
        saveFile(new Blob([svg], {type: "image/svg+xml"}), name + ".svg");
        return;
      }
      var img = new Image();
      img.onload = function () {
        var canvas = document.createElement("canvas"), scale = 2;
        canvas.width = Math.ceil(img.width * scale);
        canvas.height = Math.ceil(img.height * scale);
        var ctx = canvas.getContext("2d");
        ctx.scale(scale, scale);
        ctx.drawImage(img, 0, 0);
        try {
          canvas.toBlob(function (blob) {
            if (blob) { saveFile(blob, name + ".png"); } else { note.textContent = noPng(); }
          }, "image/png");
        } catch (e) {
          note.textContent = noPng();
        }
      };
      img.onerror = function () { note.textContent = noPng(); };
      // our own drawing as a data: address (the page's policy allows images from data: only): nothing loads
      img.src = "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(svg)));
    }, function () {
      self.saver.hidden = true;
    });
  };

  // ---- an alternative's best line, shown on the board in place of the game -------------------------

  // The boards of a line from the game's board before the decision and each move of the line (line_data in
  // pagedata.py): [seat, the tile laid or drawn, laid, the mover's tiles left, his pips, the open ends, (the
  // labels that change)]. The tile laid leaves the mover's hand; its place comes with the data.
  function lineBoards(start, table, line) {
    var first = {hands: start.hands, counts: start.counts, pips: start.pips, voids: start.voids, ends: start.ends,
                 last: start.last, seat: start.seat};
    var boards = [first], tables = [nextTable(table, [], null, line.labels)];
    line.steps.forEach(function (st) {
      var before = boards[boards.length - 1], seat = st[0], tile = st[1], laid = st[2] === 1;
      var hands = before.hands.slice(), counts = before.counts.slice(), pips = before.pips.slice();
      if (tile !== null) {
        hands[seat] = laid ? hands[seat].filter(function (t) { return t !== tile; }) : hands[seat].concat([tile]);
      }
      var quiet = st.length === 1;         // a pass that changes nothing: the numbers before it stand
      if (quiet) { tile = null; }
      counts[seat] = quiet ? before.counts[seat] : st[3];
      pips[seat] = quiet ? before.pips[seat] : st[4];
      boards.push({hands: hands, counts: counts, pips: pips, voids: before.voids, ends: quiet ? before.ends : st[5],
                   last: laid ? tile.split("-").map(Number) : null, seat: seat});
      tables.push(nextTable(tables[tables.length - 1], laid ? [tile] : [], null, st[6]));
    });
    return {boards: boards, tables: tables};
  }

  // The lines as pagedata.packed_lines writes them: each line's moves ``steps`` ([seat, tile, laid, count, pips,
  // ends, (the labels it changes by arm, as indexes into the game's ``labels``)]; a pass that changes nothing
  // [seat]), their words ``said`` and each view's places ``put``; a line with a ``tail`` [at, alt, first] goes on as
  // that line from its move ``first``. Made whole here, the labels named by their values.
  function joinLines(lines, labels) {
    var done = [];
    function join(line) {
      if (!line || done.indexOf(line) >= 0) { return line; }
      done.push(line);
      line.steps = line.steps.map(function (st) {
        return st.length > 6 ? st.slice(0, 6).concat([withLabels(st[6], labels)]) : st;
      });
      if (line.tail) {
        var rest = join(lines[String(line.tail[0])][line.tail[1]]), from = line.tail[2];
        line.steps = line.steps.concat(rest.steps.slice(from));
        line.said = line.said.concat(rest.said.slice(from));
        line.views.forEach(function (v, i) { v.put = v.put.concat(rest.views[i].put.slice(from)); });
      }
      if (line.labels) { line.labels = withLabels(line.labels, labels); }
      return line;
    }
    Object.keys(lines).forEach(function (at) { lines[at].forEach(join); });
  }

  // A layout's label changes by arm, the labels named by their index into the game's ``labels`` (null: gone).
  function withLabels(change, labels) {
    var out = {};
    Object.keys(change).forEach(function (arm) { out[arm] = change[arm] === null ? null : labels[change[arm]]; });
    return out;
  }

  // The head of the panel over a line: its title ("Best line after B [0-1] (move 1), every hand open: each step
  // keeps its value, +18 (A/C win 18)", from its button's data) and its moves, sent once as data (joinLines),
  // listed under each mover's name as the hand shows it, as text.
  Game.prototype.lineHead = function (button, at, line) {
    var names = {};
    Array.prototype.forEach.call(this.hands, function (h) {
      names[h.getAttribute("data-seat")] = h.querySelector(".who b").textContent;
    });
    var v = button.getAttribute("data-value"), title = document.createElement("p"), move = document.createElement("b");
    var value = document.createElement("span"), words = document.createElement("span"), ol = document.createElement("ol");
    move.textContent = button.getAttribute("data-move");
    value.className = "val " + (v === "" ? "none" : v.charAt(0) === "+" ? "pos" : v.charAt(0) === "-" ? "neg" : "zero");
    value.textContent = v === "" ? "\u2013" : v;
    words.className = "muted";
    words.textContent = "(" + button.getAttribute("data-words") + ")";
    title.className = "line-title";
    var head = _("Best line after {player} {move} (move {at}), every hand open: each step keeps its value,", {player: names[line.steps[0][0]], at: at}).split("{move}");
    title.append(head[0], move, head[1] || "", " ", value, " ", words);
    ol.className = "line-moves";
    line.said.forEach(function (t, j) {
      var li = document.createElement("li");
      li.textContent = names[line.steps[j][0]] + " " + t;
      ol.appendChild(li);
    });
    return [title, ol];
  };

  Game.prototype.enterLine = function (at, alt) {
    var line = (this.data.lines[String(at)] || [])[alt];
    var button = this.el.querySelector('button.show-line[data-at="' + at + '"][data-alt="' + alt + '"]');
    if (!line || !button || !this.linePanel) { return; }
    if (this.cur !== at) { this.show(at, true); }
    if (this.line) { this.closeLine(); }
    var made = lineBoards(this.data.boards[at - 1], this.tables[at - 1], line);
    // where its tiles lie: as in the game, but for the tiles it lays and any it draws elsewhere (``base``)
    var own = line.views[this.view], places = {}, game = this.data.table.views[this.view].at;
    Object.keys(game).forEach(function (k) { places[k] = game[k]; });
    Object.keys(own.base || {}).forEach(function (k) { places[k] = own.base[k]; });
    line.steps.forEach(function (st, j) { if (own.put[j] !== null) { places[st[1]] = own.put[j]; } });
    this.line = {at: at, alt: alt, boards: made.boards, tables: made.tables, places: places, j: 0,
                 viewBox: this.svg.getAttribute("viewBox"), value: button.getAttribute("data-value")};
    this.svg.setAttribute("viewBox", viewBox(own.box));
    var head = this.linePanel.querySelector(".line-head");
    while (head.firstChild) { head.removeChild(head.firstChild); }
    this.lineHead(button, at, line).forEach(function (c) { head.appendChild(c); });
    this.linePanel.querySelector(".back-to-game").textContent = _("Back to the game (move {at})", {at: at});
    this.linePanel.hidden = false;
    this.el.classList.add("in-line");
    if (this.saver) { this.saver.classList.add("off"); }
    this.el.setAttribute("data-line", at + "-" + alt);
    Array.prototype.forEach.call(this.el.querySelectorAll("button.show-line"), function (b) {
      var on = b.getAttribute("data-at") === String(at) && b.getAttribute("data-alt") === String(alt);
      b.classList.toggle("open", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    this.showLine(1);
    var box = this.linePanel.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 80) { this.linePanel.scrollIntoView({block: "start"}); }
  };

  Game.prototype.showLine = function (j) {
    var line = this.line;
    var n = line.boards.length - 1;
    line.j = Math.max(0, Math.min(n, j));
    var board = line.boards[line.j];
    this.drawTable(board, line.tables[line.j], line.places, null);
    this.drawHands(board, line.at - 1);
    this.counter.textContent = _("line {j} / {n}", {j: line.j, n: n});
    this.buttons.first.disabled = this.buttons.prev.disabled = line.j === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = line.j === n;
    var items = this.linePanel.querySelectorAll(".line-moves li");
    Array.prototype.forEach.call(items, function (li, i) { li.classList.toggle("current", i === line.j - 1); });
    var words = line.j === 0 ? _("Before move {at}.", {at: line.at})
      : _("Step {j} of {n}: {move} · value {value}.", {j: line.j, n: n, move: items[line.j - 1].textContent, value: line.value})
        + (line.j === n ? " " + _("The hand ends.") : "");
    this.linePanel.querySelector(".line-step").textContent = words;
    this.el.setAttribute("data-line-step", String(line.j));
  };

  Game.prototype.stepLine = function (name) {
    var j = {first: 0, prev: this.line.j - 1, next: this.line.j + 1, last: this.line.boards.length - 1}[name];
    this.showLine(j);
  };

  // Leave the line for the game (nothing redrawn: the caller shows a move).
  Game.prototype.closeLine = function () {
    this.svg.setAttribute("viewBox", this.line.viewBox);
    this.line = null;
    this.linePanel.hidden = true;
    this.el.classList.remove("in-line");
    if (this.saver) { this.saver.classList.remove("off"); }
    this.el.removeAttribute("data-line");
    this.el.removeAttribute("data-line-step");
    Array.prototype.forEach.call(this.el.querySelectorAll("button.show-line.open"), function (b) {
      b.classList.remove("open");
      b.setAttribute("aria-pressed", "false");
    });
  };

  Game.prototype.leaveLine = function () {
    if (!this.line) { return; }
    var at = this.line.at;
    this.closeLine();
    this.show(at, true);
  };

  // The table of ``board``: the tiles named in ``shown`` (and its arms' labels) at their ``places``, the last
  // tile laid marked; under the board, the open ends in words.
  Game.prototype.drawTable = function (board, shown, places) {
    var svg = this.svg;
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var last = board.last ? board.last[0] + "-" + board.last[1] : null, spots = this.data.table.spots;
    var tiles = shown.keys.map(function (k) {
      return {k: k, p: spots[shown.moved && shown.moved[k] !== undefined ? shown.moved[k] : places[k]]};
    }).filter(function (t) { return t.p; });
    if (!this.arms) { tiles.sort(function (s, t) { return s.p[5] - t.p[5]; }); }    // a line left to right
    tiles.forEach(function (t) { placedTile(svg, t.p, t.k, t.k === last ? "last" : (t.p[4] === 1 ? "lead" : "")); });
    var arms = Object.keys(shown.labels).map(Number).sort(function (a, b) { return a - b; });
    arms.forEach(function (arm) {
      var l = shown.labels[String(arm)];
      var text = svgNode("text", {"class": "arm-label", x: l[0], y: l[1], "text-anchor": l[2], "data-arm": arm}, svg);
      var head = _("arm {arm}", {arm: arm});
      svgNode("tspan", {"class": "arm-no"}, text).textContent = head;
      text.appendChild(document.createTextNode(l[3]));
    });
    var n = shown.keys.length;
    svg.setAttribute("data-tiles", String(n));
    if (!n) {
      svgNode("text", {"class": "empty", x: 0, y: 3, "text-anchor": "middle"}, svg).textContent = _("nothing played yet");
    }
    if (this.arms) {
      if (!n) { this.ends.textContent = _("The table is empty."); return; }
      var open = arms.map(function (arm) {
        var l = shown.labels[String(arm)];
        return _("arm {arm} ({where}): {state}", {arm: arm, where: l[4], state: l[5]});
      });
      this.ends.textContent = _("Open ends: {ends}", {ends: open.join("; ")}) + " · " + ngettext("{n} tile laid", "{n} tiles laid", {n: n});
      return;
    }
    var ends = board.ends;
    this.ends.textContent = ends
      ? (ends[0] === ends[1] ? _("Open ends: {end} at both ends", {end: ends[0]}) : _("Open ends: {left} (left) and {right} (right)", {left: ends[0], right: ends[1]}))
        + " · " + ngettext("{n} tile on the line", "{n} tiles on the line", {n: n})
      : _("The line is empty.");
  };

  Game.prototype.drawHands = function (board, k) {
    var last = board.last ? board.last[0] + "-" + board.last[1] : null;
    Array.prototype.forEach.call(this.hands, function (hand) {
      var seat = parseInt(hand.getAttribute("data-seat"), 10);
      var left = board.hands[seat] || [];
      // a tile drawn from the boneyard is in the hand from the move that draws it
      Array.prototype.forEach.call(hand.querySelectorAll(".drawn"), function (d) {
        d.hidden = k < parseInt(d.getAttribute("data-from"), 10);
      });
      Array.prototype.forEach.call(hand.querySelectorAll(".tile"), function (t) {
        var key = t.getAttribute("data-t");
        t.classList.toggle("gone", left.indexOf(key) < 0);
        t.classList.toggle("just", board.seat === seat && key === last);
      });
      var count = board.counts[seat], pips = board.pips[seat];
      var text = ngettext("{n} tile left", "{n} tiles left", {n: count}) + (pips === null ? "" : " · " + ngettext("{n} pip", "{n} pips", {n: pips}));
      hand.querySelector(".count").textContent = text;
      var voids = board.voids[seat] || [];
      hand.querySelector(".voids").textContent = voids.length ? _("passed: holds no {numbers}", {numbers: voids.join(_(", no "))}) : "";
      hand.classList.toggle("mover", board.seat === seat);
      hand.classList.toggle("out", count === 0);
    });
  };

  // ---- the page ------------------------------------------------------------------------------------

  function fromHash() {
    // g2-m5; g2r-m5 in the repaired copy of game 2; g2 alone (the list of games) names no move
    var m = /^#(g\d+r?)(?:-m(\d+))?$/.exec(location.hash);
    if (!m) { return null; }
    var g = games.filter(function (x) { return x.el.id === m[1]; })[0];
    var k = m[2] === undefined ? null : parseInt(m[2], 10);
    if (!g || k > g.n) { return null; }
    return {game: g, move: k};
  }

  function followHash(scroll) {
    var at = fromHash();
    if (!at) { return false; }
    active = at.game;
    scrolled = false;
    if (at.move === null) { return true; }       // the browser scrolls to the game itself
    if (at.game.cur !== at.move) { at.game.show(at.move, false); }
    if (scroll) { at.game.el.querySelector(".replay").scrollIntoView({block: "start"}); }
    return true;
  }

  // In place of a game's controls when its board cannot work: a short note, the moves and their analysis still
  // on the page.
  function noBoard(section, words) {
    var controls = section.querySelector(".controls"), note = document.createElement("p");
    note.className = "no-board";
    note.textContent = words;
    controls.hidden = true;
    controls.parentNode.insertBefore(note, controls);
    Array.prototype.forEach.call(section.querySelectorAll("button.show-line"), function (b) { b.disabled = true; });
  }

  // Each game's data inflated, then every game set up as the page was at its load, and the page marked ready
  // (<html data-ready="yes">; "no" when the browser cannot inflate it: a note where the controls were).
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.game"));
  if (typeof DecompressionStream !== "function") {
    sections.forEach(function (section) {
      noBoard(section, _("The board needs a newer browser (one with DecompressionStream) to step through this game: the moves and their analysis are below."));
    });
    document.documentElement.setAttribute("data-ready", "no");
    return;
  }
  Promise.all(sections.map(function (section) {
    return Promise.resolve(section).then(inflated).then(null, function () { return null; });   // (damaged: none)
  })).then(function (all) {
    sections.forEach(function (section, k) {
      if (all[k]) {
        games.push(new Game(section, all[k]));
      } else {
        noBoard(section, _("The board's data of this game is damaged: it cannot step through the game."));
      }
    });
    start();
    openLink().then(function () {
      document.documentElement.setAttribute("data-ready", games.length === sections.length ? "yes" : "no");
    });
  });

  // ---- the record in a link (analyzer/site/static/link.js, docs/site.md): Copy link, and a link opened here ------
  // The page carries its record as a link carries it (#r=, made by the pipeline, analyzer/notation/link.py); it has no
  // engine: a link to its own record opens at the link's move, any other link is said to be for the site.
  function ownLink() {
    var block = document.getElementById("record-link");
    return block ? JSON.parse(block.textContent).r : null;
  }

  function linkNote(words) {
    var note = document.querySelector(".link-note");
    note.textContent = words;
    note.hidden = false;
    note.scrollIntoView({block: "nearest"});
  }

  function copyLink(game) {
    var step = Math.max(game.cur, 0), box = game.el.querySelector(".link-box"), said = game.el.querySelector(".link-said");
    var address = box.value = location.href.split("#")[0] + "#r=" + ownLink() + "&m=g" + game.number + "." + step;
    box.parentNode.hidden = false;
    (navigator.clipboard && window.isSecureContext ? navigator.clipboard.writeText(address) : Promise.reject()).then(function () {
      said.textContent = _("Link copied: game {game}, move {move}.", {game: game.number, move: step});
    }, function () {
      box.select();
      said.textContent = _("Copy the link from the box.");
    });
  }

  function openLink() {
    if (!/(^#|&)(r|m)=/.test(location.hash)) { return Promise.resolve(); }
    var own = ownLink();
    return window.DominoLink.read(location.hash).then(function (found) {
      return Promise.resolve(own && window.DominoLink.decode(own)).then(function (text) {
        var g = games.filter(function (x) { return x.el.id === "g" + found.game; })[0];
        if (text !== found.text) {
          linkNote(_("This link is of another record than this page's: a report page has no engine to analyse it; open the link in the domino site (domino site -o DIR, docs/site.md)."));
        } else if (found.game !== null && (!g || found.step > g.n)) {
          linkNote(_("This link's move {move} is not in this record.", {move: "g" + found.game + "." + found.step}));
        } else if (g) {
          active = g;
          scrolled = false;
          g.show(found.step, false);
          g.el.querySelector(".replay").scrollIntoView({block: "start"});
        }
      });
    }, function (e) {
      linkNote(_("This link opens nothing: {why}.", {why: e.message}));
    }).then(null, function () {});
  }

  function start() {
    games.forEach(function (g) { g.show(0, false); });
    active = games[0] || null;
    followHash(true);
    games.forEach(function (game) {
      var button = game.el.querySelector("button.copy-link");
      if (button) { button.addEventListener("click", function () { copyLink(game); }); }
    });
    window.addEventListener("hashchange", function () { followHash(false); });
    window.addEventListener("scroll", function () { scrolled = true; }, {passive: true});
    games.forEach(function (game) {
      Array.prototype.forEach.call(game.el.querySelectorAll("button.graded"), function (button) {
        button.addEventListener("click", function () {
          active = game;
          nextGraded(game, button.classList.contains("next-graded"));
        });
      });
    });
  }

  // How much of a game the window shows, in pixels of height.
  function inView(g) {
    var r = g.el.getBoundingClientRect();
    return Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
  }

  // The game the keys step: the one last clicked or navigated to, unless the reader has since scrolled
  // away from it (the window shows less than a quarter of its height, or of the game): then the game
  // the window shows most of.
  function keyGame() {
    var h = active ? active.el.getBoundingClientRect().height : 0;
    if (!active || !scrolled || inView(active) >= Math.min(h, window.innerHeight / 4) - 1) { return active; }
    var best = active, most = 0;
    games.forEach(function (g) {
      var seen = inView(g);
      if (seen > most) { best = g; most = seen; }
    });
    active = best;
    return best;
  }

  // The next (forward) or previous graded move of ``game``: the key n / N, or its button on a touch screen.
  function nextGraded(game, forward) {
    var marks = game.data.mistakes || [];
    var cur = game.cur;
    var to = forward ? marks.filter(function (k) { return k > cur; })[0]
      : marks.filter(function (k) { return k < cur; }).pop();
    if (to === undefined) { return false; }
    game.show(to, true);
    return true;
  }

  document.addEventListener("keydown", function (ev) {
    if (!active || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    keyGame();
    if (ev.key === "n" || ev.key === "N") {     // the next (N: the previous) graded move
      if (nextGraded(active, ev.key === "n")) { ev.preventDefault(); }
      return;
    }
    if (ev.key === "Escape" && active.line) {     // back from a line to the game
      ev.preventDefault();
      active.leaveLine();
      return;
    }
    var name = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[ev.key];
    if (!name) { return; }
    ev.preventDefault();
    active.step(name);
  });
}());
