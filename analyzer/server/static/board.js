// The analysis board's page: the record's text beside the board. Everything it shows about the rules
// (diagnostics, the player to move, his legal moves, values, repairs) comes from the server's library;
// this script never judges a move. Every text from a record goes in through textContent, never as HTML.
import {_, ngettext, orList} from "./i18n.js";
import {tile, svgNode as mk} from "./tiles.js";
import {api} from "./api.js";
import {$, BUDGET, MAX_BUDGET, state, text, PAGE, actions, boardText, request, status, debounce, el, signed,
        signedFixed} from "./state.js";
import {drawValues, drawReview, jumpCritical, jumpNextGraded, bestAt} from "./review.js";
import {unsaved, fileState, keep, kept, allKept, showNew, notice, openFile, save, saveAs, listFiles} from "./files.js";

// the board's own moves the other modules call back (state.js: actions)
Object.assign(actions, {showPosition: showPosition, setText: setText, forget: forget, changed: changed, analyse: analyse,
                        drawPosition: drawPosition});

// ---- a phone's tabs: the board (first), the text, the values, each brought into sight ---------------------
var SECTIONS = {board: ".board", text: ".editor", values: "#values"};

function tab(name, go) {
  document.body.setAttribute("data-tab", name);
  Array.prototype.forEach.call(document.querySelectorAll(".tabs button"), function (b) {
    b.setAttribute("aria-selected", String(b.getAttribute("data-tab") === name));
  });
  var target = document.querySelector(SECTIONS[name]);
  if (go && phone() && target && !target.hidden) {
    window.scrollTo(0, target.getBoundingClientRect().top + window.scrollY - document.querySelector(".tabs").offsetHeight);
  }
}

function phone() { return getComputedStyle(document.querySelector(".tabs")).display !== "none"; }

Array.prototype.forEach.call(document.querySelectorAll(".tabs button"), function (b) {
  b.addEventListener("click", function () { tab(b.getAttribute("data-tab"), true); });
});

// ---- the gutter and the diagnostics ------------------------------------------------------------
function drawGutter() {
  var lines = text.value.split("\n").length;
  var gutter = $("gutter");
  var marks = {};
  ((state.validation && state.validation.games) || []).forEach(function (g) {
    g.diagnostics.forEach(function (d) {
      if (d.line && (d.severity === "error" || d.severity === "warning")) {
        var was = marks[d.line];
        if (!was || d.severity === "error") { marks[d.line] = d.severity; }
      }
    });
  });
  while (gutter.children.length > lines) { gutter.removeChild(gutter.lastChild); }
  while (gutter.children.length < lines) { gutter.appendChild(el("div", "ln", String(gutter.children.length + 1))); }
  Array.prototype.forEach.call(gutter.children, function (row, k) {
    row.className = "ln" + (marks[k + 1] ? " " + marks[k + 1] : "");
  });
  gutter.scrollTop = text.scrollTop;
}

function goTo(line, column) {
  tab("text");
  var rows = text.value.split("\n");
  var at = 0;
  for (var k = 0; k < line - 1 && k < rows.length; k++) { at += rows[k].length + 1; }
  at += Math.max(0, (column || 1) - 1);
  text.focus();
  text.setSelectionRange(at, at);
  var lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 18;
  text.scrollTop = Math.max(0, (line - 3) * lineHeight);
  positionAtCursor();
}

function drawDiagnostics() {
  var list = $("diagnostics");
  list.textContent = "";
  var likely = null;
  var v = state.validation;
  if (!v) { return; }
  v.games.forEach(function (g, k) {
    if (g.likely && likely === null) { likely = {game: k, text: g.likely}; }
    g.diagnostics.forEach(function (d) {
      var item = el("li", "diag " + d.severity + (d.follow_on ? " follow" : ""));
      item.setAttribute("data-line", d.line || "");
      item.setAttribute("data-code", d.code);
      var where = el("span", "at", d.line ? _("line {line}", {line: d.line + (d.column ? ":" + d.column : "")}) : _("record"));
      item.appendChild(where);
      item.appendChild(el("span", "code", d.severity + "[" + d.code + "]"));
      item.appendChild(el("span", "msg", d.message));
      if (d.follow_on && d.follows) { item.appendChild(el("span", "follows", _("follows from the slip at {where}", {where: d.follows}))); }
      if (d.line) {
        item.tabIndex = 0;
        item.addEventListener("click", function () { goTo(d.line, d.column); });
        item.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { goTo(d.line, d.column); } });
      }
      list.appendChild(item);
    });
  });
  var box = $("likely");
  box.hidden = likely === null;
  if (likely) {
    box.querySelector(".what").textContent = (v.games.length > 1 ? _("game {n}: {text}", {n: likely.game + 1, text: likely.text}) : likely.text);
    box.setAttribute("data-game", likely.game);
  }
  var s = v.summary;
  status(s.records && s.games ? (s.invalid ? _("invalid: {errors}", {errors: Object.keys(s.errors).map(function (c) {
    return c + " " + s.errors[c]; }).join(", ")}) : _("valid")) : "");
}

// ---- the board -------------------------------------------------------------------------------
function moveLabel(m) {
  if (m.kind === "pass") { return _("pass"); }
  if (m.kind === "draw") { return _("draws"); }
  var where = m.arm ? _("arm {arm}", {arm: m.arm}) : (m.end !== null && m.end !== undefined ? _("on {end}", {end: m.end}) :
    _("lead"));
  return where + (m.claim ? " +" + m.claim : "");
}

