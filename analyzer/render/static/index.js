// The archive index: sort the tables by a column (click or Enter on its heading button).
"use strict";
(function () {
  function cellValue(row, k) {
    var cell = row.cells[k];
    var key = cell.getAttribute("data-sort");
    var text = key !== null ? key : cell.textContent.trim();
    var num = Number(text);
    return text !== "" && !isNaN(num) ? num : text.toLowerCase();
  }
  function sortBy(table, k, button) {
    var head = button.closest("th");
    var ascending = head.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("thead th").forEach(function (th) { th.removeAttribute("aria-sort"); });
    head.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, i) { row._order = i; });
    rows.sort(function (a, b) {
      var x = cellValue(a, k), y = cellValue(b, k);
      var c = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1);
      return (ascending ? c : -c) || a._order - b._order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, k) {
      var button = th.querySelector("button");
      if (button) {
        button.addEventListener("click", function () { sortBy(table, k, button); });
      }
    });
  });
})();
