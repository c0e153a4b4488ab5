// The analysis's values beside the board and the review of a game (the graded moves, the critical move, the value
// chart, as the report shows them): what the server's analysis says, drawn; nothing here judges a move.
import {svgNode} from "./tiles.js";
import {$, state, actions, el, signed, signedFixed, boardText, MAX_BUDGET} from "./state.js";

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
    $("valuesnote").textContent = "The analysis is of another position: Analyse values the one on the board.";
    return;
  }
  var g = here.g, index = here.index;
  var note = [];
  // what the numbers mean, in the server's words (library.explained)
  var expl = a.explained || {}, gi = a.games.indexOf(g);
  $("valueslegend").textContent = expl.legends ? expl.legends[gi] || "" : "";
  if (state.analysed !== boardText()) { note.push("The text has changed since this analysis: analyse again."); }
  if (here.branch) { note.push("The values where the variation begins (Analyse values the position shown)."); }
  // a sheet without hands: the deals its record allows and the result they give, in the server's words
  if (g.deals && g.deals.words) { note.push(g.deals.words); }
  if (g.deals_error) { note.push("No deal fits the sheet: " + g.deals_error + "."); }
  var side = g.perspective ? g.perspective : "values for " + (g.sides[0] || "the first side");
  note.push(g.deals ? side.charAt(0).toUpperCase() + side.slice(1) + ", over the deals the sheet allows." : side + ".");
  if (g.values && g.values[index] !== undefined && g.values[index] !== null) {
    note.push("Value here with best play, every hand open: " + signed(g.values[index]) + ".");
  }
  var d = null;
  g.decisions.forEach(function (x) { if (x.index === index && d === null) { d = x; } });
  if (!d) {
    note.push(index < g.analysed_steps ? "No choice here: the move is forced." :
      (g.stopped || "The record's moves end here."));
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
  note.push(ahead ? (state.analysedAt ? "The variation ends here" : "The record ends here") + ": the value of each move " + d.player + " may make." :
    d.player + " played " + d.played + (d.loss_over_deals ? ", losing " + d.loss_over_deals.words + " over the " +
      d.loss_over_deals.deals + " deals" + (d["class"] ? " (" + d["class"] + ")" : "") :
      fair ? (fairLoss && d.fair.loss > 0 ? ", losing " + d.fair.loss.toFixed(2) + " points on average by what he could know" +
        (d.fair["class"] ? " (" + d.fair["class"] + ")" : "") : d.fair.best === d.played && !tied ? ", the best by what he could know" : "") :
      d.loss ? ", losing " + d.loss + " points with every hand open" + (d["class"] ? " (" + d["class"] + ")" : "") :
        d.loss === 0 && !tied ? ", best" : "") + ".");
  // why it lost (the analysis's reasons, each a fact of its lines: docs/reasons.md), as text
  if (d.reasons && d.reasons.length && !ahead) {
    note.push("Why: " + d.reasons.map(function (r) { return r.sentence; }).join("; ") + ".");
  }
  $("valuehead").textContent = fair ? "fair value (95% interval)" : "value, all hands open";
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
    var fairWords = alt.fair ? "fair " + signedFixed(alt.fair.mean) + (alt.fair.ci95 ? " (95%: " +
        signedFixed(alt.fair.ci95[0]) + " to " + signedFixed(alt.fair.ci95[1]) + ")" : "") : "";
    var shown = fair ? fairWords : alt.value !== null && alt.value !== undefined ? signed(alt.value) :
      over && !alt.fair ? over : over + (alt.fair ? fairWords : "?");
    var cell = el("td", "val", shown);
    if (fair) { cell.title = "the mean over the deals " + d.player + " could not tell apart, and its 95% interval"; }
    tr.appendChild(cell);
    // a sheet's marks come from the server (the fair best, hindsight's pick: report.verdicts.alternative_marks)
    tr.appendChild(el("td", "marks", alt.marks && !ahead ? alt.marks.join(", ") : [played ? "played" : "", best ? "best" : "",
      isTied ? "not told apart" : ""].filter(Boolean).join(", ")));
    rows.appendChild(tr);
    if (alt.line) { rows.appendChild(lineRow(p, d, alt)); }
  });
  if (d.fair && d.fair.words) {          // a sheet: the verdict over the hands he may have held
    note.push(d.fair.words + ".");
  } else if (d.fair) {
    if (tied) {
      note.push("By what " + d.player + " could know: " + tied.join(" and ") + " are not told apart after " +
        (d.fair.how || d.fair.worlds + " deals (" + d.fair.method + ")") + ".");
      $("moredeals").hidden = !(state.budget < MAX_BUDGET);
    } else {
      note.push("By what " + d.player + " could know (" + (d.fair.how || d.fair.worlds + " deals, " + d.fair.method) + "): best " +
        d.fair.best + (d.fair.loss ? ", loss " + d.fair.loss.toFixed(2) : "") + ".");
    }
  }
  $("valuesnote").textContent = note.join(" ");
}

