// The analysis's values beside the board and the review of a game (the graded moves, the critical move, the value
// chart, as the report shows them): what the server's analysis says, drawn; nothing here judges a move.
import {_, ngettext, andList} from "./i18n.js";
import {svgNode} from "./tiles.js";
import {$, state, actions, el, signed, signedFixed, boardText, MAX_BUDGET} from "./state.js";

// a grade's code (the analysis's class: inaccuracy, mistake, blunder) in the page's words
var GRADES = {inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder")};
function gradeName(cls) { return GRADES[cls] || cls; }

// the analysed game and the decision index that value the position on the board, or null
function valuedHere(a, p) {
  var at = state.analysedAt;
  if (p.variation) {
    var same = at && at.game === p.game && at.step === p.step && at.along === p.variation.along &&
      at.line.join("|") === p.variation.line.slice(0, p.variation.along).join("|");
    if (same) { return {g: a.games[at.target.game], index: at.target.step}; }
    // a line of the record's analysis: the values where it branches, said so
    return at ? null : a.games[p.game] ? {g: a.games[p.game], index: p.step, branch: true} : null;
  }
  return at ? null : a.games[p.game] ? {g: a.games[p.game], index: p.step} : null;
}


export function drawValues() {
  var box = $("values");
  var a = state.analysis;
  var p = state.position;
  if (!a || !p) { box.hidden = true; return; }
  var here = valuedHere(a, p);
  box.hidden = false;
  var rows = $("valuerows");
  rows.textContent = "";
  $("moredeals").hidden = true;
  if (!here) {
    $("valueslegend").textContent = "";
    $("valuesnote").textContent = _("The analysis is of another position: Analyse values the one on the board.");
    return;
  }
  var g = here.g, index = here.index;
  var note = [];
  // what the numbers mean, in the server's words (library.explained)
  var expl = a.explained || {}, gi = a.games.indexOf(g);
  $("valueslegend").textContent = expl.legends ? expl.legends[gi] || "" : "";
  if (state.analysed !== boardText()) { note.push(_("The text has changed since this analysis: analyse again.")); }
  if (here.branch) { note.push(_("The values where the variation begins (Analyse values the position shown).")); }
  // a sheet without hands: the deals its record allows and the result they give, in the server's words
  if (g.deals && g.deals.words) { note.push(g.deals.words); }
  // where the fair verdicts' CPU budget cut their hands and deals, in the server's words (its fair_cut)
  if (g.fair_cut && g.fair_cut.words) { note.push(g.fair_cut.words.charAt(0).toUpperCase() + g.fair_cut.words.slice(1) + "."); }
  if (g.deals_error) { note.push(_("No deal fits the sheet: {why}.", {why: g.deals_error})); }
  var side = g.perspective ? g.perspective : g.sides[0] ? _("values for {side}", {side: g.sides[0]}) : _("values for the first side");
  note.push(g.deals ? _("{values}, over the deals the sheet allows.", {values: side.charAt(0).toUpperCase() + side.slice(1)}) : side + ".");
  var d = null;
  g.decisions.forEach(function (x) { if (x.index === index && d === null) { d = x; } });
  // with a fair verdict the note opens with it, in the words of ``analyze --fair`` (the server's: its line, its
  // verdict word); the value with every hand open follows it, said to be hindsight's
  var fairText = d && d.fair && !d.fair.words && d.fair.text ? d.fair.text : null;
  if (fairText) { note.push(fairText.charAt(0).toUpperCase() + fairText.slice(1) + "."); }
  if (g.values && g.values[index] !== undefined && g.values[index] !== null) {
    note.push(fairText ? _("With every hand open (hindsight), the value here with best play: {value}.", {value: signed(g.values[index])}) :
      _("Value here with best play, every hand open: {value}.", {value: signed(g.values[index])}));
  }
  if (!d) {
    note.push(index < g.analysed_steps ? _("No choice here: the move is forced.") :
      (g.stopped || _("The record's moves end here.")));
    $("valuesnote").textContent = note.join(" ");
    return;
  }
  var tied = d.fair && d.fair.tied && d.fair.tied.length ? d.fair.tied : null;
  var ahead = state.ahead && state.ahead.step === index;
  // one verdict on screen: where the analysis gives a fair verdict, the table shows the fair values and their
  // intervals it comes from and marks its best; else the values with every hand open and their best (a sheet's
  // marks and words come from the server as they are)
  var fair = !!d.fair && !d.fair.words && d.alternatives.every(function (alt) { return !!alt.fair; });
  var fairLoss = fair && d.fair.loss !== null && d.fair.loss !== undefined;
  var view = expl.views && expl.views[gi] ? expl.views[gi][g.decisions.indexOf(d)] : null;
  if (view) { note.push(view + "."); }
  var cls = d["class"] ? " (" + gradeName(d["class"]) + ")" : "", fairCls = fair && fairWord(d) ? " (" + fairWord(d) + ")" : "";
  var said = {player: d.player, move: d.played};
  note.push(ahead ? (state.analysedAt ? _("The variation ends here: the value of each move {player} may make.", said) :
      _("The record ends here: the value of each move {player} may make.", said)) :
    // (a sheet's loss words name its deals, and where the values' CPU budget stopped the decision: said once)
    d.loss_over_deals ? _("{player} played {move}: with every hand open (hindsight) it loses {loss}",
      Object.assign({loss: d.loss_over_deals.words}, said)) + cls + "." :
    fair ? (fairLoss && d.fair.loss > 0 ? _("{player} played {move}, losing {loss} points on average by what he could know",
        Object.assign({loss: d.fair.loss.toFixed(2)}, said)) + fairCls + "." :
      d.fair.best === d.played && !tied ? _("{player} played {move}, the best by what he could know", said) + fairCls + "." :
      _("{player} played {move}.", said)) :
    d.loss ? ngettext("{player} played {move}, losing {n} point with every hand open", "{player} played {move}, losing {n} points with every hand open",
      d.loss, said) + cls + "." :
    d.loss === 0 && !tied ? _("{player} played {move}, best.", said) : _("{player} played {move}.", said));
  // a partnership decision's bracket under hidden information: the server's words (report.verdicts.team_words)
  if (d.fair && d.fair.team_words && !ahead) { note.push(d.fair.team_words.charAt(0).toUpperCase() + d.fair.team_words.slice(1) + "."); }
  // a two-player verdict's best that open certified brackets overturned: why (report.verdicts.contradiction_text)
  if (d.fair && d.fair.contradiction_words && !ahead) { note.push(d.fair.contradiction_words.charAt(0).toUpperCase() + d.fair.contradiction_words.slice(1) + "."); }
  if (fair && d.fair.hindsight && !ahead) { note.push(d.fair.hindsight.charAt(0).toUpperCase() + d.fair.hindsight.slice(1) + "."); }
  // why it lost (the analysis's reasons, each a fact of its lines: docs/reasons.md), as text
  if (d.reasons && d.reasons.length && !ahead) {
    note.push(_("Why: {reasons}.", {reasons: d.reasons.map(function (r) { return r.sentence; }).join("; ")}));
  }
  // (under hidden information: the values, with each loss's certified bracket where the brackets did not close but
  // tell the best apart: analysis.hiddenfair.one_best; else a sample's means and their 95% intervals)
  var bracketed = fair && d.fair.method === "exact-hidden" && !!d.fair.hidden && d.fair.hidden.closed === false;
  $("valuehead").textContent = !fair ? _("value, all hands open") : bracketed ? _("fair value (loss certified)") :
    d.fair.method === "exact-hidden" ? _("fair value") : _("fair value (95% interval)");
  var worth = function (alt) {
    if (fair) { return alt.fair.mean; }
    if (alt.value !== null && alt.value !== undefined) { return alt.value; }
    return alt.fair ? alt.fair.mean : alt.over_deals ? alt.over_deals.mean : null;
  };
  d.alternatives.slice().sort(function (x, y) {
    var vx = worth(x) === null ? -1e9 : worth(x), vy = worth(y) === null ? -1e9 : worth(y);
    return d.side === 0 ? vy - vx : vx - vy;
  }).forEach(function (alt) {
    var played = alt.played && !ahead;
    var isTied = !!(tied && tied.indexOf(alt.move) >= 0);
    // "best" only where the best is told apart from the next (the analysis says which are not: "tied"); with a
    // fair verdict, its best (the open-hands best is hindsight, not shown beside it)
    var best = alt.marks ? alt.marks.indexOf("best") >= 0 : fair ? alt.move === d.fair.best && !isTied :
      alt.best && !isTied;
    var tr = el("tr", (played ? "played" : "") + (best ? " best" : "") + (isTied ? " tied" : ""));
    tr.setAttribute("data-move", alt.move);
    tr.appendChild(el("td", "mv", alt.move));
    // a sheet: the value over the deals it allows (the server's words), then the fair value where there is one
    var over = alt.over_deals ? alt.over_deals.words + (alt.fair ? "; " : "") : "";
    // a verdict by certified brackets (under hidden information, not closed but telling the best apart): each other
    // move's loss against the best and the bracket it certainly lies in (its value itself is not certified); else
    // the sample's 95% interval where it has one (an exact value is its own)
    var certified = bracketed && alt.move !== d.fair.best && alt.fair && alt.fair.gap_ci ? alt.fair.gap_ci : null;
    var fairWords = !alt.fair ? "" : certified ? _("fair {value} (loss certified {low} to {high})",
      {value: signedFixed(alt.fair.mean), low: certified[0].toFixed(2), high: certified[1].toFixed(2)}) :
      alt.fair.ci95 && alt.fair.ci95[0] !== alt.fair.ci95[1] ? _("fair {value} (95%: {low} to {high})", {value: signedFixed(alt.fair.mean),
      low: signedFixed(alt.fair.ci95[0]), high: signedFixed(alt.fair.ci95[1])}) : _("fair {value}", {value: signedFixed(alt.fair.mean)});
    var shown = fair ? fairWords : alt.value !== null && alt.value !== undefined ? signed(alt.value) :
      over && !alt.fair ? over : over + (alt.fair ? fairWords : "?");
    var cell = el("td", "val", shown);
    if (fair) {
      cell.title = d.fair.method === "exact-hidden" ? _("the value under hidden information, both players playing their best by what they know") :
        _("the mean over the deals {player} could not tell apart, and its 95% interval", {player: d.player});
    }
    tr.appendChild(cell);
    // a sheet's marks come from the server (the fair best, hindsight's pick: report.verdicts.alternative_marks)
    tr.appendChild(el("td", "marks", alt.marks && !ahead ? alt.marks.join(", ") : [played ? _("played") : "", best ? _("best") : "",
      isTied ? _("not told apart") : ""].filter(Boolean).join(", ")));
    rows.appendChild(tr);
    if (alt.line) { rows.appendChild(lineRow(p, d, alt)); }
  });
  if (d.fair && d.fair.words) {          // a sheet: the verdict over the hands he may have held
    note.push(d.fair.words + ".");
  } else if (d.fair && fairText) {
    $("moredeals").hidden = !(tied && state.budget < MAX_BUDGET);
  } else if (d.fair) {
    if (tied) {
      note.push(_("By what {player} could know: {moves} are not told apart after {how}.", {player: d.player, moves: andList(tied),
        how: d.fair.how || ngettext("{n} deal ({method})", "{n} deals ({method})", d.fair.deals, {method: d.fair.method})}));
      $("moredeals").hidden = !(state.budget < MAX_BUDGET);
    } else {
      var how = d.fair.how || ngettext("{n} deal, {method}", "{n} deals, {method}", d.fair.deals, {method: d.fair.method});
      note.push(d.fair.loss ? _("By what {player} could know ({how}): best {move}, loss {loss}.", {player: d.player, how: how,
        move: d.fair.best, loss: d.fair.loss.toFixed(2)}) :
        _("By what {player} could know ({how}): best {move}.", {player: d.player, how: how, move: d.fair.best}));
    }
  }
  $("valuesnote").textContent = note.join(" ");
}

// ---- review: every move with its value and grade, the grade counts, the critical move, the value chart (the
// analysis's, as the report shows them) --------------------------------------------------------------------
// with a fair verdict the fair classes and losses (by what each player could know), else the open-hands ones:
// never a mix; nothing is judged here, every class, loss, count and accuracy is the analysis's
function reviewOf(p) {
  var a = state.analysis;
  if (!a || !p || !a.games || !a.games[p.game] || state.problem !== null || state.analysedAt) { return null; }
  var g = a.games[p.game];
  var fair = g.decisions.some(function (d) { return d.fair && !d.fair.words && d.fair.loss !== undefined; });
  var graded = g.decisions.filter(function (d) {
    return fair ? d.fair && d.fair["class"] : d["class"];
  });
  var critical = fair ? g.fair_critical : g.critical;
  var counts = a.explained && a.explained.grades ? a.explained.grades : null;
  return {g: g, fair: fair, graded: graded, critical: critical, counts: counts, game: p.game, games: a.games.length};
}

// the one verdict word of a fair decision, as ``analyze --fair`` prints it (the server's: "real mistake")
function fairWord(d) { return d.fair.verdict_word || gradeName(d.fair["class"]); }

function gradeWords(d, fair) {
  if (fair) {
    return _("{grade}, losing {loss} points on average by what {player} could know", {grade: fairWord(d), loss: d.fair.loss.toFixed(2),
      player: d.player});
  }
  return (d.loss_over_deals ? _("{grade}: with every hand open (hindsight) it loses {loss}", {grade: gradeName(d["class"]), loss: d.loss_over_deals.words}) :
    ngettext("{grade}, losing {n} point with every hand open", "{grade}, losing {n} points with every hand open", d.loss, {grade: gradeName(d["class"])})) +
    (d.reasons && d.reasons.length ? ": " + d.reasons[0].sentence : "");      // (the first reason: docs/reasons.md)
}

function classOf(d, fair) { return fair ? d.fair && d.fair["class"] : d["class"]; }

export function drawReview() {
  var box = $("review");
  var p = state.position;
  var r = reviewOf(p);
  box.hidden = !r;
  $("reviewbar").hidden = !r;
  if (!r) { return; }
  var game = p.games > 1 ? " " + _("in game {n}", {n: p.game + 1}) : "";
  var critical = r.critical ? {move: (r.critical.index + 1) + ". " + r.critical.player + " " + r.critical.played} : null;
  $("reviewnote").textContent = (state.analysed !== boardText() ? _("The text has changed since this analysis.") + " " : "") +
    (r.fair ? (r.graded.length ? ngettext("{n} graded move by what each player could know (fair)", "{n} graded moves by what each player could know (fair)",
      r.graded.length) : _("No move lost enough to be graded by what each player could know (fair)")) :
      (r.graded.length ? ngettext("{n} graded move with every hand open", "{n} graded moves with every hand open", r.graded.length) :
        _("No move lost enough to be graded with every hand open"))) + game +
    (critical ? "; " + (r.fair ? _("the fair critical move: {move}", critical) : _("the critical move: {move}", critical)) : "") + ".";
  drawMoveList(r, p);
  drawCounts(r);
  $("critical").disabled = !r.critical;
  $("prevgraded").disabled = !r.graded.length;
  $("nextgraded").disabled = !r.graded.length;
  drawChart(r, p);
}

// every move of the game in one list: its value after it (the analysis's ``values``), its grade where it has
// one, "forced" where its player had no choice; a click shows the board where the move is chosen
function drawMoveList(r, p) {
  var list = $("movelist");
  list.textContent = "";
  var decided = {};
  r.g.decisions.forEach(function (d) { decided[d.index] = d; });
  var here = null;
  (r.g.moves || []).forEach(function (m, k) {
    var d = decided[k];
    var cls = d ? classOf(d, r.fair) : null;
    var item = el("li", (cls ? "grade " + cls : "plain") + (k === p.step ? " here" : ""));
    var b = el("button", "", null);
    b.type = "button";
    b.setAttribute("data-step", k);
    b.appendChild(el("span", "num", (k + 1) + "."));
    b.appendChild(el("span", "mv", m.player + " " + m.move));
    var v = r.g.values ? r.g.values[k + 1] : null;
    b.appendChild(el("span", "val", v === null || v === undefined ? "" : signed(v)));
    var words = cls ? gradeWords(d, r.fair) : !d ? (k < r.g.analysed_steps ? _("forced") : _("not analysed")) :
      r.fair && d.fair && d.fair.verdict_word ? d.fair.verdict_word : "";
    if (r.critical && r.critical.index === k) { words += (words ? " " : "") + _("(critical)"); }
    b.appendChild(el("span", "grade", words));
    b.addEventListener("click", function () { actions.showPosition({game: p.game, step: k}); });
    item.appendChild(b);
    list.appendChild(item);
    if (k === p.step) { here = item; }
  });
  // the move shown kept in sight inside the list (the page itself does not scroll)
  if (here) { list.scrollTop = Math.max(0, here.offsetTop - list.clientHeight / 2); }    // (the list: its offsetParent)
}

// each player's grade counts and accuracy, in this game and over the record (``explained.grades``, the analysis's)
function drawCounts(r) {
  var box = $("gradecounts");
  box.textContent = "";
  var c = r.counts;
  if (!c || !c.games[r.game]) { return; }
  var table = el("table", "counts", null);
  table.appendChild(el("caption", "", c.fair ?
    _("Graded by what each player could know: the moves of each class, and the accuracy (the share of a player's choices not graded)") :
    _("Graded with every hand open: the moves of each class, and the accuracy (the share of a player's choices not graded)")));
  var head = el("tr", "", null);
  [_("player"), _("choices")].concat(c.classes.map(gradeName)).concat([_("accuracy")]).forEach(function (h) {
    var th = el("th", "", h);
    th.scope = "col";
    head.appendChild(th);
  });
  var thead = el("thead", "", null);
  thead.appendChild(head);
  table.appendChild(thead);
  var body = el("tbody", "", null);
  var rows = function (counts, what) {
    counts.forEach(function (x) {
      var tr = el("tr", x.player === null ? "all" : "", null);
      var th = el("th", "", x.player === null ? what : x.player);
      th.scope = "row";
      tr.appendChild(th);
      tr.appendChild(el("td", "", String(x.decisions)));
      x.counts.forEach(function (n) { tr.appendChild(el("td", "", String(n))); });
      tr.appendChild(el("td", "", x.accuracy === null ? "–" : x.accuracy.toFixed(1) + "%"));
      body.appendChild(tr);
    });
  };
  rows(c.games[r.game], r.games > 1 ? _("game {n}", {n: r.game + 1}) : _("all"));
  if (r.games > 1) {
    var sep = el("tr", "part", null);
    var cell = el("th", "", ngettext("the record, {n} game", "the record, {n} games", r.games));
    cell.colSpan = c.classes.length + 3;
    cell.scope = "colgroup";
    sep.appendChild(cell);
    body.appendChild(sep);
    rows(c.match, _("all"));
  }
  table.appendChild(body);
  box.appendChild(table);
}

// the chart of the values move by move (the analysis's ``values``: the first side's, with best play), its points
// the positions: a click or a tap on one shows the board there (the arrows step through them too); the graded
// moves marked, the position on the board barred
function drawChart(r, p) {
  var box = $("chart");
  box.textContent = "";
  var values = (r.g.values || []).filter(function (v) { return v !== null && v !== undefined; });
  if (values.length < 2) { return; }
  var W = 300, H = 60, top = Math.max.apply(null, values.map(Math.abs)) || 1;
  var n = r.g.values.length;
  var x = function (k) { return 4 + (k / (n - 1)) * (W - 8); };      // (a dot at either end kept whole)
  var y = function (v) { return H / 2 - (v / top) * (H / 2 - 3); };
  var svg = svgNode("svg", {viewBox: "0 0 " + W + " " + H, "class": "valuechart", role: "img",
                       "aria-label": _("the value chart: {side}'s value after each move, from {first} to {last}; a click on a point shows the board there",
                         {side: r.g.sides && r.g.sides[0] ? r.g.sides[0] : _("the first side"), first: signed(values[0]),
                          last: signed(values[values.length - 1])})});
  svgNode("line", {x1: 0, y1: H / 2, x2: W, y2: H / 2, "class": "axis"}, svg);
  var points = [];
  r.g.values.forEach(function (v, k) { if (v !== null && v !== undefined) { points.push(x(k) + "," + y(v)); } });
  svgNode("polyline", {points: points.join(" "), "class": "curve"}, svg);
  var graded = {};
  r.graded.forEach(function (d) { graded[d.index] = classOf(d, r.fair); });
  r.g.values.forEach(function (v, k) {
    if (v === null || v === undefined) { return; }
    var dot = svgNode("circle", {cx: x(k), cy: y(v), r: graded[k] ? 2.5 : 1.3,
                                 "class": "point" + (graded[k] ? " mark " + graded[k] : ""), "data-step": k}, svg);
    svgNode("title", {}, dot).textContent = (k ? _("after move {n}", {n: k}) : _("the deal")) + ": " + signed(v);
  });
  svgNode("line", {x1: x(Math.min(p.step, n - 1)), y1: 0, x2: x(Math.min(p.step, n - 1)), y2: H, "class": "here"}, svg);
  // a click or a tap: the point nearest along the moves (the chart's own coordinates, however it is scaled)
  svg.addEventListener("click", function (ev) {
    var m = svg.getScreenCTM();
    if (!m) { return; }
    var at = svg.createSVGPoint();
    at.x = ev.clientX; at.y = ev.clientY;
    var k = Math.round((at.matrixTransform(m.inverse()).x - 4) / (W - 8) * (n - 1));
    k = Math.max(0, Math.min(n - 1, k));
    actions.showPosition({game: p.game, step: Math.min(k, p.steps)});
  });
  box.appendChild(svg);
  box.appendChild(el("p", "note", _("The value chart: {side}'s points with best play after each move (above the line: ahead); a point is a position (a click shows it), the larger dots the graded moves, the bar the move shown.",
    {side: r.g.sides && r.g.sides[0] ? r.g.sides[0] : _("the first side")})));
}

// the move the analysis names best where the board stands at (game, step): the fair best where the review is fair,
// a sheet's marked best, else the one open-hands best; null where there is none or it is not told apart from another
export function bestAt(game, step) {
  var a = state.analysis;
  // (an analysis of another text: its best may not be a move of this position)
  if (!a || !a.games || !a.games[game] || state.problem !== null || state.analysedAt || state.analysed !== boardText()) {
    return null;
  }
  var r = reviewOf({game: game, step: step});
  var d = null;
  r.g.decisions.forEach(function (x) { if (x.index === step && d === null) { d = x; } });
  if (!d) { return null; }
  if (r.fair && d.fair) { return d.fair.best && !(d.fair.tied && d.fair.tied.length) ? d.fair.best : null; }
  var marked = d.alternatives.filter(function (alt) { return alt.marks ? alt.marks.indexOf("best") >= 0 : alt.best; });
  return marked.length === 1 ? marked[0].move : null;
}

export function jumpCritical() {
  var p = state.position;
  var r = reviewOf(p);
  if (r && r.critical) { actions.showPosition({game: p.game, step: r.critical.index}); }
}

// the next graded move after the board's (after the last, the first), or (``back``) the one before it
export function jumpNextGraded(back) {
  var p = state.position;
  var r = reviewOf(p);
  if (!r || !r.graded.length) { return; }
  var next = back ? r.graded.filter(function (d) { return d.index < p.step; }).pop() || r.graded[r.graded.length - 1] :
    r.graded.filter(function (d) { return d.index > p.step; })[0] || r.graded[0];
  actions.showPosition({game: p.game, step: next.index});
}

function lineRow(p, d, alt) {
  var more = el("tr", "line");
  var cell = el("td", "", null);
  cell.colSpan = 3;
  var details = el("details", "", null);
  details.appendChild(el("summary", "", ngettext("its line ({n} move)", "its line ({n} moves)", alt.line.length)));
  var list = el("ol", "linemoves", null);
  var base = state.analysedAt;
  alt.line.forEach(function (m, k) {
    var item = el("li", p.variation && p.variation.line[0] === alt.line[0] && p.variation.along === k + 1 ? "here" : "", null);
    var go = el("button", "step", m);
    go.type = "button";
    go.title = _("show the board after this move of the line");
    go.addEventListener("click", function () {
      state.mine = false;
      // from a variation's analysis, the line goes on from the variation's moves
      var line = base ? base.line.concat(alt.line) : alt.line;
      actions.showPosition({game: p.game, step: base ? base.step : d.index, line: line, along: (base ? base.line.length : 0) + k + 1});
    });
    item.appendChild(go);
    list.appendChild(item);
  });
  if (p.variation && p.variation.line[0] === alt.line[0]) { details.open = true; }
  details.appendChild(list);
  cell.appendChild(details);
  more.appendChild(cell);
  return more;
}
