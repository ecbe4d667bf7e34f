/* Drills: the start form, the keyboard-first settlement entry with its chip tray, the number
   keys of the procedure drill, and the charts. Every page works without this file too: the
   forms post plain fields (the payout rows carry an "order" field that this script fills). */
(function () {
  "use strict";

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function typing(el) { return el && (el.tagName === "INPUT" && !/radio|checkbox|button|submit/.test(el.type) || el.tagName === "TEXTAREA" || el.tagName === "SELECT"); }
  function plainKey(e) { return !e.ctrlKey && !e.metaKey && !e.altKey; }

  // Decimal strings to integer cents and back: amounts are never binary floats here either.
  function toCents(text) {
    var m = /^\s*(\d+)(?:[.,](\d{1,2}))?\s*$/.exec(String(text || ""));
    if (!m) return null;
    return parseInt(m[1], 10) * 100 + (m[2] ? parseInt((m[2] + "0").slice(0, 2), 10) : 0);
  }
  function fromCents(c) {
    var whole = Math.floor(c / 100), rest = c % 100;
    return rest ? whole + "." + (rest < 10 ? "0" : "") + rest : String(whole);
  }
  function group(text) { return text.replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  /* --- the start form ------------------------------------------------------------------------ */
  function startForm() {
    var form = $("#start-form");
    if (!form) return;
    form.classList.add("js-on");
    document.body.classList.add("js-on");
    var tables = JSON.parse(form.dataset.tables || "{}");
    var game = $("#id_game", form), table = $("#id_table", form);
    function refresh() {
      var g = game.value, variant = g.split(":")[0];
      var kind = ($("input[name=kind]:checked", form) || {}).value;
      var allowed = tables[g] || [];
      $$("option", table).forEach(function (o) { o.hidden = o.disabled = allowed.indexOf(o.value) < 0; });
      if (allowed.indexOf(table.value) < 0 && allowed.length) table.value = allowed[0];
      $$(".feature-group", form).forEach(function (el) { el.hidden = el.dataset.variant !== variant; });
      $$("[data-only]", form).forEach(function (el) {
        var only = el.dataset.only.split(" ");  // "<game> … <kind>": shown for those games' drills of that kind
        var onlyKind = only.pop();
        el.hidden = !(only.indexOf(variant) >= 0 && kind === onlyKind);
      });
    }
    form.addEventListener("change", refresh);
    refresh();
  }

  /* --- payout: settle every wager, in order ----------------------------------------------------- */
  function payoutForm() {
    var form = $("#settle-form");
    if (!form) return;
    form.classList.add("js-on");
    var rows = $$(".sheet-row", form);
    var chips = (form.dataset.chips || "").split(/\s+/).filter(Boolean).map(toCents).sort(function (a, b) { return b - a; });
    var colours = {};  // a chip's class in the one palette, as the tray's chip of that value carries it
    $$(".tray-chip[data-colour]", form).forEach(function (b) { colours[toCents(b.dataset.value)] = b.dataset.colour; });
    var current = null, direction = 1, counter = 0, history = [];
    var paidList = $(".paid-order", form), builtStack = $(".built-stack", form), builtAmount = $(".built-amount", form);

    function rowOf(el) { return el && el.closest ? el.closest(".sheet-row") : null; }
    function result(row) { var r = $("input[type=radio]:checked", row); return r ? r.value : ""; }
    function amountInput(row) { return $("input.amount", row); }
    function label(row) { return $("legend .what", row).textContent.replace(/\s+/g, " ").trim(); }

    function highlight(row) {
      $$(".wager.hl").forEach(function (w) { w.classList.remove("hl"); });
      $$(".spot.active").forEach(function (s) { s.classList.remove("active"); });
      if (!row) return;
      var wager = document.querySelector('.wager[data-wager="' + row.dataset.key + '"]');
      if (wager) { wager.classList.add("hl"); var spot = wager.closest(".spot"); if (spot) spot.classList.add("active"); }
    }

    function activate(row, focus) {
      if (!row) return;
      if (current && current !== row) current.classList.remove("active");
      current = row;
      row.classList.add("active");
      highlight(row);
      drawBuilt();
      if (focus) {
        var target = $("input[type=radio]:checked", row) || $("input[type=radio]", row);
        target.focus();
        row.scrollIntoView({ block: "nearest" });
      }
    }

    // A take may carry its amount, as on the round form (the wager itself, or what was taken);
    // only "leave" moves no money.
    function syncAmount(row) {
      var input = amountInput(row), r = result(row);
      input.disabled = r === "leave";
      if (input.disabled) input.value = "";
    }

    // An amount typed (or a chip put down) on a wager with no result yet means "pay"; on a take it
    // is the take's amount; pay and take never turn into each other unless P or T is pressed.
    // After "leave" there is no amount: false, and the row shakes.
    function amountAllowed(row) {
      var r = result(row);
      if (!r) { $('input[value="pay"]', row).checked = true; syncAmount(row); return true; }
      if (r === "leave") { row.classList.add("shake"); return false; }
      return true;
    }

    function setResult(row, value) {
      var radio = $('input[type=radio][value="' + value + '"]', row);
      if (!radio) return;
      radio.checked = true;
      syncAmount(row);
      if (value === "pay" || value === "take") { var input = amountInput(row); input.focus(); input.select(); }
      else radio.focus();
      drawBuilt();
    }

    function drawBuilt() {
      builtStack.innerHTML = "";
      var row = current, cents = row ? toCents(amountInput(row).value) : null;
      builtAmount.textContent = cents ? group(fromCents(cents)) : "";
      builtStack.parentNode.classList.toggle("has-amount", !!cents);
      if (!cents) return;
      var left = cents;
      chips.forEach(function (chip) {
        var n = Math.floor(left / chip);
        if (!n) return;
        left -= n * chip;
        var col = document.createElement("span");
        col.className = "col";
        var shown = Math.min(n, 8);
        col.style.setProperty("--h", shown - 1);
        for (var k = 0; k < shown; k++) {
          var c = document.createElement("span");
          c.className = "pchip " + (colours[chip] || "chip-c-other");
          c.style.setProperty("--k", k);
          col.appendChild(c);
        }
        col.title = n + " × " + fromCents(chip);
        builtStack.appendChild(col);
      });
    }

    function renderPaid() {
      paidList.innerHTML = "";
      var done = rows.filter(function (r) { return r.classList.contains("done"); })
        .sort(function (a, b) { return +$("input.order", a).value - +$("input.order", b).value; });
      if (!done.length) {
        var li = document.createElement("li");
        li.className = "muted small empty-note";
        li.textContent = paidList.dataset.empty || "–";
        paidList.appendChild(li);
      }
      done.forEach(function (row) {
        var li = document.createElement("li"), r = result(row), amount = amountInput(row).value;
        var word = $('input[value="' + r + '"]', row).parentNode.dataset.word;
        li.textContent = label(row) + " — " + word + (r !== "leave" && toCents(amount) ? " " + group(fromCents(toCents(amount))) : "");
        paidList.appendChild(li);
      });
    }

    function problem(row) {
      var r = result(row);
      if (!r) return "result";
      if (r === "pay" && !toCents(amountInput(row).value)) return "amount";
      return "";
    }

    function nextRow(from) {
      var i = rows.indexOf(from);
      for (var step = 1; step < rows.length; step++) {
        var j = i + direction * step;
        if (j >= 0 && j < rows.length && !rows[j].classList.contains("done")) return rows[j];
      }
      for (var k = 0; k < rows.length; k++) {
        var m = i - direction * (k + 1);
        if (m >= 0 && m < rows.length && !rows[m].classList.contains("done")) return rows[m];
      }
      return null;
    }

    function settle(row) {
      var wrong = problem(row);
      if (wrong === "result") { $("input[type=radio]", row).focus(); row.classList.add("shake"); return; }
      if (wrong === "amount") { amountInput(row).focus(); return; }
      var order = $("input.order", row);
      if (!row.classList.contains("done")) {
        counter += 1;
        order.value = counter;
        row.classList.add("done");
        history.push(row);
        if (history.length === 1) direction = rows.indexOf(row) >= rows.length / 2 ? -1 : 1;
      }
      $(".order-badge", row).textContent = "#" + order.value;
      renderPaid();
      var next = nextRow(row);
      if (next) activate(next, true);
      else { $("#submit-round").focus(); highlight(null); }
    }

    function undo() {
      var row = history.pop();
      if (!row) return;
      row.classList.remove("done");
      $("input.order", row).value = "";
      $(".order-badge", row).textContent = "";
      counter -= 1;
      renderPaid();
      activate(row, true);
    }

    paidList.dataset.empty = ($(".empty-note", paidList) || {}).textContent || "";
    rows.forEach(function (row) {
      syncAmount(row);
      row.addEventListener("focusin", function () { activate(row, false); });
      row.addEventListener("change", function () { syncAmount(row); drawBuilt(); });
      row.addEventListener("input", drawBuilt);
      $(".settle-btn", row).addEventListener("click", function () { settle(row); });
      row.addEventListener("animationend", function () { row.classList.remove("shake"); });
    });

    $$(".tray-chip", form).forEach(function (chip) {
      chip.addEventListener("click", function () {
        var row = current || rows[0];
        if (!row) return;
        if (!amountAllowed(row)) return;
        var input = amountInput(row);
        input.value = fromCents((toCents(input.value) || 0) + toCents(chip.dataset.value));
        activate(row, false);
      });
    });
    $(".clear-amount", form).addEventListener("click", function () { if (current) { amountInput(current).value = ""; drawBuilt(); } });
    $(".undo", form).addEventListener("click", undo);

    form.addEventListener("keydown", function (e) {
      if (!plainKey(e)) return;
      var row = rowOf(document.activeElement) || current;
      var key = window.shortcutKey(e);
      var inAmount = document.activeElement && document.activeElement.classList.contains("amount");
      if (key === "Enter") {
        if (document.activeElement && document.activeElement.type === "submit") return;
        if (document.activeElement && document.activeElement.classList.contains("tray-chip")) return;
        if (rowOf(document.activeElement)) { e.preventDefault(); settle(row); }
        return;
      }
      if (key === "ArrowDown" || key === "ArrowUp") {
        if (!rowOf(document.activeElement)) return;
        e.preventDefault();
        var i = rows.indexOf(row) + (key === "ArrowDown" ? 1 : -1);
        if (i >= 0 && i < rows.length) { direction = key === "ArrowDown" ? 1 : -1; activate(rows[i], true); }
        return;
      }
      if (!row || !rowOf(document.activeElement)) {
        if (key === "u") { e.preventDefault(); undo(); }
        return;
      }
      if (key === "p" || key === "t" || key === "l") {
        e.preventDefault();
        setResult(row, { p: "pay", t: "take", l: "leave" }[key]);
      } else if (key === "u") {
        e.preventDefault(); undo();
      } else if (key === "c") {
        e.preventDefault(); amountInput(row).value = ""; drawBuilt();
      } else if (/^[0-9.,]$/.test(key) && !inAmount) {
        e.preventDefault();
        if (!amountAllowed(row)) return;
        var input = amountInput(row);
        input.focus();
        input.value = input.value + (key === "," ? "." : key);
        drawBuilt();
      } else if (inAmount && key.length === 1 && !/^[0-9.,]$/.test(key)) {
        e.preventDefault();
      }
    });

    form.addEventListener("submit", function (e) {
      var settled = rows.filter(function (r) { return result(r); });
      if (!settled.length) { e.preventDefault(); activate(rows[0], true); return; }
      rows.forEach(function (r) {
        if (result(r) && !$("input.order", r).value) { counter += 1; $("input.order", r).value = counter; }
        amountInput(r).disabled = false;
      });
    });

    if (rows.length) activate(rows[0], true);
    renderPaid();
  }

  /* --- procedure: number keys choose -------------------------------------------------------------- */
  function procedure() {
    var form = $("#choices");
    if (!form) return;
    document.addEventListener("keydown", function (e) {
      if (!plainKey(e) || typing(document.activeElement)) return;
      if (!/^[1-9]$/.test(e.key)) return;
      var button = $('.choice[data-key="' + e.key + '"]', form);
      if (button) { e.preventDefault(); button.focus(); button.click(); }
    });
  }

  /* --- strategy trainer: the option's letter (H S D P; F, 0-9 for ochko's Bet) plays it ---------- */
  function strategyKeys() {
    var form = $("#strategy-choices");
    if (!form) return;
    document.addEventListener("keydown", function (e) {
      if (!plainKey(e) || typing(document.activeElement) || e.key.length !== 1) return;
      var key = e.key.toUpperCase();
      var button = $$(".choice", form).filter(function (b) { return b.dataset.key === key; })[0];
      if (button) { e.preventDefault(); button.focus(); button.click(); }
    });
  }

  /* --- charts (Chart.js, vendored) -------------------------------------------------------------- */
  function charts() {
    if (typeof Chart === "undefined") return;
    var css = getComputedStyle(document.documentElement);
    var felt = "#1b8456", gold = "#c9a74a", muted = css.getPropertyValue("--muted").trim() || "#5f6b64";
    Chart.defaults.font.family = css.fontFamily;
    Chart.defaults.color = muted;
    var roundData = $("#round-chart-data"), historyData = $("#history-chart-data");
    if (roundData) {
      var d = JSON.parse(roundData.textContent);
      new Chart($("#round-chart"), {
        data: {
          labels: d.labels,
          datasets: [
            { type: "line", label: $("#round-chart").dataset.acc || "accuracy %", data: d.accuracy, yAxisID: "y", borderColor: felt, backgroundColor: felt, tension: .25, pointRadius: 4 },
            { type: "bar", label: $("#round-chart").dataset.time || "seconds", data: d.seconds, yAxisID: "y2", backgroundColor: "rgba(201,167,74,.45)", borderRadius: 4 }
          ]
        },
        options: chartOptions("%", "s")
      });
    }
    if (historyData) {
      var h = JSON.parse(historyData.textContent);
      new Chart($("#history-chart"), {
        data: {
          labels: h.labels,
          datasets: [
            { type: "line", label: $("#history-chart").dataset.acc || "accuracy %", data: h.accuracy, yAxisID: "y", borderColor: felt, backgroundColor: felt, tension: .25, pointRadius: 4 },
            { type: "bar", label: $("#history-chart").dataset.pace || "rounds / hour", data: h.pace, yAxisID: "y2", backgroundColor: "rgba(201,167,74,.45)", borderRadius: 4 }
          ]
        },
        options: chartOptions("%", "/h")
      });
    }
    function chartOptions(left, right) {
      return {
        responsive: true, maintainAspectRatio: false, animation: false,
        interaction: { mode: "index", intersect: false },
        scales: {
          y: { min: 0, max: 100, ticks: { callback: function (v) { return v + " " + left; } }, grid: { color: "rgba(0,0,0,.06)" } },
          y2: { position: "right", beginAtZero: true, ticks: { callback: function (v) { return v + " " + right; } }, grid: { display: false } },
          x: { grid: { display: false } }
        },
        plugins: { legend: { position: "bottom" } }
      };
    }
  }

  function ready() { startForm(); payoutForm(); procedure(); strategyKeys(); charts(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
