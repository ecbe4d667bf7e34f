/* The blackjack round form, a little faster with JavaScript (everything also works without it):
   each hand's cards drawn as they are typed (a double's card laid across), the split button shown
   when the hand holds a pair and the box may have another hand, insurance and even money shown
   when the dealer's up card is an ace, the bet chips on each box, empty boxes skipped by Tab.
   In a hand's cards the seed's keys: before a card H hit (type the card), S stand (on to the next
   hand), D double (the next card is the double); P split, anywhere (no card has a P). round_form.js does the rest (results,
   Ctrl+Enter, Alt+1…n, htmx). */
(function () {
  "use strict";

  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var NAMES = { T: "10", "10": "10" };
  var VALUE = { T: 10, J: 10, Q: 10, K: 10, A: 1 };

  function form() {
    var f = document.getElementById("round-form");
    return f && f.dataset.variant === "blackjack" ? f : null;
  }

  /* A card as typed (TS, 10d, ah) → {rank, suit, red, value} or null. The server says which are wrong. */
  function parseCard(token) {
    var m = /^(10|[2-9TJQKA])([SHDC])$/.exec((token || "").trim().toUpperCase());
    if (!m) return null;
    var r = m[1] === "10" ? "T" : m[1];
    return { rank: NAMES[r] || r, suit: SUITS[m[2]], red: m[2] === "H" || m[2] === "D", value: VALUE[r] || Number(r) };
  }

  // Drawn and split as round_form.js does (loaded first); only the pack differs.
  function tokens(text) { return window.RoundForm.tokens(text); }

  function cardEl(token, extra) { return window.RoundForm.cardFace(parseCard(token), token, extra); }

  function own(el, selector) {
    // The first match that belongs to this hand, not to one of its split halves.
    var hand = el.closest(".bj-hand") === el ? el : null;
    var found = el.querySelectorAll(selector);
    for (var i = 0; i < found.length; i++) {
      if (found[i].closest(".bj-hand") === (hand || el)) return found[i];
    }
    return null;
  }

  function handInput(hand) { return own(hand, ".fld-hand-cards input.cards-input"); }
  function doubleBox(hand) { return own(hand, ".double-check input"); }

  /* Redraw a hand's cards (those it holds from before its split, then those typed), its double, its
     split button; then its two halves, whose first cards come from this hand. */
  function renderHand(hand) {
    var row = own(hand, ".card-row");
    var input = handInput(hand);
    if (!row || !input) return;
    var inherited = tokens(row.getAttribute("data-inherited"));
    var typed = tokens(input.value);
    var dbl = doubleBox(hand);
    var doubled = !!(dbl && dbl.checked) && !hand.classList.contains("is-split");
    row.replaceChildren();
    inherited.forEach(function (t) { row.appendChild(cardEl(t, "inherited")); });
    typed.forEach(function (t, i) { row.appendChild(cardEl(t, doubled && i === typed.length - 1 ? "across" : "")); });
    hand.classList.toggle("is-doubled", doubled);
    var doubleRow = own(hand, ".settle-row[data-wager='double']");
    if (doubleRow) toggleRow(doubleRow, doubled, "data-needs-double");
    var whole = inherited.concat(typed);
    var split = own(hand, ".split-btn");
    if (split) split.hidden = !canSplit(hand, whole);
    if (hand.classList.contains("is-split")) {
      var halves = own(hand, ".bj-split-row");
      if (halves) {
        Array.prototype.forEach.call(halves.children, function (child, k) {
          var childRow = own(child, ".card-row");
          if (childRow) childRow.setAttribute("data-inherited", whole[k] || "");
          renderHand(child);
        });
      }
    }
  }

  function canSplit(hand, whole) {
    if (hand.classList.contains("is-split") || whole.length !== 2) return false;
    var a = parseCard(whole[0]), b = parseCard(whole[1]);
    if (!a || !b || a.value !== b.value) return false;
    var spot = hand.closest(".spot");
    var f = hand.closest("form");
    var most = Number(f.querySelector("[data-max-hands]").getAttribute("data-max-hands"));
    return Number(spot.getAttribute("data-leaves")) < most;
  }

  /* A settlement row is shown once its wager exists (or it holds something). */
  function toggleRow(row, exists, attr) {
    var select = row.querySelector("select");
    var amount = row.querySelector("input");
    if (exists || (select && select.value) || (amount && amount.value)) row.removeAttribute(attr);
    else row.setAttribute(attr, "");
  }

  function renderDealer(f) {
    var row = f.querySelector("[data-dealer-row]");
    if (!row) return;
    var up = f.querySelector("[name='dealer_up']"), hole = f.querySelector("[name='dealer_hole']");
    var draws = f.querySelector("[name='dealer_draws']");
    row.replaceChildren();
    tokens(up && up.value).slice(0, 1).forEach(function (t) { row.appendChild(cardEl(t, "")); });
    tokens(hole && hole.value).slice(0, 1).forEach(function (t) { row.appendChild(cardEl(t, "hole")); });
    tokens(draws && draws.value).forEach(function (t) { row.appendChild(cardEl(t, "")); });
    var card = parseCard(tokens(up && up.value)[0]);
    var ace = !!card && card.rank === "A";
    f.querySelector(".felt-table").classList.toggle("ace-up", ace);
    f.querySelectorAll(".bj-spot").forEach(function (spot) {
      var offer = spot.querySelector(".offer");
      if (!offer) return;
      var held = Array.prototype.some.call(offer.querySelectorAll("input"), function (i) {
        return i.type === "checkbox" ? i.checked : i.value.trim() !== "";
      });
      offer.hidden = !(ace || held || offer.querySelector(".has-problem"));
    });
  }

  function chip(cls, text, title) {
    var c = document.createElement("span");
    c.className = "chip-mini " + cls;
    c.textContent = text;
    if (title) c.title = title;
    return c;
  }

  function shortAmount(v) {
    var n = Number((v || "").replace(/[\s,]/g, ""));
    if (!isFinite(n) || n <= 0) return null;
    if (n >= 1000 && n % 1000 === 0) return (n / 1000) + "K";
    return String(v).trim();
  }

  function value(f, name) {
    var el = f.querySelector("[name='" + name + "']");
    if (!el) return "";
    return el.type === "checkbox" ? (el.checked ? "on" : "") : el.value.trim();
  }

  /* The box's chips, its insurance and jackpot rows, whether it is in play, what Tab visits. */
  function refreshBox(f, spot) {
    var n = spot.getAttribute("data-box");
    var p = "s" + n + "_";
    var holder = spot.querySelector("[data-chips-for]");
    if (holder) {
      holder.replaceChildren();
      var bet = shortAmount(value(f, p + "bet")), jp = shortAmount(value(f, p + "jackpot"));
      var ins = shortAmount(value(f, p + "insurance"));
      if (bet) holder.appendChild(chip("bet", bet));
      if (jp) holder.appendChild(chip("jackpot", "JP", say(f, "jackpot") + " " + jp));
      if (ins) holder.appendChild(chip("db", ins, say(f, "insurance")));
      if (value(f, p + "even_money")) holder.appendChild(chip("ante", "1:1", say(f, "even")));
    }
    spot.querySelectorAll(".stake-settle .settle-row").forEach(function (row) {
      var wager = row.getAttribute("data-wager");
      toggleRow(row, value(f, p + wager) !== "", "data-needs-" + wager);
    });
    var inPlay = value(f, p + "player") !== "" || value(f, p + "bet") !== "";
    var hasCards = value(f, "h" + n + "_cards") !== "";
    spot.classList.toggle("in-play", inPlay);
    var keep = [p + "player", p + "bet", p + "jackpot"];
    spot.querySelectorAll("input, select, button").forEach(function (el) {
      if (el.classList.contains("owed-chip") || el.classList.contains("unsplit-btn") || el.type === "hidden") return;
      var skip = !inPlay && !hasCards && keep.indexOf(el.name) === -1;
      if (skip) el.setAttribute("tabindex", "-1");
      else if (el.getAttribute("tabindex") === "-1") el.removeAttribute("tabindex");
    });
  }

  function init(f) {
    if (!f || f.dataset.bjReady) return;
    f.dataset.bjReady = "1";
    f.querySelectorAll(".bj-hand.is-root").forEach(renderHand);
    f.querySelectorAll(".bj-spot").forEach(function (spot) { refreshBox(f, spot); });
    renderDealer(f);
  }

  /* A short hint beside a hand, for the keys that do not type anything. */
  function hint(hand, text) {
    var el = own(hand, ".key-hint");
    if (!el) {
      el = document.createElement("p");
      el.className = "key-hint";
      el.setAttribute("role", "status");
      var fld = own(hand, ".fld-hand-cards");
      fld.parentNode.insertBefore(el, fld.nextSibling);
    }
    el.textContent = text;
    clearTimeout(el._timer);
    el._timer = setTimeout(function () { el.remove(); }, 2500);
  }

  /* The next place to type after a stand: the next hand in play order, else the dealer's cards. */
  function nextAfter(f, input) {
    var inputs = Array.prototype.filter.call(
      f.querySelectorAll(".bj-hand:not(.is-split) .fld-hand-cards input.cards-input"),
      function (el) { return el.closest(".bj-hand") && !el.closest(".bj-hand").classList.contains("is-split") &&
                             el.closest(".spot").classList.contains("in-play"); });
    var k = inputs.indexOf(input);
    if (k >= 0 && k + 1 < inputs.length) return inputs[k + 1];
    var up = f.querySelector("[name='dealer_up']"), hole = f.querySelector("[name='dealer_hole']");
    if (up && !up.value.trim()) return up;
    if (hole && !hole.value.trim()) return hole;
    return f.querySelector("[name='dealer_draws']");
  }

  /* Words come translated from the page (data-say-* on the table). */
  function say(f, key) {
    var felt = f.querySelector(".felt-table");
    return (felt && felt.getAttribute("data-say-" + key)) || "";
  }

  document.addEventListener("keydown", function (ev) {
    var f = form();
    var t = ev.target;
    if (!f || !f.contains(t) || ev.ctrlKey || ev.altKey || ev.metaKey) return;
    if (!t.matches(".fld-hand-cards input.cards-input")) return;
    var key = window.shortcutKey(ev).toLowerCase();
    if ("hsdp".indexOf(key) === -1 || key.length !== 1) return;
    // P is in no card, so it splits anywhere; H, S and D only before a card (elsewhere they are suits).
    var at = t.selectionStart, text = t.value;
    if (key !== "p" && (at !== t.selectionEnd || (at > 0 && !/\s/.test(text.charAt(at - 1))))) return;
    var hand = t.closest(".bj-hand");
    ev.preventDefault();
    if (key === "h") {
      hint(hand, say(f, "hit"));
    } else if (key === "s") {
      var next = nextAfter(f, t);
      if (next) next.focus();
    } else if (key === "d") {
      var dbl = doubleBox(hand);
      if (dbl) {
        dbl.checked = !dbl.checked;
        dbl.dispatchEvent(new Event("change", { bubbles: true }));
        hint(hand, say(f, dbl.checked ? "double" : "undouble"));
      }
    } else if (key === "p") {
      var split = own(hand, ".split-btn");
      if (split && !split.hidden) f.requestSubmit(split);
      else hint(hand, say(f, "pair"));
    }
  });

  function changed(ev) {
    var f = form();
    var t = ev.target;
    if (!f || !f.contains(t)) return;
    var hand = t.closest(".bj-hand");
    if (hand && (t.matches(".fld-hand-cards input.cards-input") || t.matches(".double-check input"))) {
      renderHand(hand);
    }
    if (/^dealer_(up|hole|draws)$/.test(t.name || "")) renderDealer(f);
    var spot = t.closest(".bj-spot");
    if (spot && /^s\d_/.test(t.name || "")) {
      refreshBox(f, spot);
      if (/_(insurance|even_money)$/.test(t.name)) renderDealer(f);
    }
    if (spot && /^h\d_cards$/.test(t.name || "")) refreshBox(f, spot);
  }

  document.addEventListener("input", changed);
  document.addEventListener("change", changed);

  document.addEventListener("htmx:after:swap", function () { init(form()); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(form()); });
  } else {
    init(form());
  }
})();
