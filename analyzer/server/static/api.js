// Talking to the server: the one door of every script of the board's page (board.js, review.js, form.js, setup.js,
// problems.js) to the analyser; the page itself never judges a move.
// the run's access token: the server put it in the page (which it serves only to whoever brings it); the
// address loses its ?token= so it is neither bookmarked nor shown over a shoulder
import {_, LANG} from "./i18n.js";

var meta = document.querySelector("meta[name=board-token]");
var TOKEN = meta ? meta.getAttribute("content") : "";
(function () {
  var address = new URL(location.href);
  if (address.searchParams.has("token")) {
    address.searchParams.delete("token");
    history.replaceState(null, "", address.pathname + address.search + address.hash);
  }
}());

// api(route, body, signal): the ONE way any script of the page talks to the server (board.js, form.js,
// setup.js, problems.js call it, as window.DominoBoard.api). It POSTs ``body`` as JSON to /api/<route> and
// resolves (never rejects) with {ok, status, data}: data the parsed JSON answer ({error: words} when there is
// none). A page without a server (the static site) sets window.dominoTransport(route, body, signal) before or
// after this script loads: a function returning a Promise of {status, data} (status an HTTP code: 2xx is ok),
// which then answers every call instead of fetch; a rejected promise reads as the server not reached.
// Every call carries the page's language (``lang``): the server answers in it (its diagnostics, verdicts, analysis).
export function api(route, body, signal) {
  var UNREACHED = _("the server cannot be reached: your text is kept in this browser");
  body = Object.assign({lang: LANG}, body);
  var transport = window.dominoTransport;
  if (typeof transport === "function") {
    return Promise.resolve().then(function () { return transport(route, body, signal); }).then(function (r) {
      var code = r && typeof r.status === "number" ? r.status : 500;
      var data = r && r.data ? r.data : {error: _("no answer ({code})", {code: code})};
      return {ok: code >= 200 && code < 300, status: code, data: data};
    }, function (e) {
      return {ok: false, status: 0, data: {error: (e && e.name === "AbortError") ? _("cancelled") : UNREACHED}};
    });
  }
  return fetch("/api/" + route, {
    method: "POST", headers: {"Content-Type": "application/json", "Authorization": "Bearer " + TOKEN},
    body: JSON.stringify(body), signal: signal
  }).then(function (r) {
    return r.json().then(function (data) { return {ok: r.ok, status: r.status, data: data}; },
      function () { return {ok: false, status: r.status, data: {error: _("the server sent no JSON ({code})", {code: r.status})}}; });
  }, function () { return {ok: false, status: 0, data: {error: UNREACHED}}; });
}