// The table as the server draws it: the SVG of ``domino diagram`` (the report's saved diagram too, one
// drawing), the line or the layout with its arms, the last tile marked. Shown as an image from a data:
// address: a picture, never markup in the page, so nothing in it can run or style the page.
var TABLE_SCALE = 0.6;     // the least the table's drawing is shrunk to: a tile 24 pixels long

function drawTable(p) {
  var box = $("table");
  box.textContent = "";
  var img = el("img", "layout");
  img.alt = !p.board.line.length ? _("the table: nothing played yet") : p.board.last ?
    ngettext("the table: {n} tile laid, the last {tile}", "the table: {n} tiles laid, the last {tile}", p.board.line.length,
             {tile: "[" + p.board.last[0] + "-" + p.board.last[1] + "]"}) :
    ngettext("the table: {n} tile laid", "the table: {n} tiles laid", p.board.line.length);
  img.addEventListener("load", function () {
    // a wide layout on a phone: its tiles kept readable (at least TABLE_SCALE of their drawn size) in a
    // table that scrolls sideways, its middle in sight, rather than shrunk to a thumbnail
    var least = Math.ceil(img.naturalWidth * TABLE_SCALE);
    if (img.getBoundingClientRect().width < least) {
      img.style.maxWidth = "none";
      img.style.width = least + "px";
      box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
    }
  });
  if (p.best) { img.alt += _("; drawn with the best move, {move}, laid and marked (not played)", {move: p.best}); }
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(p.drawing);
  box.appendChild(img);
  $("ends").textContent = _("open ends: {ends}", {ends: p.ends}) +
    (p.best ? " · " + _("dashed green: the best move, {move} (not played)", {move: p.best}) : "");
}

function drawHands(p) {
  var box = $("hands");
  box.textContent = "";
  p.players.forEach(function (name, s) {
    var h = el("div", "hand" + ((p.leaders ? p.leaders.indexOf(name) >= 0 : name === p.turn) ? " tomove" : ""));
    h.setAttribute("data-player", name);
    var head = el("div", "who");
    head.appendChild(el("strong", "", name));
    head.appendChild(el("span", "count", ngettext("{n} tile", "{n} tiles", p.board.counts[s]) +
      (p.board.pips[s] !== null ? ", " + ngettext("{n} pip", "{n} pips", p.board.pips[s]) : "")));
    if (p.board.voids[s] && p.board.voids[s].length) {
      head.appendChild(el("span", "voids", _("lacks {numbers}", {numbers: p.board.voids[s].join(" ")})));
    }
    h.appendChild(head);
    var tiles = el("div", "tiles");
    p.board.hands[s].forEach(function (t) { tiles.appendChild(tile(t)); });
    for (var k = 0; k < p.hidden[s]; k++) { tiles.appendChild(el("span", "unknown", "?")); }
    h.appendChild(tiles);
    box.appendChild(h);
  });
}

function clickMode() {
  var chosen = document.querySelector("input[name=clickmode]:checked");
  return chosen ? chosen.value : "record";
}

