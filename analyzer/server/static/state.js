// The board page's state and the small helpers its modules share (board.js, review.js and form.js, setup.js,
// problems.js through window.DominoBoard): the record, the position shown, the analysis; nothing here judges a move.
// ``actions`` holds the board's own moves that another module calls back (board.js fills it), so no two modules
// import each other.
export var $ = function (id) { return document.getElementById(id); };
export var STORE = "domino-board:";
// the fair analysis's adaptive budget: the most deals a decision whose best is not told apart may be given
// (the server's default, as the command's: --max-decision-deals four times the 200 deals drawn first); "More deals"
// asks four times the last, up to the server's limit (MAX_DECISION_DEALS)
export var BUDGET = 800, MAX_BUDGET = 51200;
// a new record: the tags and a hand a player, each "?" until it is known (a hand may be partly known:
// "A: [0-0] [1-1] ? ? ? ? ?")
export var TEMPLATE = '[Event "new game"]\n[Variant "partnership"]\n[Players "A, B, C, D"]\n\n' +
  "A: ?\nB: ?\nC: ?\nD: ?\n";
export var state = {
  path: null, name: "<board>", token: null, saved: "", game: 0, step: null,
  position: null, validation: null, analysis: null, analysed: null, job: null, seq: 0, pendingStep: null,
  focusMoves: false,      // the next board drawn puts the focus on its first move (a new record: board.js)
  problem: null           // the position of the problem open (problems.js): the board's text while it is
};
export var text = $("text");
// this page's name for its validations: the server ends the one still running when the next comes
export var PAGE = "page-" + Date.now().toString(36) + "-" + Math.floor(Math.random() * 1e9).toString(36);

// the board's own moves other modules call back (board.js fills it: state.js and files.js, review.js never import board.js)
export var actions = {showPosition: null, setText: null, forget: null, changed: null, analyse: null, drawPosition: null};

// the text the board stands on: the record's, or the position of the problem open (problems.js)
export function boardText() { return state.problem !== null ? state.problem : text.value; }

export function request(extra) {
  var body = {text: boardText(), name: state.name, variant: $("variant").value.trim() || null, rules: {}};
  Object.keys(extra || {}).forEach(function (k) { body[k] = extra[k]; });
  return body;
}

export function status(message, bad) {
  var s = $("status");
  s.textContent = message || "";
  s.classList.toggle("bad", !!bad);
}

export function debounce(fn, ms) {
  var timer = null;
  return function () { clearTimeout(timer); timer = setTimeout(fn, ms); };
}

export function el(name, cls, words) {
  var node = document.createElement(name);
  if (cls) { node.className = cls; }
  if (words !== undefined && words !== null) { node.textContent = words; }
  return node;
}

export function signed(v) {
  if (v === null || v === undefined) { return "?"; }
  return v > 0 ? "+" + v : String(v);
}


export function signedFixed(v) { return (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v).toFixed(2); }
