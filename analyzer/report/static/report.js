/* The report's script: steps through each game and draws the table at the current move.
   It reads the numbers embedded in each game's JSON block and writes only numbers and its own
   words into the page (textContent, attributes), never markup. */
(function () {
  "use strict";

  var U = 10;          // the short side of a tile on the board
  var GAP = 1;         // between two tiles of the line
  var HALF = 130;      // how far an arm of the line runs from the lead before it turns
  var NS = document.querySelector("svg").namespaceURI;
  var games = [];
  var active = null;

  function mk(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  // ---- the line of play: the lead in the middle, each arm running out and turning at the edge ----

  function place(out, tiles, x, dir) {
    var turn = dir;           // the right arm turns down, the left arm up
    var rowY = 0;
    var corner = null;        // the column of the corner tile, for the tile after it
    tiles.forEach(function (t) {
      var dbl = t.inner === t.outer;
      var p;
      if (corner !== null) {
        if (dbl) {            // crosswise to the turn: lies flat under the corner
          var mid = (corner.min + corner.max) / 2;
          p = {x: mid - U, y: rowY - U / 2, v: false, a: t.inner, b: t.outer};
          x = mid + dir * U;
        } else {
          var edge = dir < 0 ? corner.max : corner.min;
          p = {x: dir < 0 ? edge - 2 * U : edge, y: rowY - U / 2, v: false,
               a: dir < 0 ? t.outer : t.inner, b: dir < 0 ? t.inner : t.outer};
          x = edge + dir * 2 * U;
        }
        corner = null;
      } else {
        var start = x + dir * GAP;
        var len = dbl ? U : 2 * U;
        var far = start + dir * len;
        if (!dbl && Math.abs(far) > HALF) {      // no room: this tile turns the corner
          var min = dir > 0 ? start : start - U;
          p = {x: min, y: turn > 0 ? rowY - U / 2 : rowY + U / 2 - 2 * U, v: true,
               a: turn > 0 ? t.inner : t.outer, b: turn > 0 ? t.outer : t.inner};
          corner = {min: min, max: min + U};
          rowY += turn * (2 * U + GAP);
          dir = -dir;
        } else if (dbl) {
          p = {x: Math.min(start, far), y: rowY - U, v: true, a: t.inner, b: t.outer};
          x = far;
        } else {
          p = {x: Math.min(start, far), y: rowY - U / 2, v: false,
               a: dir > 0 ? t.inner : t.outer, b: dir > 0 ? t.outer : t.inner};
          x = far;
        }
      }
      p.i = t.i;
      out[t.i] = p;
    });
  }

  function layout(line, lead) {
    var out = [];
    if (lead === null || !line.length) { return out; }
    var first = line[lead];
    var dbl = first[0] === first[1];
    out[lead] = dbl ? {x: -U / 2, y: -U, v: true, a: first[0], b: first[1], i: lead}
                    : {x: -U, y: -U / 2, v: false, a: first[0], b: first[1], i: lead};
    var right = [], left = [];
    for (var i = lead + 1; i < line.length; i++) { right.push({i: i, inner: line[i][0], outer: line[i][1]}); }
    for (var j = lead - 1; j >= 0; j--) { left.push({i: j, inner: line[j][1], outer: line[j][0]}); }
    place(out, right, dbl ? U / 2 : U, 1);
    place(out, left, dbl ? -U / 2 : -U, -1);
    return out;
  }

  function extent(placed) {
    var box = {x0: -HALF - 2 * U, x1: HALF + 2 * U, y0: -U - 2, y1: U + 2};
    placed.forEach(function (p) {
      if (!p) { return; }
      var w = p.v ? U : 2 * U, h = p.v ? 2 * U : U;
      box.x0 = Math.min(box.x0, p.x - 2); box.x1 = Math.max(box.x1, p.x + w + 2);
      box.y0 = Math.min(box.y0, p.y - 2); box.y1 = Math.max(box.y1, p.y + h + 2);
    });
    return box;
  }

  function drawTile(parent, p, cls) {
    var w = p.v ? U : 2 * U, h = p.v ? 2 * U : U;
    var g = mk("g", {"class": "dt" + (cls ? " " + cls : ""), transform: "translate(" + p.x + " " + p.y + ")"}, parent);
    mk("title", {}, g).textContent = "[" + p.a + "-" + p.b + "]";
    mk("rect", {"class": "body", x: 0, y: 0, width: w, height: h, rx: 1.5}, g);
    if (p.v) {
      mk("line", {"class": "bar", x1: 1.8, y1: U, x2: U - 1.8, y2: U}, g);
      mk("use", {href: "#pf" + p.a, x: 0, y: 0, width: U, height: U}, g);
      mk("use", {href: "#pf" + p.b, x: 0, y: U, width: U, height: U}, g);
    } else {
      mk("line", {"class": "bar", x1: U, y1: 1.8, x2: U, y2: U - 1.8}, g);
      mk("use", {href: "#pf" + p.a, x: 0, y: 0, width: U, height: U}, g);
      mk("use", {href: "#pf" + p.b, x: U, y: 0, width: U, height: U}, g);
    }
    return g;
  }

  // ---- one game ------------------------------------------------------------------------------------

  function Game(section) {
    this.el = section;
    this.data = JSON.parse(section.querySelector("script.game-data").textContent);
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
    var boards = this.data.boards;
    var last = boards[boards.length - 1];
    var box = extent(layout(last.line, last.lead));
    this.svg.setAttribute("viewBox", [box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0].join(" "));
    this.buttons = {};
    var self = this;
    ["first", "prev", "next", "last"].forEach(function (name) {
      var b = section.querySelector(".controls ." + name);
      self.buttons[name] = b;
      b.addEventListener("click", function () {
        active = self;
        self.step(name);
      });
    });
    section.addEventListener("click", function (ev) {
      active = self;
      var target = ev.target.closest("[data-move]");
      if (!target || !section.contains(target) || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) { return; }
      if (target.classList.contains("detail")) { return; }
      ev.preventDefault();
      self.show(parseInt(target.getAttribute("data-move"), 10), true);
      if (target.classList.contains("jump-critical") || target.classList.contains("goto")) {
        self.svg.scrollIntoView({block: "nearest"});
      }
    });
  }

  Game.prototype.step = function (name) {
    var k = {first: 0, prev: this.cur - 1, next: this.cur + 1, last: this.n}[name];
    this.show(Math.max(0, Math.min(this.n, k)), true);
  };

  Game.prototype.hash = function (k) { return "#g" + this.number + "-m" + k; };

  Game.prototype.show = function (k, remember) {
    if (!(k >= 0 && k <= this.n)) { return; }
    this.cur = k;
    var board = this.data.boards[k];
    this.drawLine(board);
    this.drawHands(board);
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

  Game.prototype.drawLine = function (board) {
    var svg = this.svg;
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var placed = layout(board.line, board.lead);
    var last = board.last;
    placed.forEach(function (p) {
      var isLast = last && ((p.a === last[0] && p.b === last[1]) || (p.a === last[1] && p.b === last[0]));
      drawTile(svg, p, isLast ? "last" : (p.i === board.lead ? "lead" : ""));
    });
    svg.setAttribute("data-tiles", String(board.line.length));
    if (!board.line.length) {
      mk("text", {"class": "empty", x: 0, y: 3, "text-anchor": "middle"}, svg).textContent = "nothing played yet";
    }
    this.ends.textContent = board.ends
      ? "Open ends: " + (board.ends[0] === board.ends[1] ? board.ends[0] + " at both ends" : board.ends[0] + " (left) and " + board.ends[1] + " (right)")
        + " · " + board.line.length + " tile" + (board.line.length === 1 ? "" : "s") + " on the line"
      : "The line is empty.";
  };

  Game.prototype.drawHands = function (board) {
    var last = board.last ? board.last[0] + "-" + board.last[1] : null;
    Array.prototype.forEach.call(this.hands, function (hand) {
      var seat = parseInt(hand.getAttribute("data-seat"), 10);
      var left = board.hands[seat] || [];
      Array.prototype.forEach.call(hand.querySelectorAll(".tile"), function (t) {
        var key = t.getAttribute("data-t");
        t.classList.toggle("gone", left.indexOf(key) < 0);
        t.classList.toggle("just", board.seat === seat && key === last);
      });
      var count = board.counts[seat], pips = board.pips[seat];
      var text = count + (count === 1 ? " tile" : " tiles") + " left" + (pips === null ? "" : " · " + pips + " pips");
      hand.querySelector(".count").textContent = text;
      var voids = board.voids[seat] || [];
      hand.querySelector(".voids").textContent = voids.length ? "passed: holds no " + voids.join(", no ") : "";
      hand.classList.toggle("mover", board.seat === seat);
      hand.classList.toggle("out", count === 0);
    });
  };

  // ---- the page ------------------------------------------------------------------------------------

  function fromHash() {
    var m = /^#g(\d+)-m(\d+)$/.exec(location.hash);
    if (!m) { return null; }
    var g = games[parseInt(m[1], 10) - 1];
    var k = parseInt(m[2], 10);
    if (!g || k > g.n) { return null; }
    return {game: g, move: k};
  }

  function followHash(scroll) {
    var at = fromHash();
    if (!at) { return false; }
    active = at.game;
    if (at.game.cur !== at.move) { at.game.show(at.move, false); }
    if (scroll) { at.game.el.querySelector(".replay").scrollIntoView({block: "start"}); }
    return true;
  }

  Array.prototype.forEach.call(document.querySelectorAll("section.game"), function (section) {
    games.push(new Game(section));
  });
  games.forEach(function (g) { g.show(0, false); });
  active = games[0] || null;
  followHash(true);
  window.addEventListener("hashchange", function () { followHash(false); });

  document.addEventListener("keydown", function (ev) {
    if (!active || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    var name = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[ev.key];
    if (!name) { return; }
    ev.preventDefault();
    active.step(name);
  });
}());
