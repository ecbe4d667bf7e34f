/* The dealer's round form, a little faster with JavaScript (everything also works without it):
   cards drawn as they are typed, stake chips, p/t/l/o in a result, Alt+1…6 to a box, Ctrl+Enter
   to save, a second player's rows shown as soon as he is entered, empty boxes skipped by Tab.
   No framework; htmx swaps the form after a check and this file listens by delegation.
   What is the same for every game lives here, and what a form asks by its data attributes (lettered
   stakes, a leave without an amount); blackjack's hands are in round_form_blackjack.js, which the
   blackjack form loads beside this file. */
(function () {
  "use strict";

  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var RANKS = { "6": "6", "7": "7", "8": "8", "9": "9", "T": "10", "10": "10", "J": "J", "Q": "Q", "K": "K", "A": "A" };
  var RESULT_KEYS = { p: "pay", t: "take", l: "leave" };

  /* A card as typed (TS, 10d, ah) → {rank, suit, red} or null. The server says which are wrong. */
  function parseCard(token) {
    var t = token.trim().toUpperCase();
    var m = /^(10|[6-9TJQKA])([SHDC])$/.exec(t);  // the 36-card pack; blackjack draws its own cards
    if (!m) return null;
    return { rank: RANKS[m[1]], suit: SUITS[m[2]], red: m[2] === "H" || m[2] === "D", code: t };
  }

  /* A card on the felt: `card` as the game's own reader parsed `token` ({rank, suit, red}), or
     null for a token it cannot read (drawn as typed, marked bad); `extra` more classes. */
  function cardFace(card, token, extra) {
    var el = document.createElement("span");
    var r = document.createElement("span");
    var s = document.createElement("span");
    r.className = "r";
    s.className = "s";
    if (card) {
      el.className = "pcard " + (card.red ? "red" : "black") + (extra ? " " + extra : "");
      el.title = card.rank + card.suit;
      r.textContent = card.rank;
      r.setAttribute("data-suit", card.suit);
      s.textContent = card.suit;
    } else {
      el.className = "pcard bad" + (extra ? " " + extra : "");
      el.title = token;
      r.textContent = token;
    }
    el.appendChild(r);
    el.appendChild(s);
    return el;
  }

  function cardEl(token, dark) {
    return cardFace(parseCard(token), token, dark ? "dark" : "");
  }

  function tokens(text) {
    return (text || "").split(/[\s,;]+/).filter(Boolean);
  }

  // For the other games' scripts (round_form_blackjack.js), which read their own packs.
  window.RoundForm = { cardFace: cardFace, tokens: tokens };

  /* Redraw the card row of a box (its cards, then its dark card laid across) or of the dealer. */
  function renderCards(form, input) {
    var spot = input.closest(".spot");
    var row;
    if (spot) {
      row = spot.querySelector(".card-row");
      var cards = spot.querySelector("input[name$='_cards']");
      var dark = spot.querySelector("input[name$='_dark']");
      row.replaceChildren();
      tokens(cards && cards.value).forEach(function (t) { row.appendChild(cardEl(t, false)); });
      tokens(dark && dark.value).slice(0, 1).forEach(function (t) { row.appendChild(cardEl(t, true)); });
    } else {
      row = form.querySelector("[data-cards-for='" + input.id + "']");
      if (!row) return;
      row.replaceChildren();
      tokens(input.value).forEach(function (t) { row.appendChild(cardEl(t, false)); });
    }
  }

  function stakePrefix(stakeId) { return "s" + stakeId + "_"; }

  function field(form, name) { return form.querySelector("[name='" + name + "']"); }

  function stakeUsed(form, stakeId) {
    var p = stakePrefix(stakeId);
    return ["player", "ante", "dealer_bet", "bet"].some(function (k) {
      var f = field(form, p + k);
      return f && f.value.trim() !== "";
    }) || (field(form, p + "fold") || {}).checked === true;
  }

  function chip(cls, text) {
    var c = document.createElement("span");
    c.className = "chip-mini " + cls;
    c.textContent = text;
    return c;
  }

  function shortAmount(v) {
    var n = Number(v.replace(/[\s,]/g, ""));
    if (!isFinite(n) || n <= 0) return null;
    if (n >= 1000 && n % 1000 === 0) return (n / 1000) + "K";
    return String(v).trim();
  }

  /* Chips on the stake's line, a second/third player's settlement rows, the box's state. */
  function refreshStake(form, stakeId) {
    var p = stakePrefix(stakeId);
    var holder = form.querySelector("[data-chips-for='" + stakeId + "']");
    if (holder) {
      holder.replaceChildren();
      var ante = field(form, p + "ante"), bet = field(form, p + "bet"), db = field(form, p + "dealer_bet");
      var fold = field(form, p + "fold");
      var a = ante && shortAmount(ante.value), b = bet && shortAmount(bet.value), d = db && shortAmount(db.value);
      if (a) holder.appendChild(chip("ante", a));
      if (b && !(fold && fold.checked)) holder.appendChild(chip("bet", b));
      if (d) holder.appendChild(chip("db", d));
    }
    var used = stakeUsed(form, stakeId);
    var settle = form.querySelector("[data-settle-for='" + stakeId + "']");
    if (settle && used) settle.hidden = false;
    var betRow = settle && settle.querySelector(".settle-row[data-wager='bet']");
    if (betRow) {
      var folded = (field(form, p + "fold") || {}).checked === true;
      if (!folded) betRow.removeAttribute("data-folded");
      else if (!betRow.querySelector("select").value) betRow.setAttribute("data-folded", "");
    }
    var dbRow = settle && settle.querySelector(".settle-row[data-wager='dealer_bet']");
    if (dbRow) {
      var dbField = field(form, p + "dealer_bet");
      if (dbField && dbField.value.trim()) dbRow.removeAttribute("data-needs-db");
      else if (!dbRow.querySelector("select").value) dbRow.setAttribute("data-needs-db", "");
    }
    var spot = form.querySelector("#box-" + stakeId.charAt(0));
    if (spot) refreshSpot(form, spot);
  }

  /* An empty box costs three Tab stops (player, Ante, dealer bet of its first stake), not twenty. */
  function refreshSpot(form, spot) {
    var n = spot.getAttribute("data-box");
    var inPlay = ["a", "b", "c"].some(function (l) { return stakeUsed(form, n + l); });
    var cards = field(form, "b" + n + "_cards");
    var hasCards = cards && cards.value.trim() !== "";
    spot.classList.toggle("in-play", inPlay);
    var keep = ["s" + n + "a_player", "s" + n + "a_ante", "s" + n + "a_dealer_bet"];
    spot.querySelectorAll("input, select, button, summary").forEach(function (el) {
      if (el.classList.contains("owed-chip")) return;
      var skip = !inPlay && !hasCards && keep.indexOf(el.name) === -1;
      if (skip) el.setAttribute("tabindex", "-1");
      else if (el.getAttribute("tabindex") === "-1") el.removeAttribute("tabindex");
    });
  }

  function fillOwed(row) {
    if (!row || !row.hasAttribute("data-owed-result")) return false;
    var select = row.querySelector("select");
    var amount = row.querySelector("input");
    select.value = row.getAttribute("data-owed-result");
    // A game may log a leave without an amount (its form says so); else with the wager it returns.
    amount.value = select.value === "leave" && leaveMovesNothing(row.closest("form")) ? "" : row.getAttribute("data-owed-amount");
    select.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  }

  /* What the game's form asks of this script (data attributes its form class sets). */
  function letteredStakes(form) { return form.hasAttribute("data-lettered-stakes"); }
  function leaveMovesNothing(form) { return form.hasAttribute("data-leave-moves-nothing"); }

  function init(form) {
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    if (!letteredStakes(form)) return;
    form.querySelectorAll("[data-settle-for]").forEach(function (el) {
      refreshStake(form, el.getAttribute("data-settle-for"));
    });
    form.querySelectorAll(".spot").forEach(function (spot) { refreshSpot(form, spot); });
  }

  function currentForm() { return document.getElementById("round-form"); }

  document.addEventListener("input", function (ev) {
    var form = ev.target.closest && ev.target.closest("#round-form");
    if (!form || !letteredStakes(form)) return;
    var t = ev.target;
    if (t.classList.contains("cards-input")) renderCards(form, t);
    var m = /^s(\d[abc])_/.exec(t.name || "");
    if (m) refreshStake(form, m[1]);
    var spot = t.closest(".spot");
    if (spot && /_cards$/.test(t.name)) refreshSpot(form, spot);
  });

  document.addEventListener("change", function (ev) {
    var t = ev.target;
    var form = t.closest && t.closest("#round-form");
    if (!form) return;
    if (!letteredStakes(form)) return;
    var m = /^s(\d[abc])_/.exec(t.name || "");
    if (m) refreshStake(form, m[1]);
    if (t.matches("select.result")) {
      var row = t.closest(".settle-row");
      var amount = row && row.querySelector("input");
      if (amount && t.value === "leave" && leaveMovesNothing(form)) amount.value = "";
    }
  });

  document.addEventListener("click", function (ev) {
    var chipButton = ev.target.closest && ev.target.closest(".owed-chip[data-fill]");
    if (chipButton) {
      ev.preventDefault();
      var row = chipButton.closest(".settle-row");
      if (fillOwed(row)) row.querySelector("select").focus();
      return;
    }
    var goto = ev.target.closest && ev.target.closest("a.goto");
    if (goto) {
      var target = document.getElementById(goto.getAttribute("href").slice(1));
      if (target) {
        ev.preventDefault();
        var details = target.closest("details");
        if (details) details.open = true;
        target.focus();
        target.scrollIntoView({ block: "center", behavior: "smooth" });
      }
    }
  });

  document.addEventListener("keydown", function (ev) {
    var form = currentForm();
    if (!form) return;
    var t = ev.target;
    var inForm = form.contains(t);
    // Alt+1…6: to a box; Alt+D: to the dealer's cards.
    if (ev.altKey && !ev.ctrlKey && !ev.metaKey) {
      var key = window.shortcutKey(ev).toLowerCase();
      var target = null;
      if (/^[1-7]$/.test(key)) target = field(form, "s" + key + "a_player") || field(form, "s" + key + "_player");
      else if (key === "d") target = field(form, "dealer_cards") || field(form, "dealer_up");
      if (target) { ev.preventDefault(); target.focus(); return; }
    }
    // Ctrl+Enter (or Cmd+Enter): save, when the round was checked and may be saved.
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      var save = form.querySelector("button[data-action='save']");
      if (save) { ev.preventDefault(); form.requestSubmit(save); }
      return;
    }
    if (!inForm) return;
    var inResult = t.matches("select.result");
    var inAmount = t.matches(".settle-row input");
    if ((inResult || inAmount) && !ev.ctrlKey && !ev.altKey && !ev.metaKey) {
      var k = window.shortcutKey(ev).toLowerCase();
      var row = t.closest(".settle-row");
      if (k === "o") { ev.preventDefault(); fillOwed(row); return; }
      if (inResult && RESULT_KEYS[k]) {
        ev.preventDefault();
        t.value = RESULT_KEYS[k];
        t.dispatchEvent(new Event("change", { bubbles: true }));
        return;
      }
      if (inResult && (k === "-" || k === "backspace" || k === "delete")) {
        ev.preventDefault();
        t.value = "";
        t.dispatchEvent(new Event("change", { bubbles: true }));
        return;
      }
    }
    // Enter in a select checks the round, as it does in a text field.
    if (ev.key === "Enter" && t.tagName === "SELECT") {
      ev.preventDefault();
      form.requestSubmit(form.querySelector("button.default-submit"));
    }
  });

  // The sticky Check bar never covers the field being typed: a field that takes the focus (by Tab,
  // Alt+box, a click) under the bar is scrolled up until it clears it (issue #20: at 1024×768 the
  // bar covered Box 1's Cards field). The stylesheet's scroll-padding does most of this; this
  // catches what the browser's own focus scrolling leaves behind the bar.
  document.addEventListener("focusin", function (ev) {
    var t = ev.target;
    if (!t || !t.closest || t.closest(".action-bar") || !/^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(t.tagName)) return;
    var bar = document.querySelector(".action-bar");
    if (!bar) return;
    var barTop = bar.getBoundingClientRect().top, box = t.getBoundingClientRect();
    if (box.bottom > barTop - 8 && box.top < window.innerHeight) window.scrollBy(0, box.bottom - barTop + 16);
  });

  // After htmx swapped in the checked form: set it up and bring the engine's verdict into view.
  document.addEventListener("htmx:after:swap", function () {
    var form = currentForm();
    init(form);
    // A change of layout (a split): straight on to the field the server named.
    var next = form && form.dataset.focus && document.getElementById(form.dataset.focus);
    if (next) { next.focus(); return; }
    var panel = document.getElementById("check-panel");
    var save = form && form.querySelector("button[data-action='save']");
    if (panel) panel.scrollIntoView({ block: "start", behavior: "smooth" });
    if (save && form.querySelector(".check-panel.is-clean")) save.focus({ preventScroll: true });
    else if (panel) panel.focus({ preventScroll: true });
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(currentForm()); });
  } else {
    init(currentForm());
  }
})();
