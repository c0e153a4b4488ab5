"use strict";
(function () {
  var problems = Array.prototype.slice.call(document.querySelectorAll(".problem"));
  var current = 0;
  function show(k) {
    if (k < 0 || k >= problems.length) { return; }
    problems[current].hidden = true;
    current = k;
    problems[current].hidden = false;
    problems[current].querySelector(".reveal").focus();
  }
  function reveal() {
    var p = problems[current];
    var button = p.querySelector(".reveal");
    p.querySelector(".answer").hidden = false;
    button.setAttribute("aria-expanded", "true");
    button.hidden = true;
    var next = p.querySelector(".next");
    (next.disabled ? p.querySelector(".prev") : next).focus();
  }
  problems.forEach(function (p, k) {
    p.querySelector(".reveal").addEventListener("click", reveal);
    p.querySelector(".next").addEventListener("click", function () { show(k + 1); });
    p.querySelector(".prev").addEventListener("click", function () { show(k - 1); });
  });
  document.addEventListener("keydown", function (e) {
    if (!problems.length || e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.key === " " && !problems[current].querySelector(".answer").hidden) { return; }
    if (e.key === " ") { e.preventDefault(); reveal(); }
    else if (e.key === "n" || e.key === "ArrowRight") { show(current + 1); }
    else if (e.key === "p" || e.key === "ArrowLeft") { show(current - 1); }
  });
}());
