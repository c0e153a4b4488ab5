// The set-up form: a position instead of a deal. The tiles on the table (the line, in the order clicked from
// one open end to the other, or only its two open ends and the counts of each number), each hand (the tiles
// clicked, and how many more nobody sees), what each player's passes proved he lacks, who moves, the points
// scored in the hand and the match score. The server writes it as a set-up record in the notation and
// validates it; whether the rules can reach the position is the validator's to say. This script only gathers
// the choices (the set, the seats and the sides come from the server).
import {_} from "./i18n.js";
import {tile} from "./tiles.js";  // the one drawing of a tile (the report's too)
(function () {
  "use strict";

  var B = window.DominoBoard;
  var $ = function (id) { return document.getElementById(id); };
  // place: "line" or a seat; line: the tiles of the line in order; ends: the two open ends (by counts)
  var form = {deal: null, names: [], hands: [], unknown: [], lacks: [], line: [], place: "line", toMove: 0,
              ends: [null, null]};

  function rules() { return B.rules($("srules").value); }

  function error(words) {
    $("serror").hidden = !words;
    $("serror").textContent = words || "";
  }

  function byCounts() { return $("scounts").checked; }

  function refresh() {
    return B.deal($("svariant"), $("srules"), error).then(function (deal) {
      if (!deal) { return; }
      var seats = B.newSeats(form.deal, deal);
      form.deal = deal;
      if (seats) {
        form.names = seats;
        form.hands = form.names.map(function () { return []; });
        form.unknown = form.names.map(function () { return 0; });
        form.lacks = form.names.map(function () { return []; });
        form.line = [];
        form.ends = [null, null];
        form.toMove = 0;
        form.place = "line";
      }
      draw();
    });
  }

  function same(t, a, b) { return t[0] === a && t[1] === b; }

  // where [a-b] is now: "line", a seat, or null
  function holder(a, b) {
    if (form.line.some(function (t) { return same(t, a, b); })) { return "line"; }
    for (var k = 0; k < form.hands.length; k++) {
      if (form.hands[k].some(function (t) { return same(t, a, b); })) { return k; }
    }
    return null;
  }

  function placeName(place) { return place === "line" ? _("the line") : form.names[place]; }

  function draw() {
    if (byCounts() && form.place === "line") { form.place = 0; }
    $("scountbox").hidden = !byCounts();
    var box = $("splaces");
    box.textContent = "";
    if (!byCounts()) { box.appendChild(lineRow()); }
    form.names.forEach(function (name, k) { box.appendChild(handRow(name, k)); });
    drawCounts();
    drawScores();
    drawSet();
  }

  function chooser(place, label) {
    var pick = B.el("input", "", null);
    pick.type = "radio";
    pick.name = "splace";
    pick.checked = form.place === place;
    pick.setAttribute("aria-label", label);
    pick.addEventListener("change", function () { form.place = place; draw(); });
    return pick;
  }

  function lineRow() {
    var row = B.el("div", "nplayer sline" + (form.place === "line" ? " chosen" : ""));
    row.setAttribute("data-place", "line");
    row.appendChild(chooser("line", _("put tiles on the line")));
    row.appendChild(B.el("strong", "splace", _("the line")));
    var held = B.el("span", "ntiles", null);
    form.line.forEach(function (t) { held.appendChild(tile(t)); });
    held.appendChild(B.el("span", "ncount", form.line.length ? _("{n} on the table, in order", {n: form.line.length}) :
      _("nothing on the table (the lead)")));
    row.appendChild(held);
    var side = B.el("select", "sside", null);
    side.setAttribute("aria-label", _("the end a tile clicked is laid at"));
    [["right", _("laid at the right end")], ["left", _("laid at the left end")]].forEach(function (x) {
      var o = B.el("option", "", x[1]);
      o.value = x[0];
      side.appendChild(o);
    });
    side.value = form.side || "right";
    side.addEventListener("change", function () { form.side = side.value; });
    row.appendChild(side);
    return row;
  }

  function handRow(name, k) {
    var row = B.el("div", "nplayer" + (form.place === k ? " chosen" : ""));
    row.setAttribute("data-place", String(k));
    row.appendChild(chooser(k, _("enter the hand of player {n}", {n: k + 1})));
    var field = B.el("input", "nname", null);
    field.type = "text";
    field.value = name;
    field.size = 6;
    field.setAttribute("aria-label", _("name of player {n}", {n: k + 1}));
    field.addEventListener("change", function () { form.names[k] = field.value.trim(); drawScores(); drawMovers(); });
    field.addEventListener("focus", function () { if (form.place !== k) { form.place = k; draw(); field.focus(); } });
    row.appendChild(field);
    var held = B.el("span", "ntiles", null);
    form.hands[k].forEach(function (t) { held.appendChild(tile(t)); });
    row.appendChild(held);
    var more = B.el("label", "nmore", "+ ");
    var count = B.el("input", "nunknown", null);
    count.type = "number";
    count.min = "0";
    count.max = "99";
    count.value = String(form.unknown[k]);
    count.setAttribute("aria-label", _("{player}'s tiles not shown", {player: name}));
    count.addEventListener("input", function () { form.unknown[k] = Math.max(0, parseInt(count.value, 10) || 0); });
    more.appendChild(count);
    more.appendChild(document.createTextNode(" " + _("not shown")));
    row.appendChild(more);
    var lacks = B.el("span", "nlacks", _("lacks") + " ");
    for (var n = 0; n <= form.deal.max_pip; n++) { lacks.appendChild(lackButton(k, n)); }
    row.appendChild(lacks);
    var mover = B.el("label", "smover", null);
    var radio = B.el("input", "", null);
    radio.type = "radio";
    radio.name = "stomove";
    radio.value = String(k);
    radio.checked = form.toMove === k;
    radio.addEventListener("change", function () { form.toMove = k; });
    mover.appendChild(radio);
    mover.appendChild(document.createTextNode(" " + _("to move")));
    row.appendChild(mover);
    return row;
  }

  function drawMovers() {
    Array.prototype.forEach.call(document.querySelectorAll("#splaces input[name=stomove]"), function (r) {
      r.setAttribute("aria-label", _("{player} to move", {player: form.names[Number(r.value)]}));
    });
  }

  function lackButton(k, n) {
    var on = form.lacks[k].indexOf(n) >= 0;
    var b = B.el("button", "nlack" + (on ? " on" : ""), String(n));
    b.type = "button";
    b.setAttribute("data-number", String(n));
    b.setAttribute("aria-pressed", String(on));
    b.title = on ? _("{player}'s passes proved he lacks {n}", {player: form.names[k], n: n}) :
      _("click: {player}'s passes proved he lacks {n}", {player: form.names[k], n: n});
    b.addEventListener("click", function () {
      var at = form.lacks[k].indexOf(n);
      if (at >= 0) { form.lacks[k].splice(at, 1); } else { form.lacks[k].push(n); }
      var now = form.lacks[k].indexOf(n) >= 0;
      b.classList.toggle("on", now);
      b.setAttribute("aria-pressed", String(now));
    });
    return b;
  }

  // the table known by counts: its two open ends clicked, each number's count typed
  function drawCounts() {
    var ends = $("sends");
    ends.textContent = "";
    [_("one open end"), _("the other open end")].forEach(function (label, e) {
      var row = B.el("div", "endrow", null);
      row.setAttribute("data-end", String(e));
      row.appendChild(B.el("span", "what", label));
      for (var n = 0; n <= form.deal.max_pip; n++) {
        (function (n) {
          var b = B.el("button", "nlack" + (form.ends[e] === n ? " on" : ""), String(n));
          b.type = "button";
          b.setAttribute("data-number", String(n));
          b.setAttribute("aria-pressed", String(form.ends[e] === n));
          b.addEventListener("click", function () { form.ends[e] = form.ends[e] === n ? null : n; drawCounts(); });
          row.appendChild(b);
        }(n));
      }
      ends.appendChild(row);
    });
    var counts = $("scountnumbers");
    if (counts.children.length !== form.deal.max_pip + 1) {
      counts.textContent = "";
      counts.appendChild(B.el("span", "what", _("tiles on the table with a")));
      for (var n = 0; n <= form.deal.max_pip; n++) {
        var label = B.el("label", "", n + ": ");
        var input = B.el("input", "", null);
        input.type = "number";
        input.min = "0";
        input.max = String(form.deal.max_pip + 1);
        input.setAttribute("data-number", String(n));
        input.setAttribute("aria-label", _("tiles on the table with a {n}", {n: n}));
        label.appendChild(input);
        counts.appendChild(label);
      }
    }
  }

  // the points scored in the hand (where the variant scores during play) and the match score, a side each
  function drawScores() {
    var box = $("sscores");
    var typed = {};          // (the numbers typed so far stay as the form is drawn again)
    Array.prototype.forEach.call(box.querySelectorAll("input"), function (input) {
      typed[input.closest("[data-scores]").getAttribute("data-scores") + input.getAttribute("data-side")] = input.value;
    });
    box.textContent = "";
    var deal = form.deal;
    [["points", _("points scored in this hand"), deal.scores_in_play], ["score", _("match score before the hand"), true]]
      .forEach(function (x) {
        if (!x[2]) { return; }
        var row = B.el("div", "fields", null);
        row.setAttribute("data-scores", x[0]);
        row.appendChild(B.el("span", "what", x[1]));
        deal.sides.forEach(function (seats, side) {
          var who = seats.map(function (s) { return form.names[s]; }).join("/");
          var label = B.el("label", "", who + " ");
          var input = B.el("input", "", null);
          input.type = "number";
          input.min = "0";
          input.setAttribute("data-side", String(side));
          input.value = typed[x[0] + side] || "";
          input.setAttribute("aria-label", x[1] + ": " + who);
          label.appendChild(input);
          row.appendChild(label);
        });
        box.appendChild(row);
      });
  }

  function drawSet() {
    var box = $("sset");
    box.textContent = "";
    for (var a = 0; a <= form.deal.max_pip; a++) {
      var row = B.el("div", "nrow", null);
      for (var b = a; b <= form.deal.max_pip; b++) { row.appendChild(setTile(a, b)); }
      box.appendChild(row);
    }
  }

  function setTile(a, b) {
    var now = holder(a, b);
    var button = B.el("button", "ntile" + (now !== null ? " held" : ""), null);
    button.type = "button";
    button.setAttribute("data-tile", "[" + a + "-" + b + "]");
    var named = "[" + a + "-" + b + "]";
    button.title = now === "line" ? _("{tile} is on the line", {tile: named}) :
      now !== null ? _("{tile} is in {player}'s hand", {tile: named, player: form.names[now]}) :
      form.place === "line" ? _("put {tile} on the line", {tile: named}) :
      _("put {tile} in {player}'s hand", {tile: named, player: form.names[form.place]});
    button.appendChild(tile([a, b]));
    button.appendChild(B.el("span", "nholder", now === null ? "" : now === "line" ? _("line") : form.names[now]));
    button.addEventListener("click", function () {
      var was = holder(a, b);
      var out = function (t) { return !same(t, a, b); };
      if (was === "line") { form.line = form.line.filter(out); }
      else if (was !== null) { form.hands[was] = form.hands[was].filter(out); }
      if (was !== form.place) {
        if (form.place === "line") {
          if (form.side === "left") { form.line.unshift([a, b]); } else { form.line.push([a, b]); }
        } else {
          form.hands[form.place].push([a, b]);
          form.hands[form.place].sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
        }
      }
      draw();
    });
    return button;
  }

  function number(input) {
    var v = input.value.trim();
    return v === "" ? null : Math.max(0, parseInt(v, 10) || 0);
  }

  function perSide(kind) {
    var inputs = document.querySelectorAll("#sscores [data-scores='" + kind + "'] input");
    if (!inputs.length) { return null; }
    var values = Array.prototype.map.call(inputs, number);
    return values.some(function (v) { return v !== null; }) ? values : null;
  }

  function table() {
    if (!byCounts()) { return {line: form.line}; }
    if (form.ends[0] === null && form.ends[1] === null) { return null; }
    var counts = [];
    Array.prototype.forEach.call(document.querySelectorAll("#scountnumbers input"), function (input) {
      var c = number(input);
      if (c !== null && c > 0) { counts.push([Number(input.getAttribute("data-number")), c]); }
    });
    return {ends: form.ends, counts: counts, on_table: number($("sontable"))};
  }

  function write(ev) {
    ev.preventDefault();
    if (byCounts() && (form.ends[0] === null) !== (form.ends[1] === null)) {
      error(_("Click both open ends of the table (or neither, for a table with nothing on it)."));
      return;
    }
    var body = {
      variant: $("svariant").value || null, rules: rules(), players: form.names, event: $("sevent").value,
      problem: $("sproblem").value, table: table(),
      hands: form.hands.map(function (h, k) { return {tiles: h, unknown: form.unknown[k]}; }),
      to_move: form.names[form.toMove], lacks: form.lacks, boneyard: number($("sboneyard")),
      points: perSide("points"), match_score: perSide("score")
    };
    B.writeRecord("setup", body, $("swrite"), $("setupform"), error);
  }

  $("setuprecord").addEventListener("click", function () {
    $("newform").hidden = true;
    $("setupform").hidden = false;
    B.tab("text");
    refresh().then(function () { $("setupform").scrollIntoView(); });
  });
  $("newrecord").addEventListener("click", function () { $("setupform").hidden = true; });
  $("sclose").addEventListener("click", function () { $("setupform").hidden = true; });
  $("svariant").addEventListener("change", refresh);
  $("srules").addEventListener("change", refresh);
  $("scounts").addEventListener("change", draw);
  $("setupform").addEventListener("submit", write);
}());
