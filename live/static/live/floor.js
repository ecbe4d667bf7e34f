/* The live floor: an event of a table re-reads that table's tile (the server renders it, with the
   user's permissions); an event of no table re-reads every tile. A burst of events is one read. */
(function () {
  "use strict";
  var grid = document.getElementById("live-tiles");
  if (!grid) { return; }
  var base = grid.getAttribute("data-tiles");
  var pending = {}, timer = null;

  function replace(html) {
    var box = document.createElement("div");
    box.innerHTML = html;
    Array.prototype.forEach.call(box.querySelectorAll(".live-tile"), function (tile) {
      var old = document.getElementById(tile.id);
      if (old) { old.replaceWith(tile); } else { grid.appendChild(tile); }
      tile.classList.add("is-fresh");
    });
  }

  function flush() {
    timer = null;
    var tables = Object.keys(pending);
    pending = {};
    if (tables.indexOf("all") >= 0) { tables = [""]; }
    tables.forEach(function (id) {
      fetch(base + (id ? "?table=" + encodeURIComponent(id) : ""), { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) { if (html) { replace(html); } })
        .catch(function () { /* the next event, or a reload, reads it again */ });
    });
  }

  // A halt is drawn from the event itself at once (the tile's re-read follows): the pit boss
  // sees it without waiting for the server to render the tile.
  function drawHalt(msg) {
    var tile = document.getElementById("tile-" + msg.table);
    var halts = (msg.data && msg.data.halt) || [];
    if (!tile || !halts.length) { return; }
    var box = tile.querySelector(".live-halt") || document.createElement("div");
    box.className = "live-halt";
    box.setAttribute("role", "alert");
    box.textContent = "";
    var head = document.createElement("strong");
    head.textContent = grid.getAttribute("data-word-halt");
    box.appendChild(head);
    halts.forEach(function (h) {
      var p = document.createElement("p");
      p.textContent = h.text + " ";
      var money = [];
      if (h.paid) { money.push(grid.getAttribute("data-word-paid") + " " + h.paid); }
      if (h.owed) { money.push(grid.getAttribute("data-word-owed") + " " + h.owed); }
      if (money.length) {
        var span = document.createElement("span");
        span.className = "live-money";
        span.textContent = money.join(" · ");
        p.appendChild(span);
      }
      box.appendChild(p);
    });
    if (!box.parentNode) { tile.querySelector(".live-tile-head").after(box); }
    tile.classList.add("is-halted");
  }

  document.body.addEventListener("live:table_progress", function (e) { drawHalt(e.detail || {}); });

  document.body.addEventListener("live:event", function (e) {
    var table = e.detail && e.detail.table;
    var tables = e.detail && e.detail.data && e.detail.data.tables;
    if (!table && tables && tables.length) {  // a batch of findings: the tiles it names
      tables.forEach(function (id) { pending[String(id)] = true; });
      if (timer === null) { timer = window.setTimeout(flush, 50); }
      return;
    }
    // No tile shows a run or a notification (the bell and its toast do).
    if (!table && e.detail && (e.detail.kind === "audit_run" || e.detail.kind === "notification")) { return; }
    pending[table ? String(table) : "all"] = true;
    if (timer === null) { timer = window.setTimeout(flush, 50); }
  });
})();
