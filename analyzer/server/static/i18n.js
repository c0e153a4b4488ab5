// The page's words in the reader's language: the board's catalogue (the gettext domain ``board``,
// analyzer/locale/<lang>/LC_MESSAGES/board.po, docs/i18n.md) handed to the page as data, catalogue/<lang>.json
// beside this script (the server makes it from the .po; the static site ships it, made by its build). Every
// module of the page imports this one, which reads the catalogue before any of them runs (a top-level await), and
// translates the page's own HTML (its text, titles, placeholders, labels) in place.
//
// A message is written in English in the code with named placeholders, _("{n} of {total} deals", {n: 3, ...});
// ngettext("{n} tile", "{n} tiles", n) picks the language's plural form: the catalogue says which of the
// browser's plural categories (Intl.PluralRules: one, few, many, other) each of its forms is, so no rule is
// evaluated from text. The language: the one chosen on the page (kept in this browser), else the first of the
// browser's languages with a catalogue (the rules of analyzer.i18n.negotiate), else English.

// the languages with a board catalogue, as analyzer.i18n.LANGUAGES (a test keeps the two the same)
export var LANGUAGES = ["es", "pt_BR", "ru"];
// each language's own name, for the switch
export var NAMES = {en: "English", es: "Español", pt_BR: "Português (Brasil)", ru: "Русский"};
var KEY = "domino-board:lang";
var PSEUDO = "qps";

// the language to show, of the tags asked for in order (navigator.languages): as analyzer.i18n.negotiate
export function negotiate(asked) {
  for (var i = 0; i < asked.length; i++) {
    var tag = String(asked[i] || "").split(".")[0].split("@")[0].replace(/-/g, "_").trim();
    if (!tag) { continue; }
    var parts = tag.split("_"), lang = parts[0].toLowerCase(), region = parts.slice(1).join("_");
    if (lang === "c" || lang === "posix" || lang === "en") { return "en"; }
    if (tag.toLowerCase() === PSEUDO) { return PSEUDO; }
    var exact = region ? lang + "_" + region.toUpperCase() : lang;
    if (LANGUAGES.indexOf(exact) >= 0) { return exact; }
    for (var k = 0; k < LANGUAGES.length; k++) {
      if (LANGUAGES[k].split("_")[0] === lang) { return LANGUAGES[k]; }
    }
  }
  return "en";
}

function chosen() {
  var kept = null;
  try { kept = localStorage.getItem(KEY); } catch (e) { /* storage refused */ }
  if (kept === "en" || kept === PSEUDO || LANGUAGES.indexOf(kept) >= 0) { return kept; }
  return negotiate(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
}

var catalogue = {lang: "en", plural: ["one", "other"], messages: {}};

async function load(code) {
  if (code === "en") { return; }
  try {
    var r = await fetch(new URL("catalogue/" + code + ".json", import.meta.url));
    if (r.ok) { catalogue = await r.json(); }
  } catch (e) { /* no catalogue reached: the page stays in English */ }
}

await load(chosen());

// the language shown: "en", "es", "pt_BR", "ru" ("qps": the tests' pseudo-language, every message marked)
export var LANG = catalogue.lang;
var plurals = LANG === "en" || catalogue.pseudo ? null : new Intl.PluralRules(LANG.replace("_", "-"));
var numbers = new Intl.NumberFormat(LANG === PSEUDO ? "en" : LANG.replace("_", "-"));

function fill(text, params) {
  if (!params) { return text; }
  return text.replace(/\{(\w+)\}/g, function (whole, name) {
    return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
  });
}

// ``message`` in the page's language, its {name} placeholders filled in from ``params``
export function _(message, params) {
  var found = catalogue.pseudo ? "⟦" + message + "⟧" : catalogue.messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

// the form of singular/plural that goes with the count ``n`` (Russian has three), {n} the count as the language
// writes numbers, the other placeholders from ``params``
export function ngettext(singular, plural, n, params) {
  var all = Object.assign({n: number(n)}, params || {});
  if (catalogue.pseudo) { return fill("⟦" + (n === 1 ? singular : plural) + "⟧", all); }
  var forms = catalogue.messages[singular];
  if (!plurals || !Array.isArray(forms)) { return fill(n === 1 ? singular : plural, all); }
  var k = catalogue.plural.indexOf(plurals.select(n));
  var form = forms[k >= 0 ? k : forms.length - 1];
  return fill(form || (n === 1 ? singular : plural), all);
}

// an integer as the page's language writes it ("12,345"; "12 345" in Russian)
export function number(n) { return typeof n === "number" ? numbers.format(n) : String(n); }

// a list of names joined as the language joins them ("A, B or C")
export function orList(list) {
  if (list.length < 2) { return list.join(""); }
  return _("{some} or {last}", {some: list.slice(0, -1).join(", "), last: list[list.length - 1]});
}

// "x, y and z"
export function andList(list) {
  if (list.length < 2) { return list.join(""); }
  return _("{some} and {last}", {some: list.slice(0, -1).join(", "), last: list[list.length - 1]});
}

// ---- the page's own HTML: each text and each title, placeholder and label looked up as it is written -----------
// (the extractor reads board.html with the same rule: analyzer/server/catalogue.py, extract_html)
var ATTRIBUTES = ["title", "placeholder", "aria-label", "alt"];

function lookup(raw) {
  var words = raw.replace(/\s+/g, " ").trim();
  if (!/[A-Za-z]/.test(words)) { return raw; }
  var lead = /^\s*/.exec(raw)[0], tail = /\s*$/.exec(raw)[0];
  return (lead ? " " : "") + _(words) + (tail ? " " : "");
}

export function translatePage(root) {
  if (LANG === "en") { return; }
  var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {acceptNode: function (node) {
    var parent = node.parentNode && node.parentNode.nodeName;
    return parent === "SCRIPT" || parent === "STYLE" || parent === "TEXTAREA" ? NodeFilter.FILTER_REJECT :
      NodeFilter.FILTER_ACCEPT;
  }});
  var nodes = [];
  while (walker.nextNode()) { nodes.push(walker.currentNode); }
  nodes.forEach(function (node) { node.nodeValue = lookup(node.nodeValue); });
  Array.prototype.forEach.call(root.querySelectorAll("[title], [placeholder], [aria-label], [alt]"), function (node) {
    ATTRIBUTES.forEach(function (name) {
      if (node.hasAttribute(name)) { node.setAttribute(name, lookup(node.getAttribute(name))); }
    });
  });
}

// the language switch (a <select id="lang"> in the page's bar): the choice kept in this browser, the page read anew
function drawSwitch() {
  var box = document.getElementById("lang");
  if (!box) { return; }
  ["en"].concat(LANGUAGES).forEach(function (code) {
    var o = document.createElement("option");
    o.value = code;
    o.textContent = NAMES[code];
    o.lang = code.replace("_", "-");
    box.appendChild(o);
  });
  box.value = LANGUAGES.indexOf(LANG) >= 0 ? LANG : "en";
  box.addEventListener("change", function () {
    try { localStorage.setItem(KEY, box.value); } catch (e) { /* storage refused: this visit only */ }
    location.reload();
  });
}

// (the static site's own scripts, classic ones, look their words up here: analyzer/site/static/transport.js)
window.DominoI18n = {_: _, ngettext: ngettext, lang: LANG};
document.documentElement.lang = LANG === PSEUDO ? "en" : LANG.replace("_", "-");
document.title = _(document.title);
translatePage(document.body);
drawSwitch();
