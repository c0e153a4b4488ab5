// The record's files: opening, saving (never over a file changed on disk without asking), the text kept in this
// browser while unsaved, the list of files the server may read. The board's own moves it calls back through
// ``actions`` (board.js fills it), so the two modules do not import each other.
import {_} from "./i18n.js";
import {api} from "./api.js";
import {$, STORE, TEMPLATE, state, text, actions, request, status, el} from "./state.js";

// ---- files, saving, the text kept in the browser -----------------------------------------------------
function key() { return STORE + (state.path || "new"); }
// a new record's template, untouched, holds nothing of the user's: nothing to save or to keep
export function unsaved() { return text.value !== state.saved && !(state.path === null && text.value === TEMPLATE); }

export function fileState(words) { $("filestate").textContent = words; }

// the text not saved is kept in the browser under its file's path (or "new"), until it is saved or
// discarded by the user: an empty editor never replaces it, and nothing is removed that no file holds
export function keep() {
  fileState(unsaved() ? _("unsaved (kept in this browser)") : "");
  try {
    if (unsaved() && text.value.trim() !== "") {
      localStorage.setItem(key(), JSON.stringify({text: text.value, token: state.token, time: new Date().toISOString(),
                                                  name: state.path ? fileName(state.path) : _("new record")}));
    } else if (!unsaved() && state.path) {
      localStorage.removeItem(key());
    }
  } catch (e) { /* storage full or refused: the text stays in the page */ }
}

export function kept(path) {
  try { return JSON.parse(localStorage.getItem(STORE + (path || "new")) || "null"); } catch (e) { return null; }
}

// every text kept in this browser: [{path (null: the new record), name, time, text}], the latest first
export function allKept() {
  var out = [];
  try {
    for (var k = 0; k < localStorage.length; k++) {
      var name = localStorage.key(k);
      if (name.indexOf(STORE) !== 0) { continue; }
      var item = JSON.parse(localStorage.getItem(name) || "null");
      if (item && typeof item.text === "string" && item.text.trim()) {
        var path = name.slice(STORE.length);
        item.path = path === "new" ? null : path;
        out.push(item);
      }
    }
  } catch (e) { /* storage refused */ }
  return out.sort(function (a, b) { return a.time < b.time ? 1 : -1; });
}

function fileName(path) {
  var o = Array.prototype.filter.call($("files").options, function (x) { return x.value === path; })[0];
  return o ? o.textContent : path.split("/").pop();
}

function when(time) {
  var d = new Date(time);
  return isNaN(d) ? String(time) : d.toLocaleString();
}

// the other texts kept in this browser, each with a button to show it
function otherKept() {
  return allKept().filter(function (k) { return k.path !== state.path; }).map(function (k) {
    return [k.path ? _("Show the unsaved {file} ({when})", {file: fileName(k.path), when: when(k.time)}) :
      _("Show the unsaved new record ({when})", {when: when(k.time)}), function () {
      keep();
      if (k.path) { $("files").value = k.path; openFile(k.path); } else { $("files").value = ""; showNew(); }
    }];
  });
}

function discard() {
  try { localStorage.removeItem(key()); } catch (e) { /* nothing kept */ }
  actions.setText(state.saved, 0, "discard", _("the discarded text"));
  notice(_("The unsaved text is discarded (Undo brings it back)."), otherKept());
}

// the new record: the text kept in this browser, with a notice, else the template
export function showNew() {
  state.path = null; state.name = "<board>"; state.token = null; state.saved = ""; state.analysis = null;
  var stored = kept(null);
  text.value = stored ? stored.text : TEMPLATE;
  actions.forget();
  notice(stored ? _("Your unsaved new record from {when} is restored: save it (Save as…) or discard it.", {when: when(stored.time)}) : "",
    stored ? [[_("Discard it"), discard]].concat(otherKept()) : otherKept());
  actions.changed(false);
  keep();
}

export function notice(message, buttons) {
  var box = $("notice");
  box.textContent = "";
  box.hidden = !message;
  if (!message) { return; }
  box.appendChild(el("span", "", message));
  (buttons || []).forEach(function (b) {
    var button = el("button", "", b[0]);
    button.type = "button";
    button.addEventListener("click", b[1]);
    box.appendChild(button);
  });
}