function drawMoves(p) {
  var box = $("legal");
  box.textContent = "";
  $("other").hidden = true;
  var head = $("tomove");
  // in a variation a click goes on with it; else as the choice above the moves says
  var playing = !!p.variation || clickMode() === "variation";
  $("clickmode").hidden = !p.turn || !!p.variation;
  if (p.over) {
    head.textContent = p.over.termination === "domino" ? _("The hand is over: {player} went out", {player: p.over.seat}) :
      _("The hand is over: {player} played last (blocked)", {player: p.over.seat});
    // the result as the rules reckon it, written in one click in the record's form (the server writes it):
    // a book table's own closing line in the sheet's words, else the Result tag
    if (p.result && !p.written && !playing) {
      var words = p.closing ? p.closing.join(" ") : p.result;
      var write = el("button", "result", _("Write the result: {result}", {result: words}));
      write.type = "button";
      write.id = "writeresult";
      write.title = p.closing ? _("Close the table with its closing line ({result})", {result: p.result}) :
        p.stated ? _("The record states “{stated}”: write the rules' result instead", {stated: p.stated}) :
        _("Add the Result tag to the record");
      write.addEventListener("click", function () {
        api("result", request({game: p.game})).then(function (r) {
          if (!r.ok) { status(r.data.error, true); return; }
          setText(r.data.text, undefined, "result", _("the result {result}", {result: r.data.result}));
          said(r.data.closing ? _("The table is closed with its closing line: {line}", {line: r.data.closing.join(" ")}) :
            _("The result {result} is written into the record's Result tag.", {result: r.data.result}));
        });
      });
      box.appendChild(write);
    }
    // a sheet whose hidden tiles leave the result open: each result its deals give, the one the sheet shows
    // written in one click (the server checks it is one of them)
    if (p.results && p.results.length && !playing) {
      box.appendChild(el("p", "note", _("The tiles not shown decide the result: write the one the sheet shows.")));
      p.results.forEach(function (words) {
        var pick = el("button", "result", _("Write the result: {result}", {result: words}));
        pick.type = "button";
        pick.setAttribute("data-result", words);
        pick.title = _("Add the Result tag {result} (some deal the sheet's moves allow ends so)", {result: words});
        pick.addEventListener("click", function () {
          api("result", request({game: p.game, result: words})).then(function (r) {
            if (!r.ok) { status(r.data.error, true); return; }
            setText(r.data.text, undefined, "result", _("the result {result}", {result: r.data.result}));
            said(_("The result {result} is written into the record's Result tag.", {result: r.data.result}));
          });
        });
        box.appendChild(pick);
      });
    }
    // the last game of the text over: the next game's header as the match and the variant decide it, written
    // by the server (with the result first, where the rules reckon it and the record does not state it yet)
    if (p.at_end && p.game === p.games - 1 && !playing && state.problem === null) {
      var next = el("button", "result", _("Next game"));
      next.type = "button";
      next.id = "nextgame";
      next.title = _("Write the next game's header: its number, the players, who leads by the rules, a ? hand a player");
      next.addEventListener("click", nextGame);
      box.appendChild(next);
    }
    return;
  }
  $("other").hidden = !(p.turn && p.at_end && !playing);
  if (!p.turn) { head.textContent = ""; return; }
  var at = insertAt(p);
  // several players may lead (the rules name the holder of a tile the record does not show): the moves of each
  var who = p.leaders ? _("{players} may lead (whoever holds the tile the rules name)", {players: orList(p.leaders)}) :
    _("{player} to move", {player: p.turn});
  head.textContent = playing ? _("{who}: click a move to play it in a variation (the record stays as it is)", {who: who}) :
    at === null ? _("{who}: click a move to write it into the record", {who: who}) :
    _("{who}: click a move to put it into the record before move {n}", {who: who, n: at + 1});
  if (state.problem !== null) {        // a problem: a click answers it (problems.js)
    $("clickmode").hidden = true;
    $("other").hidden = true;
    head.textContent = _("{who}: click the move you would play", {who: who});
  } else if (!playing && at !== null) {
    box.appendChild(el("p", "note", ngettext("The {n} move written after it will then be checked against it.",
      "The {n} moves written after it will then be checked against it.", p.steps - at)));
  }
  var opener = null, leader = null;
  // the mover's plays, then the opener's extra tile (it follows his double at once, as on the sheet), then
  // the mover's pass and draws
  var plays = p.legal.filter(function (m) { return m.kind === "play" && !m.extra; });
  var extras = p.legal.filter(function (m) { return m.extra; });
  var rest = p.legal.filter(function (m) { return m.kind !== "play" && !m.extra; });
  plays.concat(extras, extras.length && rest.length ? [null] : [], rest).forEach(function (m) {
    if (m === null) {
      box.appendChild(el("p", "note", _("or {player}:", {player: p.turn})));
      return;
    }
    if (p.leaders && !m.extra && m.player !== leader) {
      leader = m.player;               // (the server lists each leader's moves together, seat by seat)
      box.appendChild(el("p", "note leader", _("{player} leads:", {player: leader})));
    }
    if (m.extra && opener === null) {
      // the draw game's opener may add a matching tile to his lead and move again (004): the server offers it
      opener = m.player;
      var note = el("p", "note extra", _("or {player}, who opened, adds a matching tile to his lead (he moves again):", {player: opener}));
      note.id = "extranote";
      box.appendChild(note);
    }
    var b = el("button", "move " + m.kind + (m.extra ? " extra" : ""));
    b.type = "button";
    b.setAttribute("data-move", m.move);
    b.setAttribute("data-player", m.player);
    b.title = m.player + " " + m.move + (m.claim ? " +" + m.claim : "");
    if (m.tile) { b.appendChild(tile(m.tile)); }
    b.appendChild(el("span", "", m.kind === "draw" ? _("draws {tile}", {tile: "[" + m.tile[0] + "-" + m.tile[1] + "]"}) : moveLabel(m)));
    b.addEventListener("click", function () { act(m); });
    box.appendChild(b);
  });
}

// a move offered by the server, clicked or typed: played in a variation, or written into the record
function act(m, typed) {
  var p = state.position;
  if (hooks.move && hooks.move(m)) { return; }     // a problem's answer (problems.js)
  var playing = !!p.variation || clickMode() === "variation";
  if (playing) { play(m); } else { enter(m, typed); }
}

// Keyboard entry: "46" or "4-6" picks the offered play of [4-6] ("46@6" or "4-6 6" names the end where it
// fits two), "d46" its draw, "p" the pass. Only the moves the server offered are matched: nothing is judged.
function keyEntry(words) {
  var p = state.position;
  if (!p || !p.legal.length) { return; }
  var w = words.trim().toLowerCase().replace(/^\[|\]/g, "");
  var hits = [], what = words.trim();
  var call = /^m(?:uggins)?\s*(\d{1,9})$/.exec(w);
  if (call && p.turn) {
    // a Muggins call (All Fives): the player to move takes the points the player before him did not claim; the
    // server writes it, and the validation says whether the rules allow it
    $("keymove").value = "";
    enter({move: "muggins " + Number(call[1]), player: p.turn, claim: null}, true);
    return;
  }
  if (w === "p" || w === "pass") {
    hits = p.legal.filter(function (m) { return m.kind === "pass"; });
    what = _("a pass");
  } else {
    var k = /^(d(?:raws?)?\s*)?\[?(\d{1,2})(?:\s*-\s*|(?=\d))(\d{1,2})\]?(?:\s*(@|>|\s)\s*(\d{1,2}))?$/.exec(w);
    if (!k) { said(_("Type a tile as 46 or 4-6 (46@6 for the end), d46 for a draw, p for a pass, m10 for a Muggins call of 10.")); return; }
    var a = Number(k[2]), b = Number(k[3]), lo = Math.min(a, b), hi = Math.max(a, b);
    var kind = k[1] ? "draw" : "play";
    what = kind === "draw" ? _("draws {tile}", {tile: "[" + lo + "-" + hi + "]"}) : "[" + lo + "-" + hi + "]";
    hits = p.legal.filter(function (m) {
      return m.kind === kind && m.tile && m.tile[0] === lo && m.tile[1] === hi;
    });
    // the player to move's play first; the opener's extra tile (004) where only he could play it
    var own = hits.filter(function (m) { return !m.extra; });
    if (own.length) { hits = own; }
    if (k[5] !== undefined && hits.length > 1) {
      var n = Number(k[5]);
      var named = hits.filter(function (m) { return k[4] === ">" ? m.arm === n : m.end === n; });
      if (!named.length) { named = hits.filter(function (m) { return m.arm === n || m.end === n; }); }
      hits = named;
    }
  }
  var buttons = $("legal").querySelectorAll("button.move");
  Array.prototype.forEach.call(buttons, function (b) {
    b.classList.toggle("hit", hits.length > 1 && hits.some(function (m) {
      return m.move === b.getAttribute("data-move") && m.player === b.getAttribute("data-player");
    }));
  });
  var players = hits.map(function (m) { return m.player; }).filter(function (n, k, all) { return all.indexOf(n) === k; });
  if (hits.length === 1) {
    $("keymove").value = "";
    act(hits[0], true);
  } else if (players.length > 1) {
    said(_("{move} may be led by {players}: click the move of the player who holds it", {move: what, players: orList(players)}));
  } else if (hits.length > 1) {
    said(_("{move} goes on {ends}: add the end ({typed}), or click one", {move: what,
      ends: orList(hits.map(function (m) { return m.arm ? _("arm {arm}", {arm: m.arm}) : _("the {end}", {end: m.end}); })),
      typed: orList(hits.map(function (m) { return w.replace(/[@>\s]\d+$/, "") + (m.arm ? ">" + m.arm : "@" + m.end); }))}));
  } else {
    said(_("{move} is not among the moves {player} could make here.", {move: what, player: p.turn}));
  }
}

