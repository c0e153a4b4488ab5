/* The report's script: steps through each game and draws the table at the current move.
   It reads the numbers embedded in each game's JSON block and writes only numbers and its own
   words into the page (textContent, attributes), never markup. */
(function () {
  "use strict";

  var U = 10;          // the short side of a tile on the board
  var GAP = 1;         // between two tiles of the line
  var MAX_HALF = 130;  // how far an arm of the line runs from the lead before it turns
  var HALF = MAX_HALF; // (narrower on a narrow screen: see lineHalf)
  var HAND_TILE = 46;  // the width in pixels of a tile in a hand (svg.tile): a tile of the line is no smaller

  // How far an arm of the line may run on a board ``width`` pixels wide so that a tile of the line is at
  // least as large as a tile in a hand: on a phone the line turns sooner and takes more rows.
  function lineHalf(width) {
    if (!width) { return MAX_HALF; }
    var units = width * 2 * U / HAND_TILE;            // the board's width in units, a tile drawn HAND_TILE wide
    return Math.max(3 * U, Math.min(MAX_HALF, Math.floor((units - 4 * U - 4) / 2)));
  }
  var NS = document.querySelector("svg").namespaceURI;
  var games = [];
  var active = null;     // the game the keys step: the one last clicked or navigated to ...
  var scrolled = false;  // ... unless the reader has scrolled since (see keyGame)

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

  // ---- a layout with arms (French, cross, tree): the lead in the middle, an arm out of each side --
  // The arms that start at the lead run right, left, up and down (arms 1 to 4 in the order they were
  // started). A long arm turns clockwise once, into the quarter of the table that no other arm enters,
  // so the four never meet. An arm that branches from a double runs straight out of that double's
  // side when nothing is in its way, else it is drawn apart, as a labelled strip under the layout.

  var REACH = {x: 120, y: 70};      // how far from the centre an arm runs before it turns
  var SIDES = [[1, 0], [-1, 0], [0, -1], [0, 1]];
  var SIDE_WORDS = ["right", "left", "up", "down"];
  var FONT = 6;                     // the size of the arm labels

  function cw(d) { return [-d[1], d[0]]; }    // y grows downwards: right -> down -> left -> up
  function ccw(d) { return [d[1], -d[0]]; }

  function halves(c0, c1, n0, n1) {           // a tile from the centres of its two halves
    var first = c0.x < c1.x || c0.y < c1.y;
    return {x: Math.min(c0.x, c1.x) - U / 2, y: Math.min(c0.y, c1.y) - U / 2, v: c0.x === c1.x,
            a: first ? n0 : n1, b: first ? n1 : n0};
  }

  function across(c, d, n) {                  // a double lying crosswise to an arm that runs along d
    return d[0] ? {x: c.x - U / 2, y: c.y - U, v: true, a: n, b: n}
                : {x: c.x - U, y: c.y - U / 2, v: false, a: n, b: n};
  }

  // The tiles of one arm from `from` (the middle of the edge it starts at), running along d.
  function walk(arm, from, d, reach) {
    var x = from.x, y = from.y, turned = false, placed = [];
    arm.tiles.forEach(function (t, k) {
      var dbl = t[0] === t[1], len = dbl ? U : 2 * U, p, c;
      // no corner right after a crosswise double: its far half would lie along the double's side
      var after = k > 0 && arm.tiles[k - 1][0] === arm.tiles[k - 1][1];
      if (!turned && !dbl && !after && x * d[0] + y * d[1] + GAP + len > reach) {
        var w = cw(d);                        // the near half goes on, the far half turns
        var near = {x: x + d[0] * (GAP + U / 2), y: y + d[1] * (GAP + U / 2)};
        c = {x: near.x + w[0] * U, y: near.y + w[1] * U};
        p = halves(near, c, t[0], t[1]);
        d = w;
        turned = true;
        x = c.x + d[0] * U / 2;
        y = c.y + d[1] * U / 2;
      } else {
        c = {x: x + d[0] * (GAP + len / 2), y: y + d[1] * (GAP + len / 2)};
        var h = {x: d[0] * U / 2, y: d[1] * U / 2};
        p = dbl ? across(c, d, t[0])
                : halves({x: c.x - h.x, y: c.y - h.y}, {x: c.x + h.x, y: c.y + h.y}, t[0], t[1]);
        x = c.x + d[0] * len / 2;
        y = c.y + d[1] * len / 2;
      }
      p.arm = arm.arm;
      p.k = k;
      p.c = c;
      p.d = d;
      placed.push(p);
    });
    return {tiles: placed, end: {x: x, y: y}, d: d};
  }

  function armState(a) {
    if (a.state === "start") { return "empty (takes a " + a.open + ")"; }
    if (a.state === "closed") { return a.open + ", closed"; }
    if (a.state === "double") { return a.open + ", needs [" + a.open + "-" + a.open + "]"; }
    return String(a.open);
  }

  function textBox(x, y, anchor, words) {
    var w = words.length * FONT * 0.56;
    var x0 = anchor === "start" ? x : anchor === "end" ? x - w : x - w / 2;
    return {x: x0, y: y - FONT * 0.8, w: w, h: FONT};
  }

  // A label for an arm at the point `at`, standing off towards d.
  function labelAt(arm, at, d) {
    var words = "arm " + arm.arm + ": " + (arm.state === "start" ? "empty" : armState(arm));
    var x = at.x + d[0] * 3, y = at.y + d[1] * 3;
    var anchor = d[0] > 0 ? "start" : d[0] < 0 ? "end" : "middle";
    y = d[1] > 0 ? y + FONT * 0.8 : d[1] < 0 ? y - FONT * 0.2 : y + FONT * 0.35;
    return {arm: arm.arm, x: x, y: y, anchor: anchor, head: "arm " + arm.arm, words: words,
            box: textBox(x, y, anchor, words)};
  }

  // Where an arm's label may go, best first: just beyond its open end, else beside its last tile.
  function labelSpots(arm, r) {
    var spots = [labelAt(arm, r.end, r.d)];
    var last = r.tiles[r.tiles.length - 1];
    if (last) {
      var b = box(last), cx = b.x + b.w / 2, cy = b.y + b.h / 2;
      [ccw(r.d), cw(r.d)].forEach(function (w) {
        var reach = w[0] ? b.w / 2 : b.h / 2;
        spots.push(labelAt(arm, {x: cx + w[0] * reach, y: cy + w[1] * reach}, w));
      });
    }
    return spots;
  }

  function box(p) { return p.box || {x: p.x, y: p.y, w: p.v ? U : 2 * U, h: p.v ? 2 * U : U}; }

  function meet(p, q) {
    var a = box(p), b = box(q);
    return Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.01 &&
           Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.01;
  }

  // Where everything of a layout goes. `plan` (see planArms) names the arms drawn apart and where
  // their strips start, the same at every step, so a tile stays where it is as one steps through.
  function layoutArms(lay, plan) {
    var out = {tiles: [], labels: [], arms: []};
    if (!lay || !lay.lead) { return out; }
    var spinner = lay.lead[0] === lay.lead[1];
    var lead = spinner ? {x: -U / 2, y: -U, v: true, a: lay.lead[0], b: lay.lead[1]}
                       : {x: -U, y: -U / 2, v: false, a: lay.lead[1], b: lay.lead[0]};
    lead.arm = 0;
    lead.k = 0;
    out.tiles.push(lead);
    var starts = spinner ? [{x: U / 2, y: 0}, {x: -U / 2, y: 0}, {x: 0, y: -U}, {x: 0, y: U}]
                         : [{x: U, y: 0}, {x: -U, y: 0}, {x: 0, y: -U / 2}, {x: 0, y: U / 2}];
    var drawn = {}, sides = {}, apart = [], main = 0;
    var spots = [];
    function keep(a, r, where) {
      drawn[a.arm] = r.tiles;
      out.tiles = out.tiles.concat(r.tiles);
      spots.push(labelSpots(a, r));
      out.arms.push({arm: a, where: where});
    }
    lay.arms.forEach(function (a) {
      if (a.origin === null && main < 4) {
        var d = SIDES[main];
        keep(a, walk(a, starts[main], d, d[0] ? REACH.x : REACH.y), SIDE_WORDS[main]);
        main++;
      }
    });
    lay.arms.forEach(function (a) {
      if (drawn[a.arm]) { return; }
      var parent = a.origin && drawn[a.origin[0]];
      var dbl = parent && parent[a.origin[1]];
      var side = a.origin ? sides[a.origin.join()] || 0 : 2;
      if (a.origin) { sides[a.origin.join()] = side + 1; }
      if (dbl && dbl.a === dbl.b && side < 2 && !plan.strips[a.arm]) {
        var dir = side ? cw(dbl.d) : ccw(dbl.d);
        keep(a, walk(a, {x: dbl.c.x + dir[0] * U, y: dbl.c.y + dir[1] * U}, dir, Infinity),
             "from [" + dbl.a + "-" + dbl.b + "] on arm " + a.origin[0]);
      } else {
        apart.push(a);
      }
    });
    spots.forEach(function (choice) {      // each label where it covers no tile and no label before it
      var taken = out.tiles.concat(out.labels);
      out.labels.push(choice.filter(function (l) {
        return !taken.some(function (q) { return meet(l, q); });
      })[0] || choice[0]);
    });
    var y = plan.top;
    apart.forEach(function (a) {
      var from = a.origin ? lay.arms[a.origin[0] - 1].tiles[a.origin[1]] : null;
      var where = from ? "from [" + from[0] + "-" + from[1] + "] on arm " + a.origin[0] : "from the lead";
      var words = "arm " + a.arm + ", " + where + ": " + armState(a);
      out.labels.push({arm: a.arm, x: plan.left, y: y + FONT, anchor: "start", head: "arm " + a.arm,
                       words: words, box: textBox(plan.left, y + FONT, "start", words), apart: true});
      var r = walk(a, {x: plan.left - GAP, y: y + FONT + 3 + U}, [1, 0], Infinity);
      r.tiles.forEach(function (p) { p.apart = true; });
      out.tiles = out.tiles.concat(r.tiles);
      out.arms.push({arm: a, where: where, apart: true});
      y += FONT + 3 + 2 * U + 6;
    });
    out.arms.sort(function (p, q) { return p.arm.arm - q.arm.arm; });
    return out;
  }

  // Which branch arms must be drawn apart: one that, at any step of the game, would meet a tile or a
  // label of an arm before it (or of an arm that starts at the lead). Then the strips go under
  // everything the cross ever covers.
  function planArms(boards) {
    var plan = {strips: {}, top: 0, left: 0};
    var branch = {};
    boards.forEach(function (b) {
      (b.layout ? b.layout.arms : []).forEach(function (a) { if (a.origin) { branch[a.arm] = true; } });
    });
    function clash(placed) {          // the branch arm to put apart, or 0
      var items = placed.tiles.concat(placed.labels).filter(function (p) { return !p.apart; });
      for (var i = 0; i < items.length; i++) {
        for (var j = i + 1; j < items.length; j++) {
          var p = items[i], q = items[j];
          if (p.arm !== q.arm && meet(p, q)) {
            var later = Math.max(p.arm, q.arm), sooner = Math.min(p.arm, q.arm);
            if (branch[later]) { return later; }
            if (branch[sooner]) { return sooner; }
          }
        }
      }
      return 0;
    }
    for (var again = true; again;) {
      again = boards.some(function (b) {
        var arm = clash(layoutArms(b.layout, plan));
        if (arm) { plan.strips[arm] = true; }
        return arm > 0;
      });
    }
    var bottom = -Infinity, left = Infinity;
    boards.forEach(function (b) {
      var placed = layoutArms(b.layout, plan);
      placed.tiles.concat(placed.labels).forEach(function (p) {
        if (p.apart) { return; }
        var r = box(p);
        bottom = Math.max(bottom, r.y + r.h);
        left = Math.min(left, r.x);
      });
    });
    plan.top = bottom + 8;
    plan.left = left;
    return plan;
  }

  function armsExtent(placed, into) {
    placed.tiles.concat(placed.labels).map(box).forEach(function (b) {
      into.x0 = Math.min(into.x0, b.x - 3); into.x1 = Math.max(into.x1, b.x + b.w + 3);
      into.y0 = Math.min(into.y0, b.y - 3); into.y1 = Math.max(into.y1, b.y + b.h + 3);
    });
    return into;
  }

  // The plan of a layout with arms and the box that holds every step of ``boards`` (a small layout is
  // not blown up); for a line of play, the box of its last step.
  function frame(boards) {
    var last = boards[boards.length - 1];
    var plan = null, box;
    if (last.layout) {
      plan = planArms(boards);
      box = {x0: -120, x1: 120, y0: -50, y1: 50};
      boards.forEach(function (b) { armsExtent(layoutArms(b.layout, plan), box); });
    } else {
      box = extent(layout(last.line, last.lead));
    }
    return {plan: plan, box: box, viewBox: [box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0].join(" ")};
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
    if (last.layout) {
      this.svg.classList.add("arms");
    } else {
      HALF = lineHalf(this.svg.getBoundingClientRect().width);
    }
    var framed = frame(boards);
    var box = framed.box;
    this.plan = framed.plan;
    this.svg.setAttribute("viewBox", framed.viewBox);
    if (last.layout) {
      // a layout with arms on a narrow screen: drawn with its tiles as large as the hand tiles, in a board
      // that scrolls sideways (centred on the spinner), rather than shrunk to a thumbnail
      var need = (box.x1 - box.x0) * HAND_TILE / (2 * U);
      var board = section.querySelector(".board");
      if (this.svg.getBoundingClientRect().width < need) {
        this.svg.style.width = need + "px";
        this.svg.style.maxWidth = "none";
        board.classList.add("wide");
        this.centre = function () {
          var view = board.querySelector(".board-view");
          view.scrollLeft = (view.scrollWidth - view.clientWidth) / 2;
        };
      }
    }
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
    if (this.saver && this.data.diagrams && typeof DecompressionStream === "function") {
      this.saver.hidden = false;
      this.saver.querySelector(".save-svg").addEventListener("click", function () { self.saveDiagram("svg"); });
      this.saver.querySelector(".save-png").addEventListener("click", function () { self.saveDiagram("png"); });
    }
    this.linePanel = section.querySelector(".line-view");
    this.line = null;
    Array.prototype.forEach.call(section.querySelectorAll("button.show-line"), function (b) {
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
    if (board.layout) { this.drawArms(board); } else { this.drawLine(board); }
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

  // The SVG of every position of the game (domino diagram's drawings), unpacked once.
  Game.prototype.diagrams = function () {
    if (!this.unpacked) {
      var bin = atob(this.data.diagrams), bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
      this.unpacked = new Response(stream).text().then(JSON.parse);
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
            if (blob) { saveFile(blob, name + ".png"); } else { note.textContent = "this browser cannot make a PNG: save the SVG"; }
          }, "image/png");
        } catch (e) {
          note.textContent = "this browser cannot make a PNG: save the SVG";
        }
      };
      img.onerror = function () { note.textContent = "this browser cannot make a PNG: save the SVG"; };
      // our own drawing as a data: address (the page's policy allows images from data: only): nothing loads
      img.src = "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(svg)));
    }, function () {
      self.saver.hidden = true;
    });
  };

  // ---- an alternative's best line, shown on the board in place of the game -------------------------

  // A table of a line from the one before it and its change (``board_patch`` in render.py): the fields
  // written replace the old ones, but for a list changed at some items ({"2": ...}, each item itself a
  // change), a line grown by one tile at one end ({"left": [a, b]} / {"right": [a, b]}) and a mapping
  // changed in some fields ({"+": change}: a layout with arms, an arm). Data only: nothing here judges a move.
  function changed(key, old, value) {
    var plain = value !== null && typeof value === "object" && !Array.isArray(value);
    if (plain && old !== null && typeof old === "object" && !Array.isArray(old)
        && Object.prototype.hasOwnProperty.call(value, "+")) {
      return unpatch(old, value["+"]);
    }
    if (plain && Array.isArray(old) && key === "line") {
      return value.left ? [value.left].concat(old) : old.concat([value.right]);
    }
    if (plain && Array.isArray(old)) {
      var items = old.slice();
      Object.keys(value).forEach(function (i) { items[Number(i)] = changed("", old[Number(i)], value[i]); });
      return items;
    }
    return value;
  }

  function unpatch(before, patch) {
    var board = {}, key;
    for (key in before) { if (Object.prototype.hasOwnProperty.call(before, key)) { board[key] = before[key]; } }
    for (key in patch) {
      if (Object.prototype.hasOwnProperty.call(patch, key)) { board[key] = changed(key, before[key], patch[key]); }
    }
    return board;
  }

  Game.prototype.enterLine = function (at, alt) {
    var steps = (this.data.lines[String(at)] || [])[alt];
    var source = this.el.querySelector('.line-data[data-at="' + at + '"][data-alt="' + alt + '"]');
    if (!steps || !source || !this.linePanel) { return; }
    if (this.cur !== at) { this.show(at, true); }
    if (this.line) { this.closeLine(); }
    var boards = [this.data.boards[at - 1]];
    steps.forEach(function (patch) { boards.push(unpatch(boards[boards.length - 1], patch)); });
    var framed = frame(boards);
    this.line = {at: at, alt: alt, boards: boards, j: 0, plan: this.plan, viewBox: this.svg.getAttribute("viewBox"),
                 value: source.getAttribute("data-value")};
    this.plan = framed.plan;
    this.svg.setAttribute("viewBox", framed.viewBox);
    var head = this.linePanel.querySelector(".line-head");
    while (head.firstChild) { head.removeChild(head.firstChild); }
    Array.prototype.forEach.call(source.children, function (c) { head.appendChild(c.cloneNode(true)); });
    this.linePanel.querySelector(".back-to-game").textContent = "Back to the game (move " + at + ")";
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
    if (this.centre) { this.centre(); }          // a wide layout on a narrow screen: the spinner in view
    var box = this.linePanel.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 80) { this.linePanel.scrollIntoView({block: "start"}); }
  };

  Game.prototype.showLine = function (j) {
    var line = this.line;
    var n = line.boards.length - 1;
    line.j = Math.max(0, Math.min(n, j));
    var board = line.boards[line.j];
    if (board.layout) { this.drawArms(board); } else { this.drawLine(board); }
    this.drawHands(board, line.at - 1);
    this.counter.textContent = "line " + line.j + " / " + n;
    this.buttons.first.disabled = this.buttons.prev.disabled = line.j === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = line.j === n;
    var items = this.linePanel.querySelectorAll(".line-moves li");
    Array.prototype.forEach.call(items, function (li, i) { li.classList.toggle("current", i === line.j - 1); });
    var words = line.j === 0 ? "Before move " + line.at + "."
      : "Step " + line.j + " of " + n + ": " + items[line.j - 1].textContent + " · value " + line.value
        + (line.j === n ? ". The hand ends." : ".");
    this.linePanel.querySelector(".line-step").textContent = words;
    this.el.setAttribute("data-line-step", String(line.j));
  };

  Game.prototype.stepLine = function (name) {
    var j = {first: 0, prev: this.line.j - 1, next: this.line.j + 1, last: this.line.boards.length - 1}[name];
    this.showLine(j);
  };

  // Leave the line for the game (nothing redrawn: the caller shows a move).
  Game.prototype.closeLine = function () {
    this.plan = this.line.plan;
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

  Game.prototype.drawArms = function (board) {
    var svg = this.svg;
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var placed = layoutArms(board.layout, this.plan);
    var last = board.last;
    placed.tiles.forEach(function (p) {
      var isLast = last && ((p.a === last[0] && p.b === last[1]) || (p.a === last[1] && p.b === last[0]));
      var g = drawTile(svg, p, isLast ? "last" : (p.arm === 0 ? "lead" : ""));
      g.setAttribute("data-arm", String(p.arm));
      g.setAttribute("data-k", String(p.k));
    });
    placed.labels.forEach(function (l) {
      var attrs = {"class": "arm-label", x: l.x, y: l.y, "text-anchor": l.anchor, "data-arm": l.arm};
      var text = mk("text", attrs, svg);
      mk("tspan", {"class": "arm-no"}, text).textContent = l.head;
      text.appendChild(document.createTextNode(l.words.slice(l.head.length)));
    });
    svg.setAttribute("data-tiles", String(placed.tiles.length));
    var lay = board.layout;
    if (!lay.lead) {
      mk("text", {"class": "empty", x: 0, y: 3, "text-anchor": "middle"}, svg).textContent = "nothing played yet";
      this.ends.textContent = "The table is empty.";
      return;
    }
    if (this.centre && !this.centred) { this.centre(); this.centred = true; }
    var n = placed.tiles.length;
    this.ends.textContent = "Open ends: " + placed.arms.map(function (p) {
      return "arm " + p.arm.arm + " (" + p.where + "): " + armState(p.arm);
    }).join("; ") + " · " + n + " tile" + (n === 1 ? "" : "s") + " laid";
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

  Array.prototype.forEach.call(document.querySelectorAll("section.game"), function (section) {
    games.push(new Game(section));
  });
  games.forEach(function (g) { g.show(0, false); });
  active = games[0] || null;
  followHash(true);
  window.addEventListener("hashchange", function () { followHash(false); });
  window.addEventListener("scroll", function () { scrolled = true; }, {passive: true});

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

  games.forEach(function (game) {
    Array.prototype.forEach.call(game.el.querySelectorAll("button.graded"), function (button) {
      button.addEventListener("click", function () {
        active = game;
        nextGraded(game, button.classList.contains("next-graded"));
      });
    });
  });

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
