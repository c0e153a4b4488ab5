// The one drawing of a tile in the pages' JavaScript (#69 item 6): the board's hands and moves (board.js, form.js,
// setup.js, problems.js, as an ES module) and the report's table (report.js: analyzer/render/page.py inlines this
// file's text ahead of the report's script, a page opened from disk imports nothing). Where a tile lies is never
// decided here: the report's data gives each tile's place (analyzer/render/geometry.py, as domino diagram draws the
// table in Python); the pips sit where render.PIP_LAYOUT puts them (a test compares the two).
export var SVG_NS = "http://www.w3.org/2000/svg";

var C = 5, L = 2.6, R = 7.4;
// the pips of each number on a square face of 10 x 10 (numbers above 9 are written)
export var PIPS = {
  0: [], 1: [[C, C]], 2: [[L, L], [R, R]], 3: [[L, L], [C, C], [R, R]], 4: [[L, L], [R, L], [L, R], [R, R]],
  5: [[L, L], [R, L], [C, C], [L, R], [R, R]], 6: [[L, L], [R, L], [L, C], [R, C], [L, R], [R, R]],
  7: [[L, L], [R, L], [L, C], [C, C], [R, C], [L, R], [R, R]],
  8: [[L, L], [C, L], [R, L], [L, C], [R, C], [L, R], [C, R], [R, R]],
  9: [[L, L], [C, L], [R, L], [L, C], [C, C], [R, C], [L, R], [C, R], [R, R]]
};

// An SVG element ``name`` with ``attrs``, added to ``parent`` if given.
export function svgNode(name, attrs, parent) {
  var node = document.createElementNS(SVG_NS, name);
  Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
  if (parent) { parent.appendChild(node); }
  return node;
}

// The face of number ``n`` (its pips, or the number written) in the 10 x 10 square at ``x``, ``y`` of ``parent``:
// a <g class="face" data-n> of its own, moved there as the report's symbols of a face are placed (<use href="#pfN">).
export function face(parent, n, x, y) {
  var box = svgNode("g", {"class": "face", transform: "translate(" + x + " " + y + ")", "data-n": n}, parent);
  if (PIPS[n]) {
    PIPS[n].forEach(function (p) { svgNode("circle", {cx: p[0], cy: p[1], r: 1.1, "class": "pip"}, box); });
  } else {
    svgNode("text", {x: 5, y: 7.2, "text-anchor": "middle", "font-size": 6.5, "class": "num"}, box).textContent = String(n);
  }
  return box;
}

// A tile of ``pair`` ([a, b]) on its own, lying, ``a`` on the left: a hand's tile, a move's button.
export function tile(pair, cls) {
  var svg = svgNode("svg", {viewBox: "0 0 21 11", "class": "tile" + (cls ? " " + cls : ""), role: "img",
                            "aria-label": "[" + pair[0] + "-" + pair[1] + "]"});
  svgNode("rect", {x: 0.5, y: 0.5, width: 20, height: 10, rx: 1.6, "class": "body"}, svg);
  svgNode("line", {x1: 10.5, y1: 2, x2: 10.5, y2: 9, "class": "bar"}, svg);
  face(svg, pair[0], 0.5, 0.5);
  face(svg, pair[1], 10.5, 0.5);
  return svg;
}

export var U = 10;        // the short side of a tile on the table, in the units of the places given

// The tile ``key`` ("3-5") on a table, at its place ``p`` (the report's data, analyzer/render/pagedata.place_data):
// [x, y, upright, the higher number on top (left), lead, and its arm and index on the arm, or in a line of play
// its place from the lead].
export function placedTile(parent, p, key, cls) {
  var n = key.split("-").map(Number), v = p[2] === 1;
  var a = p[3] === 1 ? n[1] : n[0], b = p[3] === 1 ? n[0] : n[1];
  var g = svgNode("g", {"class": "dt" + (cls ? " " + cls : ""), transform: "translate(" + p[0] + " " + p[1] + ")"}, parent);
  svgNode("title", {}, g).textContent = "[" + a + "-" + b + "]";
  svgNode("rect", {"class": "body", x: 0, y: 0, width: v ? U : 2 * U, height: v ? 2 * U : U, rx: 1.5}, g);
  if (v) {
    svgNode("line", {"class": "bar", x1: 1.8, y1: U, x2: U - 1.8, y2: U}, g);
  } else {
    svgNode("line", {"class": "bar", x1: U, y1: 1.8, x2: U, y2: U - 1.8}, g);
  }
  face(g, a, 0, 0);
  face(g, b, v ? 0 : U, v ? U : 0);
  if (p.length > 6) {
    g.setAttribute("data-arm", String(p[5]));
    g.setAttribute("data-k", String(p[6]));
  }
  return g;
}