function drawPosition() {
  var p = state.position;
  if (!p) { return; }
  state.game = p.game;
  state.step = p.step;
  var info = (p.games > 1 ? _("game {n} of {games}", {n: p.game + 1, games: p.games}) + " · " : "") +
    (p.step === 0 ? (p.setup ? _("the position set up of {steps}", {steps: p.steps}) : _("the deal of {steps}", {steps: p.steps})) :
      _("after move {n} of {steps}", {n: p.step, steps: p.steps}));
  if (p.step > 0 && p.moves[p.step - 1]) { info += " (" + p.moves[p.step - 1].player + " " + p.moves[p.step - 1].move + ")"; }
  if (p.variation) {
    var v = p.variation;
    // a variation played on the board, or an alternative's line from the analysis
    info = (state.mine ? (p.step === 0 ? _("variation from the deal") : _("variation from move {n}", {n: p.step})) :
      _("line of {move}", {move: v.line[0]})) + ": " + (v.along === 0 ? _("before it") :
      _("move {n} of {moves}", {n: v.along, moves: v.line.length}) + " (" + v.line[v.along - 1] + ")");
  }
  $("back").hidden = !p.variation;
  var v = p.variation;
  $("variation").hidden = !v || v.along === 0;
  if (v && v.along) {
    setWords($("variation").querySelector(".what"), (p.step === 0 ? _("Variation from the deal (not in the record): {moves}", {moves: v.line.slice(0, v.along).join(", ")}) :
      _("Variation from move {n} (not in the record): {moves}", {n: p.step, moves: v.line.slice(0, v.along).join(", ")})));
  }
  setWords($("stepinfo"), info);
  $("stopped").hidden = !p.stopped;
  $("stopped").textContent = p.stopped || "";
  drawTable(p);
  drawHands(p);
  // a board drawn anew keeps the focus on its moves where it was on them (or was asked there: a new record)
  var onMoves = $("legal").contains(document.activeElement) || state.focusMoves;
  drawMoves(p);
  var first = onMoves && $("legal").querySelector("button");
  if (first && !$("legal").contains(document.activeElement)) { first.focus({preventScroll: true}); }
  state.focusMoves = false;
  drawValues();
  drawReview();
}

// Set ``text`` as the element's text, each tile with what clings to it ("[0-0]@0") kept on one line: a
// narrow screen breaks between moves, never inside one (text nodes and spans only, never markup).
function setWords(el, text) {
  el.textContent = "";
  var tile = /\S*\[\d+-\d+\]\S*/g, at = 0, m;
  while ((m = tile.exec(text)) !== null) {
    el.appendChild(document.createTextNode(text.slice(at, m.index)));
    var span = document.createElement("span");
    span.className = "nobreak";
    span.textContent = m[0];
    el.appendChild(span);
    at = m.index + m[0].length;
  }
  el.appendChild(document.createTextNode(text.slice(at)));
}

function showPosition(body) {
  var seq = ++state.seq;
  // the board last asked for by its game and step (null: by the cursor or along a line), until it is drawn
  state.pendingStep = body.step !== undefined && !body.line ? {game: body.game || 0, step: body.step} : null;
  if (!body.line) { state.mine = false; }
  if (body.step === undefined || body.line) { state.asked = null; }
  // the analysis's best move there, drawn on the table by the server (one drawing: domino diagram's)
  var best = !body.line && body.step !== undefined ? bestAt(body.game || 0, body.step) : null;
  if (best) { body.best = best; }
  return api("position", request(body)).then(function (r) {
    if (seq !== state.seq) { return; }
    state.asked = null;
    state.pendingStep = null;
    // a board asked by the cursor: where the analysis names a best there, asked again with it
    if (r.ok && body.step === undefined && !body.line && bestAt(r.data.game, r.data.step)) {
      return showPosition({game: r.data.game, step: r.data.step});
    }
    if (!r.ok) {
      state.position = null;
      $("stepinfo").textContent = "";
      $("tomove").textContent = r.data.error;
      ["table", "hands", "legal"].forEach(function (id) { $(id).textContent = ""; });
      $("ends").textContent = "";
      return;
    }
    // the same board again (the next board was asked at once after a move, and again as the cursor
    // settled): nothing is redrawn, so a click on a move is never lost under a redraw
    var same = state.position && JSON.stringify(state.position) === JSON.stringify(r.data);
    state.position = r.data;
    if (!same) { drawPosition(); }
  });
}

