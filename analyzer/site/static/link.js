// A record in a link (docs/site.md): "#r=" the record's UTF-8 bytes deflated (raw DEFLATE) and base64url-encoded
// without padding, and "&m=g1.15" the move to open at (game 1, after 15 moves). The same codec as
// analyzer/notation/link.py, with the browser's CompressionStream("deflate-raw"). A link that cannot be read whole
// is refused with the reason (an Error whose message says why): a broken link opens nothing.
(function () {
  "use strict";
  var MAX_RECORD = 4 * 1024 * 1024;        // as link.py: no record is that long; a link is not a zip bomb

  function b64url(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i += 0x8000) {
      s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function unb64url(value) {
    if (!value) { throw new Error("the link carries no record (nothing after #r=)"); }
    var bad = value.match(/[^A-Za-z0-9_-]/);
    if (bad) { throw new Error("the link's record holds '" + bad[0] + "', which base64url never does (was the link cut or changed?)"); }
    if (value.length % 4 === 1) { throw new Error("the link's record is cut short (its base64url has a length no encoding gives)"); }
    var s = atob(value.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((value.length + 3) % 4));
    var bytes = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) { bytes[i] = s.charCodeAt(i); }
    return bytes;
  }

  function through(stream, bytes, limit) {
    var writer = stream.writable.getWriter();
    writer.write(bytes).catch(function () {});
    writer.close().catch(function () {});
    var reader = stream.readable.getReader(), parts = [], total = 0;
    function next() {
      return reader.read().then(function (r) {
        if (r.done) {
          var out = new Uint8Array(total), at = 0;
          parts.forEach(function (p) { out.set(p, at); at += p.length; });
          return out;
        }
        total += r.value.length;
        if (limit && total > limit) {
          reader.cancel().catch(function () {});
          throw new Error("the link's record inflates to more than 4 MB; no record is that long");
        }
        parts.push(r.value);
        return next();
      });
    }
    return next();
  }

  function encode(text) {
    return through(new CompressionStream("deflate-raw"), new TextEncoder().encode(text)).then(b64url);
  }

  function decode(value) {
    return Promise.resolve().then(function () {
      return through(new DecompressionStream("deflate-raw"), unb64url(value), MAX_RECORD);
    }).catch(function (e) {
      if (e && /4 MB|base64url|nothing after|cut short/.test(e.message)) { throw e; }
      throw new Error("the link's record is damaged or cut short (it does not inflate whole)");
    }).then(function (bytes) {
      try {
        return new TextDecoder("utf-8", {fatal: true, ignoreBOM: true}).decode(bytes);
      } catch (e) {
        throw new Error("the link's record is not UTF-8 text");
      }
    });
  }

  function fields(hash) {
    var out = {};
    (hash || "").replace(/^#/, "").split("&").forEach(function (part) {
      if (!part) { return; }
      var eq = part.indexOf("=");
      if (eq < 0) { throw new Error("the link's part '" + part.slice(0, 40) + "' is not name=value"); }
      var key = part.slice(0, eq);
      if (Object.prototype.hasOwnProperty.call(out, key)) { throw new Error("the link gives " + key + "= twice"); }
      out[key] = part.slice(eq + 1);
    });
    return out;
  }

  // {text, game, step} of a fragment (game from 1; null where the link names no move), or null where the
  // fragment carries no record at all; a rejected promise, its message the reason, where it cannot be read
  function read(hash) {
    return Promise.resolve().then(function () {
      var f = fields(hash);
      if (!("r" in f) && !("m" in f)) { return null; }
      if (!("r" in f)) { throw new Error("the link carries no record (no r= after its #)"); }
      var unknown = Object.keys(f).filter(function (k) { return k !== "r" && k !== "m"; });
      if (unknown.length) { throw new Error("the link has a part this page does not know: " + unknown.sort()[0] + "="); }
      var game = null, step = null;
      if ("m" in f) {
        var m = /^g([1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})$/.exec(f.m);
        if (!m) { throw new Error("the link's move '" + f.m.slice(0, 20) + "' is not of the form g1.15 (game 1, after 15 moves)"); }
        game = Number(m[1]); step = Number(m[2]);
      }
      return decode(f.r).then(function (text) { return {text: text, game: game, step: step}; });
    });
  }

  // the fragment that opens text at a move (game from 1, step the moves played; game null: its start)
  function fragment(text, game, step) {
    return encode(text).then(function (r) {
      return "#r=" + r + (game ? "&m=g" + game + "." + (step || 0) : "");
    });
  }

  window.DominoLink = {encode: encode, decode: decode, read: read, fragment: fragment};
}());