// ---- review: the graded moves, the critical move, the value chart (the analysis's, as the report shows them) -------
// with a fair verdict the fair classes and losses (by what each player could know), else the open-hands ones:
// never a mix; nothing is judged here, every class and loss is the analysis's
function reviewOf(p) {
  var a = state.analysis;
  if (!a || !p || !a.games || !a.games[p.game] || state.problem !== null || state.analysedAt) { return null; }
  var g = a.games[p.game];
  var fair = g.decisions.some(function (d) { return d.fair && !d.fair.words && d.fair.loss !== undefined; });
  var graded = g.decisions.filter(function (d) {
    return fair ? d.fair && d.fair["class"] : d["class"];
  });
  var critical = fair ? g.fair_critical : g.critical;
  return {g: g, fair: fair, graded: graded, critical: critical};
}

function gradeWords(d, fair) {
  if (fair) {
    return d.fair["class"] + ", losing " + d.fair.loss.toFixed(2) + " points on average by what " + d.player + " could know";
  }
  return d["class"] + ", losing " + (d.loss_over_deals ? d.loss_over_deals.words : d.loss) + " points" +
    (d.loss_over_deals ? " over the deals the sheet allows" : " with every hand open") +
    (d.reasons && d.reasons.length ? ": " + d.reasons[0].sentence : "");      // (the first reason: docs/reasons.md)
}

export function drawReview() {
  var box = $("review");
  var p = state.position;
  var r = reviewOf(p);
  box.hidden = !r;
  if (!r) { return; }
  var list = $("graded");
  list.textContent = "";
  $("reviewnote").textContent = (state.analysed !== boardText() ? "The text has changed since this analysis. " : "") +
    (r.graded.length ? r.graded.length + " graded move" + (r.graded.length === 1 ? "" : "s") : "No move lost enough to be graded") +
    (r.fair ? " by what each player could know (fair)" : " with every hand open") + (p.games > 1 ? " in game " + (p.game + 1) : "") +
    (r.critical ? (r.fair ? "; the fair critical move: " : "; the critical move: ") + (r.critical.index + 1) + ". " + r.critical.player + " " + r.critical.played : "") + ".";
  r.graded.forEach(function (d) {
    var item = el("li", "grade " + (r.fair ? d.fair["class"] : d["class"]) + (d.index === p.step ? " here" : ""));
    var b = el("button", "", (d.index + 1) + ". " + d.player + " " + d.played + ": " + gradeWords(d, r.fair));
    b.type = "button";
    b.setAttribute("data-step", d.index);
    if (r.critical && r.critical.index === d.index) { b.appendChild(el("strong", "", " (critical)")); }
    b.addEventListener("click", function () { actions.showPosition({game: p.game, step: d.index}); });
    item.appendChild(b);
    list.appendChild(item);
  });
  $("critical").disabled = !r.critical;
  drawChart(r, p);
}

// the chart of the values move by move (the analysis's ``values``: the first side's, with best play), the
// position on the board marked: a picture with its words, no control
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
                       "aria-label": "the value chart: " + (r.g.sides && r.g.sides[0] ? r.g.sides[0] + "'s" : "the first side's") +
                       " value after each move, from " + signed(values[0]) + " to " + signed(values[values.length - 1])});
  svgNode("line", {x1: 0, y1: H / 2, x2: W, y2: H / 2, "class": "axis"}, svg);
  var points = [];
  r.g.values.forEach(function (v, k) { if (v !== null && v !== undefined) { points.push(x(k) + "," + y(v)); } });
  svgNode("polyline", {points: points.join(" "), "class": "curve"}, svg);
  r.graded.forEach(function (d) {
    var v = r.g.values[d.index];
    if (v !== null && v !== undefined) {
      svgNode("circle", {cx: x(d.index), cy: y(v), r: 2.5, "class": "mark " + (r.fair ? d.fair["class"] : d["class"])}, svg);
    }
  });
  svgNode("line", {x1: x(Math.min(p.step, n - 1)), y1: 0, x2: x(Math.min(p.step, n - 1)), y2: H, "class": "here"}, svg);
  box.appendChild(svg);
  box.appendChild(el("p", "note", "The value chart: " + (r.g.sides && r.g.sides[0] ? r.g.sides[0] : "the first side") +
    "'s points with best play after each move (above the line: ahead); the dots are the graded moves, the bar the move shown."));
}

export function jumpCritical() {
  var p = state.position;
  var r = reviewOf(p);
  if (r && r.critical) { actions.showPosition({game: p.game, step: r.critical.index}); }
}

export function jumpNextGraded() {
  var p = state.position;
  var r = reviewOf(p);
  if (!r || !r.graded.length) { return; }
  var next = r.graded.filter(function (d) { return d.index > p.step; })[0] || r.graded[0];
  actions.showPosition({game: p.game, step: next.index});
}

function lineRow(p, d, alt) {
  var more = el("tr", "line");
  var cell = el("td", "", null);
  cell.colSpan = 3;
  var details = el("details", "", null);
  details.appendChild(el("summary", "", "its line (" + alt.line.length + " moves)"));
  var list = el("ol", "linemoves", null);
  var base = state.analysedAt;
  alt.line.forEach(function (m, k) {
    var item = el("li", p.variation && p.variation.line[0] === alt.line[0] && p.variation.along === k + 1 ? "here" : "", null);
    var go = el("button", "step", m);
    go.type = "button";
    go.title = "show the board after this move of the line";
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