function cursorAt() {
  var before = text.value.slice(0, text.selectionStart).split("\n");
  return {line: before.length, column: before[before.length - 1].length + 1};
}

function positionAtCursor() {
  // (a problem open: the board stands on its position, not on the record's text under the cursor)
  if (state.problem !== null) { return showPosition({game: 0}); }
  return showPosition({cursor: cursorAt()});
}

function step(delta) {
  if (!state.position) { return; }
  var p = state.position;
  if (p.variation) {
    var along = Math.max(0, Math.min(p.variation.line.length, p.variation.along + delta));
    showPosition({game: p.game, step: p.step, line: p.variation.line, along: along});
    return;
  }
  // keys pressed faster than the board answers go on from the step last asked for, not the one drawn
  if (state.asked && state.asked.game !== p.game) { return; }     // another game asked: its board first
  var from = state.asked ? state.asked.step : p.step;
  // past a game's end the next game's deal, before its deal the game before's end: a match stepped through
  // with the arrows (Home and End stay in the game)
  if (delta === 1 && from >= p.steps && p.game < p.games - 1) {
    state.asked = {game: p.game + 1, step: 0};
    showPosition({game: p.game + 1, step: 0});
    return;
  }
  if (delta === -1 && from <= 0 && p.game > 0) {
    state.asked = {game: p.game - 1, step: null};
    showPosition({game: p.game - 1, step: null});
    return;
  }
  var k = Math.max(0, Math.min(p.steps, from + delta));
  state.asked = {game: p.game, step: k};
  showPosition({game: p.game, step: k});
}

// ---- entering, repairing -----------------------------------------------------------------------
// ---- undo and redo: the page keeps its own history (assigning the textarea's value drops the browser's) ----
var hist = {undo: [], redo: [], last: {value: "", start: 0, end: 0}, kind: null, typed: 0};

function snap() { return {value: text.value, start: text.selectionStart, end: text.selectionEnd}; }

function remember(kind, label) {
  if (hist.last.value === text.value && kind === "typing") { return; }
  hist.undo.push({snap: hist.last, kind: kind, label: label || ""});
  if (hist.undo.length > 1000) { hist.undo.shift(); }
  hist.redo = [];
}

function typedChange() {
  var now = Date.now();
  // keystrokes close together are one change; a pause, or another kind of change between, begins the next
  if (hist.kind !== "typing" || now - hist.typed > 1000) { remember("typing"); }
  hist.kind = "typing";
  hist.typed = now;
  hist.last = snap();
  drawHistory();
}

function setText(value, caret, kind, label) {
  remember(kind || "edit", label);
  text.value = value;
  if (caret !== undefined) { text.setSelectionRange(caret, caret); }
  hist.kind = kind || "edit";
  hist.last = snap();
  drawHistory();
  changed(true);
}

function restore(s) {
  text.value = s.value;
  text.setSelectionRange(Math.min(s.start, s.value.length), Math.min(s.end, s.value.length));
  hist.kind = null;
  hist.last = snap();
  drawHistory();
  said("");
  changed(true);
}

// a change taken from one history (undo: the changes made; redo: the ones undone) onto the other
function shift(from, to, done) {
  var item = from.pop();
  if (!item) { return; }
  to.push({snap: snap(), kind: item.kind, label: item.label});
  restore(item.snap);
  status(done + (item.label ? ": " + item.label : ""));
}

function undo() { shift(hist.undo, hist.redo, _("undone")); }

function redo() { shift(hist.redo, hist.undo, _("redone")); }

// a record opened or chosen: its history begins there
function forget() {
  hist.undo = []; hist.redo = []; hist.kind = null; hist.last = snap();
  drawHistory();
}

function drawHistory() {
  $("undo").disabled = !hist.undo.length;
  $("redo").disabled = !hist.redo.length;
  var top = hist.undo[hist.undo.length - 1];
  var back = $("takeback");
  back.hidden = !(top && top.kind === "move");
  if (top && top.kind === "move") { back.textContent = _("Take back {move}", {move: top.label}); }
}

function said(words) {
  $("entered").hidden = !words;
  $("entered").textContent = words || "";
}

// where a click puts a move: before the written move the board stands at (where the record breaks the
// rules, the board stands before the broken move), or null: after the game's last move
function insertAt(p) {
  var at = p.shown < p.step ? p.shown : p.step;
  return at < p.steps ? at : null;
}

function enter(m, typed) {
  var p = state.position;
  var body = {game: p.game, move: m.move + (m.claim ? " +" + m.claim : ""), player: m.player};
  var at = insertAt(p);
  if (at !== null) { body.step = at; }        // before the moves written after it
  // the focus and the scroll stay where they are (a phone's keyboard is not brought up by a text focused,
  // and the moves stay in sight); a click's button, drawn anew, hands its focus to the next board's moves
  var clicked = !typed && document.activeElement && $("legal").contains(document.activeElement);
  api("enter", request(body)).then(function (r) {
    if (!r.ok) { status(r.data.error, true); return; }
    var x = window.scrollX, y = window.scrollY;
    setText(r.data.text, r.data.offset, "move", m.player + " " + m.move);
    window.scrollTo(x, y);
    positionAtCursor().then(function () {             // the next board at once (the cursor stands after the move)
      window.scrollTo(x, y);
      var first = clicked && $("legal").querySelector("button");
      if (first && !$("legal").contains(document.activeElement)) { first.focus({preventScroll: true}); }
    });
    if (typed) { $("keymove").focus(); }
    said(r.data.after ? ngettext("{move} is put into the record as move {step}: the {n} move written after it is now checked against it.",
      "{move} is put into the record as move {step}: the {n} moves written after it are now checked against it.", r.data.after,
      {move: m.player + " " + m.move, step: r.data.step + 1}) : "");
  });
}