export function openFile(path) {
  return api("open", {path: path}).then(function (r) {
    if (!r.ok) { status(r.data.error, true); return; }
    state.path = r.data.path;
    state.name = r.data.path;
    state.token = r.data.token;
    state.saved = r.data.text;
    state.analysis = null;
    var stored = kept(state.path);
    notice("", otherKept());
    if (stored && stored.text !== r.data.text) {
      text.value = stored.text;
      if (stored.token) { state.token = stored.token; }
      notice(stored.token !== r.data.token ?
        _("Your unsaved text of {file} from {when} is restored; the file on disk has changed since, so saving will ask first: save it or discard it.",
          {file: r.data.name, when: when(stored.time)}) :
        _("Your unsaved text of {file} from {when} is restored; the file on disk is unchanged: save it or discard it.",
          {file: r.data.name, when: when(stored.time)}),
        [[_("Discard it"), function () { state.token = r.data.token; discard(); }]].concat(otherKept()));
    } else {
      text.value = r.data.text;
      var others = otherKept();
      if (others.length) { notice(_("Unsaved text is kept in this browser for another record."), others); }
    }
    text.setSelectionRange(0, 0);
    actions.forget();
    actions.changed(false);
    reviewIfFinished(text.value);
  });
}

// Review first (#66): a record opened whose last game is over opens for review: a click plays a variation
// (writing is the mode one chooses), and it is analysed at once for the graded move list, the critical move
// and the value chart. A record still being written (its last game not over) opens for writing.
function reviewIfFinished(opened) {
  var open = false;
  return api("position", request({game: 0, step: 0})).then(function (r) {
    if (!r.ok || text.value !== opened) { return null; }
    // every hand written: its analysis (all hands open) is quick and runs at once; one that hides a hand is
    // analysed fairly, over the deals, which may take long: that one waits for Analyse
    open = r.data.hidden.every(function (n) { return !n; });
    return api("position", request({game: r.data.games - 1}));
  }).then(function (r) {
    if (!r || !r.ok || text.value !== opened) { return; }
    var d = r.data;
    // (a result still to write, or to pick among a sheet's deals: the record is being written yet)
    var finished = !!d.over && d.shown === d.steps && !d.stopped && (d.written || !d.result) &&
      !(d.results && d.results.length);
    setClickMode(finished ? "variation" : "record");
    if (finished && open && !state.job) { actions.analyse(); }
  });
}

function setClickMode(mode) {
  var radio = document.querySelector("input[name=clickmode][value=" + mode + "]");
  if (radio && !radio.checked) { radio.checked = true; actions.drawPosition(); }
}

// Save: to the record's file (a new record asks for a name); Save as: to a file named now. A file that
// changed on disk since it was opened, or exists already, is never overwritten without asking.
export function save() {
  if (!state.path) { saveAs(); return; }
  saveTo(state.path, state.token);
}

// the variant chosen in the page is written into the record's Variant tag before it is saved, so the file
// reads as the page judged it (the server writes the tags; Undo takes them back)
function tagged() {
  var variant = $("variant").value.trim();
  if (!variant) { return Promise.resolve(true); }
  return api("tags", request()).then(function (r) {
    if (!r.ok) { status(r.data.error, true); return false; }
    if (r.data.text !== text.value) { actions.setText(r.data.text, undefined, "variant", _("the variant {variant}", {variant: variant})); }
    $("variant").value = "";
    return true;
  });
}

export function saveAs() {
  var name = window.prompt(_("Save as: a file name (*.dom or *.txt) in the folder the board was started with"),
    state.path ? fileName(state.path).replace(/(\.[a-z]+)$/i, "-2$1") : "new.dom");
  if (name) { saveTo(name.trim(), null); }
}

function saveTo(path, token) {
  var before = state.path;
  return tagged().then(function (ok) {
    return ok ? api("save", {path: path, text: text.value, token: token}) : null;
  }).then(function (r) {
    if (!r) { return; }
    if (r.status === 409) {
      var buttons = [[_("Overwrite the file on disk"), function () { notice(""); saveTo(path, r.data.token); }]];
      if (path === before) {
        buttons.push([_("Show the disk's version (yours stays in this browser)"), function () {
          keep(); notice(""); openFile(path);
        }]);
      }
      buttons.push([_("Save as another name…"), saveAs]);
      notice(r.data.error, buttons);
      fileState(_("not saved"));
      return;
    }
    if (!r.ok) { status(r.data.error, true); return; }
    var oldKey = key();
    state.path = r.data.path;
    state.name = r.data.path;
    state.token = r.data.token;
    state.saved = text.value;
    try { localStorage.removeItem(oldKey); localStorage.removeItem(key()); } catch (e) { /* nothing kept */ }
    notice("", otherKept());
    fileState(_("saved {file}", {file: r.data.name}));
    if (before !== r.data.path) { listFiles(r.data.path); }
  });
}

export function listFiles(select) {
  return api("files", {}).then(function (r) {
    if (!r.ok) { return; }
    var box = $("files");
    while (box.options.length > 1) { box.remove(1); }
    r.data.files.forEach(function (f) {
      var o = el("option", "", f.name);
      o.value = f.path;
      box.appendChild(o);
    });
    if (select) { box.value = select; }
    return r.data.files;
  });
}
