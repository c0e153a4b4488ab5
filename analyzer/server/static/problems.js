// Problem sets on the board: a set as `domino train --json` writes it, or a book of problems (a folder of
// set-up records with a Problem tag), both read by the server from under its folders. The board stands on each
// problem's position (the record's own text is left as it was); a click on a move answers it and the answer is
// shown: the best move and every move's value (exact, or fair with its 95% interval) as the analysis gives
// them, from the set itself or, for a book, from the server's analysis of the position. This script judges
// nothing: it compares the move clicked with the moves the answer names.
import {_, ngettext, andList} from "./i18n.js";

(function () {
  "use strict";

  var B = window.DominoBoard;
  var $ = function (id) { return document.getElementById(id); };
  var set = null, at = 0, chosen = null;

  function error(words) {
    $("problemerror").hidden = !words;
    $("problemerror").textContent = words || "";
  }

  function chooser() {
    $("problem").hidden = false;
    error("");
    B.tab("board", true);
    B.api("problemsets", {}).then(function (r) {
      if (!r.ok) { error(r.data.error); return; }
      var box = $("problemsets");
      box.textContent = "";
      r.data.sets.forEach(function (s) {
        var o = B.el("option", "", s.kind === "train" ? _("{name} (problem set)", {name: s.name}) : _("{name} (book of problems)", {name: s.name}));
        o.value = s.path;
        box.appendChild(o);
      });
      $("problemopen").disabled = !r.data.sets.length;
      if (!r.data.sets.length) {
        error(_("No problem set under the folders this board was started with: `domino train --json FILE` writes one, and a book of problems is a folder of set-up records with a Problem tag."));
      }
    });
  }

  function open() {
    var path = $("problemsets").value;
    if (!path) { return; }
    B.api("problems", {path: path}).then(function (r) {
      if (!r.ok) { error(r.data.error); return; }
      if (!r.data.problems.length) { error(_("{name} holds no problem with a position.", {name: r.data.name})); return; }
      error("");
      set = r.data;
      at = 0;
      show();
    });
  }

  function show() {
    var p = set.problems[at];
    chosen = null;
    $("problemshow").hidden = false;
    $("answer").hidden = true;
    var where = p.source ? " · " + p.source + (p.game ? ", " + _("game {n}", {n: p.game}) : "") : "";
    $("probleminfo").textContent = _("Problem {n} of {count} in {set}", {n: at + 1, count: set.problems.length, set: set.name}) + where +
      (set.skipped ? " " + ngettext("({n} without a position left out)", "({n} without a position left out)", set.skipped) : "");
    B.setWords($("question"), p.question);
    $("problemprev").disabled = at === 0;
    $("problemnext").disabled = at === set.problems.length - 1;
    $("reveal").disabled = false;
    B.hooks.move = choose;
    B.hooks.key = key;
    B.showProblem(p.position);
  }

  function go(delta) {
    if (!set) { return; }
    var k = Math.max(0, Math.min(set.problems.length - 1, at + delta));
    if (k !== at) { at = k; show(); }
  }

  // a move clicked (or typed) on the board: the user's answer
  function choose(m) {
    if (!set) { return false; }
    chosen = m.move + (m.claim ? " +" + m.claim : "");
    Array.prototype.forEach.call(document.querySelectorAll("#legal button.move"), function (b) {
      b.classList.toggle("chosen", b.getAttribute("data-move") === m.move);
    });
    reveal();
    return true;
  }

  function reveal() {
    if (!set) { return; }
    var p = set.problems[at];
    if (p.answer) { drawAnswer(p); return; }
    var which = at;
    var job = "answer-" + Date.now() + "-" + Math.floor(Math.random() * 1e9);
    $("reveal").disabled = true;
    B.track(job);
    B.api("answer", {text: p.position, name: p.source || set.name, job: job}).then(function (r) {
      if (!B.untrack(job)) { return; }
      $("reveal").disabled = false;
      if (!r.ok) { B.status(r.data.cancelled ? _("analysis cancelled") : r.data.error, !r.data.cancelled); return; }
      B.status("");
      p.answer = r.data;
      if (set && set.problems[which] === p && which === at) { drawAnswer(p); }
    });
  }

  function same(move, chosenMove) {
    return move === chosenMove || move.split(" ")[0] === chosenMove.split(" ")[0];
  }

  function drawAnswer(p) {
    var a = p.answer;
    var exact = a.method === "exact";
    var tied = a.tied && a.tied.length ? a.tied : [];
    var shown = function (alt) {
      if (alt.fair === null) { return "?"; }
      if (exact) { return (alt.fair > 0 ? "+" : "") + alt.fair; }
      if (alt.loss_bracket) {     // (under hidden information: where its loss against the best certainly lies)
        return _("fair {value} (loss certified {low} to {high})", {value: B.signedFixed(alt.fair),
          low: alt.loss_bracket[0].toFixed(2), high: alt.loss_bracket[1].toFixed(2)});
      }
      return alt.ci95 && alt.ci95[0] !== alt.ci95[1] ? _("fair {value} (95%: {low} to {high})", {value: B.signedFixed(alt.fair),
        low: B.signedFixed(alt.ci95[0]), high: B.signedFixed(alt.ci95[1])}) : _("fair {value}", {value: B.signedFixed(alt.fair)});
    };
    var best = a.alternatives.filter(function (x) { return x.best; })[0];
    var mine = chosen === null ? null : a.alternatives.filter(function (x) { return same(x.move, chosen); })[0];
    var words;
    if (chosen === null) {
      words = tied.length ? _("{moves} are not told apart", {moves: andList(tied)}) : _("The best move: {move}.", {move: a.best});
    } else if (!mine) {
      words = _("You chose {move}, which the answer does not value; the best: {best}.", {move: chosen, best: a.best});
    } else if (tied.indexOf(mine.move) >= 0) {
      words = ngettext("You chose {move}: not told apart from {others} after {n} deal.", "You chose {move}: not told apart from {others} after {n} deals.",
        a.deals, {move: mine.move, others: andList(tied.filter(function (x) { return x !== mine.move; }))});
    } else if (mine.best) {
      words = _("You chose {move}: the best move.", {move: mine.move});
    } else {
      words = _("You chose {move} ({value}); the best is {best}.", {move: mine.move, value: shown(mine),
        best: a.best + (best ? " (" + shown(best) + ")" : "")});
    }
    B.setWords($("answerchoice"), words);
    var note = [];
    if (a.view) { note.push(a.view + "."); }
    note.push(exact ? _("Exact: every hand is shown.") : (p.player ? ngettext("By what {player} could know: {n} deal ({method})",
      "By what {player} could know: {n} deals ({method})", a.deals, {player: p.player, method: a.method}) :
      ngettext("By what the player to move could know: {n} deal ({method})", "By what the player to move could know: {n} deals ({method})",
        a.deals, {method: a.method})) + (tied.length ? "; " + _("{moves} are not told apart", {moves: andList(tied)}) : "") + ".");
    if (a.played) {
      note.push((a.loss ? _("Played in the game: {move}, losing {loss}", {move: a.played, loss: a.loss.toFixed(2)}) :
        _("Played in the game: {move}", {move: a.played})) + (a.cls ? " (" + a.cls + ")" : "") + ".");
    }
    B.setWords($("answernote"), note.join(" "));
    var rows = $("answerrows");
    rows.textContent = "";
    a.alternatives.forEach(function (alt) {
      var isTied = tied.indexOf(alt.move) >= 0;
      var tr = B.el("tr", (alt.best && !isTied ? "best" : "") + (mine === alt ? " chosen" : "") + (alt.played ? " played" : ""));
      tr.setAttribute("data-move", alt.move);
      tr.appendChild(B.el("td", "mv", alt.move));
      tr.appendChild(B.el("td", "val", shown(alt)));
      tr.appendChild(B.el("td", "marks", [alt.best && !isTied ? _("best") : "", isTied ? _("not told apart") : "",
        mine === alt ? _("your choice") : "", alt.played ? _("played in the game") : ""].filter(Boolean).join(", ")));
      rows.appendChild(tr);
    });
    B.setWords($("answerline"), a.line && a.line.length ? _("The best line, every hand open: {moves}", {moves: a.line.join(", ")}) : "");
    $("answer").hidden = false;
    $("reveal").disabled = true;
  }

  function close() {
    set = null;
    B.hooks.move = null;
    B.hooks.key = null;
    $("problem").hidden = true;
    $("problemshow").hidden = true;
    $("answer").hidden = true;
    B.showProblem(null);
  }

  // the keys of the problem page `domino train --html` writes: Space shows the answer, N the next, P the one before
  function key(ev) {
    if (!set) { return false; }
    var k = ev.key.toLowerCase();
    if (ev.key === " ") { ev.preventDefault(); reveal(); return true; }
    if (k === "n") { go(1); return true; }
    if (k === "p") { go(-1); return true; }
    return false;
  }

  $("problemsbutton").addEventListener("click", chooser);
  $("problemopen").addEventListener("click", open);
  $("problemclose").addEventListener("click", close);
  $("problemprev").addEventListener("click", function () { go(-1); });
  $("problemnext").addEventListener("click", function () { go(1); });
  $("reveal").addEventListener("click", reveal);
  $("problemedit").addEventListener("click", function () {
    if (!set) { return; }
    var text = set.problems[at].position;
    close();
    B.newRecord(text);
  });
}());