function nextGame() {
  api("next", request()).then(function (r) {
    if (!r.ok) { status(r.data.error, true); return; }
    var d = r.data;
    setText(d.text, d.offset, "next game", _("game {n}", {n: d.number}));
    positionAtCursor();
    said((d.result ? _("The result {result} is written.", {result: d.result}) + " " : "") +
      (d.match_over ? _("The match is over: game 1 of a new match is begun") : _("Game {n} is begun", {n: d.number})) +
      (d.score ? " " + _("(the match: {score})", {score: d.score}) : "") +
      (d.lead ? ", " + (d.reason ? _("{player} leads ({reason})", {player: d.lead, reason: d.reason}) : _("{player} leads", {player: d.lead})) :
        ", " + _("the rules and the deal say who leads")) + ".");
  });
}

// a variation: moves played on the board from a position, kept apart from the record (the server judges
// each: a move it does not allow there is refused with the reason)
function play(m) {
  var p = state.position;
  var v = p.variation;
  var line = v ? v.line.slice(0, v.along) : [];
  line.push(m.player + " " + m.move);
  state.mine = true;
  showPosition({game: p.game, step: p.step, line: line, along: line.length});
}

function writeVariation() {
  var p = state.position;
  var v = p && p.variation;
  if (!v || !v.along) { return; }
  api("variation", request({game: p.game, step: p.step, line: v.line.slice(0, v.along)})).then(function (r) {
    if (!r.ok) { status(r.data.error, true); return; }
    text.focus();
    setText(r.data.text, r.data.offset, "variation", _("the variation"));
    said(_("The variation is written into the record as the comment {comment} (the notation has no form for a variation).",
      {comment: r.data.comment}));
  });
}

function repair() {
  var game = Number($("likely").getAttribute("data-game") || 0);
  $("repair").disabled = true;
  api("repair", request({game: game})).then(function (r) {
    $("repair").disabled = false;
    if (r.data.superseded) { return; }
    if (!r.ok) { status(r.data.error, true); return; }
    setText(r.data.text, undefined, "repair", _("the repair"));
    status(_("repaired: {what}", {what: r.data.likely.replace(/^likely slips?: /, "")}));
  });
}

// ---- analysis ------------------------------------------------------------------------------------
// Analyse values the position on the board: in the record, the record (where its written moves end and
// the hand goes on, with one of the legal moves added, not to the text, so that every move there is valued);
// in a variation, a record of the game that ends at the variation's position (the server writes it).
function analyse(more) {
  var job = "job-" + Date.now() + "-" + Math.floor(Math.random() * 1e9);
  state.job = job;
  var analysedText = boardText();
  var p = state.position;
  track(job);
  var v = p && p.variation;
  var at = v ? {game: p.game, step: p.step, line: v.line.slice(0, v.along), along: v.along} : null;
  var base = v ? api("branch", request({game: p.game, step: p.step, line: v.line, along: v.along}))
    : Promise.resolve(null);
  var ahead = null;
  base.then(function (branch) {
    if (branch && !branch.ok) { return branch; }
    var source = branch ? branch.data.text : analysedText;
    var game = branch ? 0 : p ? p.game : 0;
    if (at) { at.target = {game: 0, step: branch.data.step}; }
    ahead = p && p.turn && p.legal.length > 1 && (v || p.at_end) ? {game: game, step: at ? at.target.step : p.step} : null;
    var ready = ahead ? api("enter", request({text: source, game: game, move: p.legal[0].move, player: p.legal[0].player}))
      : Promise.resolve(null);
    return ready.then(function (entered) {
      var body = request({job: job, lines: true, text: entered && entered.ok ? entered.data.text : source});
      if ($("fair").checked) { body.fair = true; }
      if (more) { body.max_decision_deals = more; }     // the adaptive budget: more deals only where they are needed
      return api("analyze", body);
    });
  }).then(function (r) {
    if (!untrack(job)) { return; }
    if (!r.ok) { status(r.data.cancelled ? _("analysis cancelled") : r.data.error, !r.data.cancelled); return; }
    state.analysis = r.data;
    state.analysed = analysedText;
    state.analysedAt = at;
    state.budget = more || BUDGET;
    state.ahead = ahead;
    status(_("analysed"));
    drawValues();
    drawReview();
    // the board again, with the analysis's best move drawn on it: the one asked for where a board is still on
    // its way (asked again, now with the best move), else the one drawn
    var p = state.position;
    if (state.pendingStep) { showPosition(state.pendingStep); }
    else if (p && !p.variation && bestAt(p.game, p.step) !== (p.best || null)) { showPosition({game: p.game, step: p.step}); }
    if (phone()) { tab("values", true); }
  });
}

// an analysis (or a problem's answer) running as ``job``: the Cancel button and the progress bar follow it
function track(job) {
  state.job = job;
  $("analyse").disabled = true;
  $("cancel").hidden = false;
  status(_("analysing…"));
  showProgress(job);
}

// the analysis ``job`` answered: false where another has replaced it since (its answer is not shown)
function untrack(job) {
  if (state.job !== job) { return false; }
  state.job = null;
  $("analyse").disabled = false;
  $("cancel").hidden = true;
  $("progressbox").hidden = true;
  return true;
}

