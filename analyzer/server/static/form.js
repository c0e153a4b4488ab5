// The new-record form: variant and rules, players, and each hand entered by clicking tiles (a hand may be
// unknown or partly known). The server writes the record in the notation and validates it; this script
// only gathers the choices (the set's size and the seats come from the server too).
import {_} from "./i18n.js";
import {tile} from "./tiles.js";  // the one drawing of a tile (the report's too)
(function () {
  "use strict";

  var B = window.DominoBoard;
  var $ = function (id) { return document.getElementById(id); };
  var form = {deal: null, names: [], hands: [], who: 0};

  function rules() { return B.rules($("nrules").value); }

  function error(words) {
    $("nerror").hidden = !words;
    $("nerror").textContent = words || "";
  }

  // the deal of the chosen variant and rules, from the server; the seats and hands follow it
  function refresh() {
    return B.deal($("nvariant"), $("nrules"), error).then(function (deal) {
      if (!deal) { return; }
      var seats = B.newSeats(form.deal, deal);
      form.deal = deal;
      if (seats) {
        form.names = seats;
        form.hands = form.names.map(function () { return []; });
        form.who = 0;
      }
      $("nstarterbox").hidden = !deal.draws;
      draw();
    });
  }

  function draw() {
    var box = $("nplayers");
    box.textContent = "";
    form.names.forEach(function (name, k) {
      var row = B.el("div", "nplayer" + (k === form.who ? " chosen" : ""));
      row.setAttribute("data-seat", k);
      var pick = B.el("input", "", null);
      pick.type = "radio";
      pick.name = "nwho";
      pick.checked = k === form.who;
      pick.setAttribute("aria-label", _("enter the hand of player {n}", {n: k + 1}));
      pick.addEventListener("change", function () { form.who = k; draw(); });
      var field = B.el("input", "nname", null);
      field.type = "text";
      field.value = name;
      field.size = 16;
      field.setAttribute("aria-label", _("name of player {n}", {n: k + 1}));
      field.addEventListener("change", function () { form.names[k] = field.value.trim(); leads(); });
      field.addEventListener("focus", function () { if (form.who !== k) { form.who = k; pick.checked = true; mark(); } });
      row.appendChild(pick);
      row.appendChild(field);
      var held = B.el("span", "ntiles", null);
      form.hands[k].forEach(function (t) { held.appendChild(tile(t)); });
      var known = form.hands[k].length;
      held.appendChild(B.el("span", "ncount", known ? _("{known} of {size} known", {known: known, size: form.deal.hand_size}) : _("not known (?)")));
      row.appendChild(held);
      box.appendChild(row);
    });
    leads();
    drawSet();
  }

  function mark() {
    Array.prototype.forEach.call($("nplayers").children, function (row, k) {
      row.classList.toggle("chosen", k === form.who);
    });
  }

  function leads() {
    var box = $("nlead");
    var was = box.value;
    while (box.options.length > 1) { box.remove(1); }
    form.names.forEach(function (name) {
      var o = B.el("option", "", name);
      o.value = name;
      box.appendChild(o);
    });
    box.value = form.names.indexOf(was) >= 0 ? was : "";
  }

  function holder(a, b) {
    for (var k = 0; k < form.hands.length; k++) {
      for (var j = 0; j < form.hands[k].length; j++) {
        if (form.hands[k][j][0] === a && form.hands[k][j][1] === b) { return k; }
      }
    }
    return -1;
  }

  function drawSet() {
    var box = $("nset");
    box.textContent = "";
    for (var a = 0; a <= form.deal.max_pip; a++) {        // a row for each low half, as a set is laid out
      var row = B.el("div", "nrow", null);
      for (var b = a; b <= form.deal.max_pip; b++) {
        row.appendChild(setTile(a, b));
      }
      box.appendChild(row);
    }
  }

  function setTile(a, b) {
    var k = holder(a, b);
    var button = B.el("button", "ntile" + (k >= 0 ? " held" : ""), null);
    button.type = "button";
    button.setAttribute("data-tile", "[" + a + "-" + b + "]");
    button.title = k >= 0 ? _("{tile} is in {player}'s hand", {tile: "[" + a + "-" + b + "]", player: form.names[k]}) :
      _("give {tile} to the chosen player", {tile: "[" + a + "-" + b + "]"});
    button.appendChild(tile([a, b]));
    button.appendChild(B.el("span", "nholder", k >= 0 ? form.names[k] : ""));
    button.addEventListener("click", function () {
      var now = holder(a, b);
      if (now >= 0) {
        form.hands[now] = form.hands[now].filter(function (t) { return t[0] !== a || t[1] !== b; });
      }
      if (now !== form.who) {
        form.hands[form.who].push([a, b]);
        form.hands[form.who].sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
      }
      draw();
    });
    return button;
  }

  function write(ev) {
    ev.preventDefault();
    var body = {
      variant: $("nvariant").value || null, rules: rules(), players: form.names, event: $("nevent").value,
      lead: $("nlead").value || null,
      hands: form.hands.map(function (h) { return h.length ? {tiles: h} : null; })
    };
    // the starter tile as typed ("4-5", "[4-5]", "45"): its two numbers; the server judges the tile
    var typed = $("nstarter").value.trim();
    if (typed && !$("nstarterbox").hidden) {
      var halves = /^\[?\s*(\d{1,2})\s*[-|: ]?\s*(\d{1,2})\s*\]?$/.exec(typed.length === 2 ? typed[0] + "-" + typed[1] : typed);
      if (!halves) { error(_("the starter tile: type it as 4-5")); return; }
      body.starter = [Number(halves[1]), Number(halves[2])];
    }
    B.writeRecord("new", body, $("nwrite"), $("newform"), error).then(function (r) {
      var renamed = r && r.renamed ? Object.keys(r.renamed) : [];
      if (renamed.length) {
        B.said(_("The names are written as the notation names players: {names}.", {names: renamed.map(function (n) {
          return _("{name} as {written}", {name: n, written: r.renamed[n]}); }).join(", ")}));
      }
    });
  }

  $("newrecord").addEventListener("click", function () {
    $("newform").hidden = false;
    refresh().then(function () { $("nvariant").focus(); });
  });
  $("nclose").addEventListener("click", function () { $("newform").hidden = true; });
  $("nvariant").addEventListener("change", refresh);
  $("nrules").addEventListener("change", refresh);
  $("newform").addEventListener("submit", write);
}());