// how far the analysis has come, asked of the server until it answers: the moves valued with all hands
// open, then (a fair analysis) the deals solved
function showProgress(job) {
  var bar = $("progress");
  var words = $("progresstext");
  $("progressbox").hidden = false;
  bar.removeAttribute("value");
  words.textContent = "";
  var tick = function () {
    if (state.job !== job) { return; }
    api("progress", {job: job}).then(function (r) {
      if (state.job !== job) { return; }
      var d = r.data;
      if (r.ok && d.running && d.phase === "exact") {
        // a decision valued exactly under hidden information, before any deal: the server's words of it
        bar.removeAttribute("value");
        words.textContent = (d.games > 1 ? _("game {n} of {games}", {n: d.game, games: d.games}) + ": " : "") + d.words;
      } else if (r.ok && d.running && d.total) {
        bar.max = d.total;
        bar.value = d.done;
        // (the total is the most deals there may still be: it only shrinks, as moves are told apart)
        words.textContent = d.phase === "deals" ?
          (d.games > 1 ? _("game {n} of {games}", {n: d.game, games: d.games}) + ": " : "") +
          ngettext("{done} of at most {n} deal solved", "{done} of at most {n} deals solved", d.total, {done: d.done}) :
          ngettext("{done} of {n} move valued", "{done} of {n} moves valued", d.total, {done: d.done});
      }
      setTimeout(tick, 400);
    });
  };
  setTimeout(tick, 250);
}

function cancel() {
  if (state.job) { api("cancel", {job: state.job}); }
}

// ---- wiring ----------------------------------------------------------------------------------------
var validate = debounce(function () {
  var sent = text.value;
  // the validation still running for an older text is dropped (the server ends it: its client went, and
  // this page's next validation replaces it)
  if (state.checking) { state.checking.abort(); }
  var checking = state.checking = new AbortController();
  api("validate", request({job: PAGE}), checking.signal).then(function (r) {
    if (state.checking === checking) { state.checking = null; }
    // (a validation this page's next replaced answers "superseded": the next one's answer is the one to show)
    if (sent !== text.value || checking.signal.aborted || r.data.superseded) { return; }
    if (!r.ok) { status(r.data.error, true); return; }
    state.validation = r.data;
    drawGutter();
    drawDiagnostics();
  });
}, 300);
var follow = debounce(positionAtCursor, 150);

function changed(edited) {
  drawGutter();
  if (edited) { keep(); } else { fileState(unsaved() ? _("unsaved (kept in this browser)") : ""); }
  validate();
  follow();
}

text.addEventListener("input", function () { said(""); typedChange(); changed(true); });
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("takeback").addEventListener("click", undo);
$("saveas").addEventListener("click", saveAs);
$("keyform").addEventListener("submit", function (ev) { ev.preventDefault(); keyEntry($("keymove").value); });
$("writevariation").addEventListener("click", writeVariation);
$("critical").addEventListener("click", jumpCritical);
$("nextgraded").addEventListener("click", function () { jumpNextGraded(false); });
$("prevgraded").addEventListener("click", function () { jumpNextGraded(true); });
Array.prototype.forEach.call(document.querySelectorAll("input[name=clickmode]"), function (radio) {
  radio.addEventListener("change", drawPosition);
});
// the board follows the text cursor when the user moves it (a click, a key that moves it), not when the text
// is only tabbed through: the caret where it was leaves the board where it is
var caret = null;
["click", "keyup"].forEach(function (name) {
  text.addEventListener(name, function () {
    var now = text.selectionStart + ":" + text.selectionEnd;
    if (now === caret && name === "keyup") { return; }
    caret = now;
    follow();
  });
});
text.addEventListener("scroll", function () { $("gutter").scrollTop = text.scrollTop; });
$("variant").addEventListener("change", function () { changed(false); });
$("other").addEventListener("submit", function (ev) {
  // a move the rules may not allow, as a score sheet may show one: written all the same, then flagged
  ev.preventDefault();
  var p = state.position;
  var move = $("othermove").value.trim();
  if (!p || !move) { return; }
  api("enter", request({game: p.game, move: move, player: p.turn})).then(function (r) {
    if (!r.ok) { status(r.data.error, true); return; }
    $("othermove").value = "";
    text.focus();
    setText(r.data.text, r.data.offset, "move", p.turn + " " + move);
  });
});
$("prev").addEventListener("click", function () { step(-1); });
$("back").addEventListener("click", function () {
  var p = state.position;
  if (p) { showPosition({game: p.game, step: p.step}); }
});
$("next").addEventListener("click", function () { step(1); });
$("repair").addEventListener("click", repair);
$("analyse").addEventListener("click", function () { analyse(); });
$("moredeals").addEventListener("click", function () { analyse(Math.min(MAX_BUDGET, (state.budget || BUDGET) * 4)); });
$("cancel").addEventListener("click", cancel);
$("save").addEventListener("click", function () { save(); });
$("files").addEventListener("change", function () {
  keep();
  var path = $("files").value;
  if (path) { openFile(path); } else { showNew(); }
});
document.addEventListener("keydown", function (ev) {
  var k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if ((ev.ctrlKey || ev.metaKey) && k === "s") { ev.preventDefault(); save(); return; }
  // (a radio button or a check box takes no typing: left and right step the board there too)
  var choice = ev.target && ev.target.tagName === "INPUT" && /^(radio|checkbox)$/.test(ev.target.type);
  var field = ev.target && /^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName) && ev.target.id !== "text" && !choice;
  if ((ev.ctrlKey || ev.metaKey) && !field && !ev.altKey) {
    if (k === "z" && !ev.shiftKey) { ev.preventDefault(); undo(); return; }
    if ((k === "z" && ev.shiftKey) || k === "y") { ev.preventDefault(); redo(); return; }
  }
  // the board's keys, as the report has them, where no text is being typed
  if (field || ev.target === text || ev.ctrlKey || ev.metaKey || ev.altKey) {
    if (ev.key === "Escape" && ev.target.id === "keymove") { $("keymove").value = ""; said(""); }
    return;
  }
  if (hooks.key && hooks.key(ev)) { return; }     // a problem's keys (problems.js)
  var p = state.position;
  if (!p) { return; }
  if (ev.key === "ArrowLeft") { ev.preventDefault(); step(-1); }
  else if (ev.key === "ArrowRight") { ev.preventDefault(); step(1); }
  else if (ev.key === "Home") { ev.preventDefault(); step(-1e9); }
  else if (ev.key === "End") { ev.preventDefault(); step(1e9); }
  else if (ev.key === "Escape" && p.variation) { ev.preventDefault(); showPosition({game: p.game, step: p.step}); }
  else if (k === "c" && !ev.shiftKey) { ev.preventDefault(); jumpCritical(); }
  else if (k === "n" && !ev.shiftKey) { ev.preventDefault(); jumpNextGraded(false); }
  else if (k === "p" && !ev.shiftKey) { ev.preventDefault(); jumpNextGraded(true); }
});
window.addEventListener("beforeunload", keep);

// for the forms (form.js, setup.js) and the problem sets (problems.js): the page's own helpers, a new record's
// text put in the editor, and the board put on a problem's position (null: back to the record's text)
var hooks = {move: null, key: null};

// a form's rules as typed: "players=3, target=200" -> {"players": "3", "target": "200"} (the server judges them)
function rulesOf(typed) {
  var out = {};
  typed.split(/[,;]/).forEach(function (part) {
    var kv = part.split("=");
    if (kv.length === 2 && kv[0].trim()) { out[kv[0].trim()] = kv[1].trim(); }
  });
  return out;
}

// a form's deal changed (``was`` null or another seating or set): its seats named A, B, ... again, else null
function newSeats(was, deal) {
  if (was && was.players === deal.players && was.max_pip === deal.max_pip) { return null; }
  var names = [];
  for (var k = 0; k < deal.players; k++) { names.push(String.fromCharCode(65 + k)); }
  return names;
}

// a form's record, written by the server (``route``: new, setup), put in the editor as a new record; what the
// form cannot write is told to ``error`` and the form stays
function writeRecord(route, body, button, form, error) {
  button.disabled = true;
  return api(route, body).then(function (r) {
    button.disabled = false;
    if (!r.ok) { error(r.data.error); return; }
    error("");
    form.hidden = true;
    window.DominoBoard.newRecord(r.data.text);
    return r.data;
  });
}

// the deal of the variant and rules a form chose, from the server (null: refused, told to ``error``); the
// form's list of variants filled the first time
function dealOf(select, rules, error) {
  return api("variants", {variant: select.value || null, rules: rulesOf(rules.value)}).then(function (r) {
    if (!r.ok) { error(r.data.error); return null; }
    error("");
    if (!select.options.length) {
      r.data.variants.forEach(function (v) {
        var o = el("option", "", v.preset_of ? v.name + " (" + v.preset_of + ")" : v.name);
        o.value = v.name;
        o.title = v.description;
        select.appendChild(o);
      });
      select.value = r.data.deal.variant;
    }
    return r.data.deal;
  });
}
window.DominoBoard = {
  api: api, el: el, status: status, said: said, track: track, untrack: untrack, hooks: hooks, tab: tab,
  // (the static site's record links, analyzer/site/static/transport.js: the text and where the board stands, a move to show)
  text: function () { return text.value; }, where: function () { return state.position; },
  at: function (game, step) { return showPosition({game: game, step: step}); },
  signedFixed: signedFixed, setWords: setWords, rules: rulesOf, deal: dealOf, writeRecord: writeRecord, newSeats: newSeats,
  showProblem: function (position) {
    state.problem = position;
    state.analysis = null;
    state.position = null;
    $("values").hidden = true;
    document.body.classList.toggle("problem", position !== null);
    return position !== null ? showPosition({game: 0}) : positionAtCursor();
  },
  newRecord: function (value) {
    keep();
    $("files").value = "";
    state.path = null; state.name = "<board>"; state.token = null; state.saved = ""; state.analysis = null;
    notice("");
    // the board of the text replaced is not this record's: its moves are taken away until the new board comes
    state.position = null;
    $("legal").textContent = "";
    // the focus on the first move once the board is drawn (not in the text: a phone's keyboard would open and
    // the page scroll to it), the board brought into sight
    state.focusMoves = true;
    // (a new record opens for writing, whatever the record before it was opened for: files.js, review first)
    document.querySelector("input[name=clickmode][value=record]").checked = true;
    setText(value, value.length, "new", _("the new record"));
    return positionAtCursor().then(function () {
      var board = document.querySelector("main .board");
      if (phone()) { tab("board", true); } else if (board.getBoundingClientRect().top < 0) { board.scrollIntoView(); }
    });
  }
};

var wanted = new URLSearchParams(location.search).get("path");
// on every load: the file asked for; else the latest text kept unsaved in this browser (a new record or a
// file's), with a notice; else the one file served; else a new record, its template ready to fill in (an
// empty editor would greet the user with a record that has no game)
drawHistory();
listFiles().then(function (files) {
  files = files || [];
  var latest = allKept()[0];
  var first = wanted || (latest ? latest.path : files.length === 1 ? files[0].path : undefined);
  if (first) {
    $("files").value = first;
    openFile(first);
  } else {
    $("files").value = "";
    showNew();
  }
});
