/* The table terminal (docs/terminal.md): the round's log written event by event as it is dealt.
   After each event the log so far goes to the server, whose engine answers what may happen next
   (each move as the event it would log), what is owed and the findings; a finding on the entry
   just made halts the terminal (the red banner) until the dealer takes it back or a pit boss of the
   pit overrides it at this terminal with his own credentials and a reason: no key passes a halt,
   and the server refuses a round whose halts are neither (409).
   One key per action and per card rank; the keys wait in a queue while the engine answers. A key
   that means nothing now does nothing but say so; digits are cards only where a card is asked and
   amounts only where an amount is. */
(function () {
  "use strict";
  var root = document.getElementById("terminal");
  var cfgNode = document.getElementById("terminal-config");
  if (!root || !cfgNode) { return; }
  var cfg = JSON.parse(cfgNode.textContent);
  var W = cfg.words;
  var RANKS = cfg.ranks || "23456789TJQKA";  // the game's pack (veintiuno's has no 8, 9, 10)
  var PLACE = cfg.place || "box";  // where a stake sits in round/1: a box, or a seat round a player's bank
  var ACTIONS = cfg.actions || [];  // the game's own one-key moves: {key, event, help}
  var SUITS = "SHDC";
  var state = {
    stakes: cfg.stakes.map(inner),
    header: headerOf(cfg.header || [], null),
    events: [], info: null, buffer: "", prefix: null, rank: null, halted: false, busy: false,
    queue: [], saving: false, saved: false, again: false,
    overrides: {},  // entry number -> the pit boss's signed override of the halt there
    timeouts: [], timeoutAt: null, clockAt: 0,  // the entries a clock's end logged (docs/terminal.md, "The clocks")
    hint: ""
  };
  var el = function (id) { return document.getElementById(id); };
  // A stake in the page: its place is `box` whatever the game calls it (a draft keeps round/1's own).
  function inner(s) {
    var out = Object.assign({}, s);
    if (out.box == null && out[PLACE] != null) { out.box = out[PLACE]; }
    return out;
  }
  // The header fields the game asks before the deal (who holds the bank), by name.
  function headerOf(fields, kept) {
    var out = {};
    fields.forEach(function (f) { out[f.name] = kept && kept[f.name] != null ? kept[f.name] : f.value; });
    return out;
  }
  // This browser's terminal id, kept in its own storage: a reload, a lost connection or a crashed
  // browser is still the terminal that holds the round in progress on the server (its draft).
  var TERMINAL = (function () {
    var made = "t-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
    try {
      var kept = window.localStorage.getItem("dealing.terminal");
      if (kept) { return kept; }
      window.localStorage.setItem("dealing.terminal", made);
    } catch (e) { /* no storage: this page alone is the terminal */ }
    return made;
  })();
  var draft = cfg.draft;
  // This terminal's round in progress resumes at its last entry; one who only follows (an inspector)
  // sees the round where it stands.
  if (draft && (draft.terminal === TERMINAL || !cfg.mayStore)) {
    cfg.roundId = draft.roundId;
    state.stakes = draft.stakes.map(inner);
    state.header = headerOf(cfg.header || [], draft.header);
    state.events = draft.events.slice();
    state.overrides = Object.assign({}, draft.overrides || {});
    state.timeouts = (draft.timeouts || []).slice();
  } else if (draft) {
    state.heldElsewhere = draft;
  }
  // Seed 002's clocks, where the table has them (terminal_clock.js): what a clock's end logs goes
  // through the key queue like a key, once for the entry it ran for.
  var clock = cfg.clocks && window.TerminalClock ? window.TerminalClock({
    box: el("term-clock"), what: el("term-clock-what"), left: el("term-clock-left"), say: el("term-clock-say"),
    words: W.clock, table: cfg.next, roundId: function () { return cfg.roundId; },
    active: function () {
      return cfg.mayStore && !state.halted && !state.heldElsewhere && !state.saving && !state.saved && !(state.info && state.info.error);
    },
    ended: function (entries) { key("Clock:" + entries); }
  }) : null;
  var csrf = (function () {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) { return decodeURIComponent(m[1]); }
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  })();

  // --- amounts and stakes --------------------------------------------------------------------------
  function amount(text) {  // as the round form writes it: whole amounts as integers, else "7.50"
    var t = String(text).trim().replace(",", ".");
    if (/^\d+$/.test(t)) { return parseInt(t, 10); }
    var m = t.match(/^(\d+)\.(\d{1,2})$/);
    if (m) { return /^0+$/.test(m[2]) ? parseInt(m[1], 10) : m[1] + "." + (m[2].length === 1 ? m[2] + "0" : m[2]); }
    return t;
  }
  function filled(v) { return String(v == null ? "" : v).trim() !== ""; }
  function docStakes() {
    // A stake plays once its wager is there; where the wager is placed by an event (veintiuno's bet),
    // once its player is named.
    var list = state.stakes.filter(function (s) { return filled(cfg.stakeWager === false ? s.player : s[cfg.wager]); });
    list.sort(function (a, b) { return a.box - b.box || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0); });
    return list.map(function (s) {
      var out = {id: s.id};
      out[PLACE] = s.box;
      if (s.player && String(s.player).trim()) { out.player = String(s.player).trim(); }
      if (cfg.stakeWager !== false) { out[cfg.wager] = amount(s[cfg.wager]); }
      cfg.extra.forEach(function (k) {
        if (s[k] != null && String(s[k]).trim() !== "") { out[k] = amount(s[k]); }
      });
      return out;
    });
  }
  function stakeOf(id) {
    for (var i = 0; i < state.stakes.length; i++) { if (state.stakes[i].id === id) { return state.stakes[i]; } }
    return null;
  }
  function newStakeId(box) {
    if (!cfg.letters) { return (cfg.idPrefix || "") + String(box); }
    for (var k = 0; k < cfg.perBox; k++) {
      var id = box + "abc".charAt(k);
      if (!stakeOf(id)) { return id; }
    }
    return null;
  }

  // --- the stakes table (before the deal) -------------------------------------------------------------
  function renderStakes() {
    var body = el("term-stakes");
    body.textContent = "";
    var locked = state.events.length > 0;
    docSorted().forEach(function (s) {
      var tr = document.createElement("tr");
      var cellClass = "";
      var td = function (node) {
        var c = document.createElement("td");
        if (cellClass) { c.className = cellClass; cellClass = ""; }
        if (node) { c.appendChild(node); }
        tr.appendChild(c);
        return c;
      };
      td(document.createTextNode(String(s.box)));
      td(document.createTextNode(s.id));
      var fields = [cfg.wager].concat(cfg.extra).concat(["player"]);
      fields.forEach(function (k) {
        var input = document.createElement("input");
        input.type = "text";
        input.inputMode = k === "player" ? "text" : "decimal";
        input.value = s[k] == null ? "" : String(s[k]);
        input.disabled = locked;
        input.className = "term-in term-in-" + k;
        cellClass = "term-td-" + k;
        input.setAttribute("aria-label", W.box + " " + s.box + ", " + W.stake + " " + s.id + ": " + (W.fields[k] || k));
        input.addEventListener("input", function () { s[k] = input.value; if (k !== "player") { delete s.last_bet; } });
        td(input);
      });
      var rm = document.createElement("button");
      rm.type = "button"; rm.className = "btn btn-quiet"; rm.textContent = "×"; rm.disabled = locked;
      rm.setAttribute("aria-label", W.stake + " " + s.id + " ×");
      rm.addEventListener("click", function () {
        state.stakes = state.stakes.filter(function (x) { return x !== s; });
        renderStakes(); ask();
      });
      cellClass = "term-td-remove";
      td(rm);
      body.appendChild(tr);
    });
    el("term-add").disabled = locked;
    renderHeader(locked);
  }
  function renderHeader(locked) {
    var box = el("term-header");
    if (!box) { return; }
    if (!box.childNodes.length) {
      (cfg.header || []).forEach(function (f) {
        var id = "term-header-" + f.name;
        var label = document.createElement("label");
        label.htmlFor = id;
        label.textContent = f.label;
        var input = document.createElement("input");
        input.id = id; input.type = "text"; input.className = "term-in term-in-header"; input.maxLength = 80;
        input.autocomplete = "off"; input.spellcheck = false;
        input.value = state.header[f.name] || "";
        input.addEventListener("input", function () { state.header[f.name] = input.value; });
        input.addEventListener("change", function () { ask(); });
        box.appendChild(label); box.appendChild(document.createTextNode(" ")); box.appendChild(input);
      });
    }
    Array.prototype.forEach.call(box.querySelectorAll("input"), function (i) { i.disabled = locked; });
  }
  function docSorted() {
    return state.stakes.slice().sort(function (a, b) { return a.box - b.box || (a.id < b.id ? -1 : 1); });
  }
  el("term-add").addEventListener("click", function () {
    var box = parseInt(el("term-add-box").value, 10);
    var id = newStakeId(box);
    if (!id) { return; }
    var s = {id: id, box: box};
    s[cfg.wager] = cfg.min;
    state.stakes.push(s);
    renderStakes(); ask();
  });

  // --- the engine's answer --------------------------------------------------------------------------
  // One question in flight at a time: a change made while the engine answers (a stake, the header, a
  // clock's entry) asks again once the answer is in, so the server keeps the round's draft in the
  // order the changes were made — two questions at once could land in the other order, and an older
  // one (no entries yet) erase the draft a newer one had written.
  function ask() {
    if (state.busy) { state.again = true; return Promise.resolve(); }
    state.busy = true;
    state.again = false;
    var sent = state.events.length;
    return fetch(cfg.next, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify({id: cfg.roundId, terminal: TERMINAL, dealer: dealerChosen(), header: state.header, stakes: docStakes(),
                            events: state.events, overrides: state.overrides,
                            timeout: state.timeoutAt !== null && state.timeoutAt === sent - 1 ? state.timeoutAt : undefined})
    }).then(function (r) { return r.json().then(function (b) { return {status: r.status, body: b}; }); }).then(function (res) {
      var code = res.body && res.body.error && res.body.error.code;
      if (res.status === 409 && /^clock_/.test(code || "")) { return clockRefused(); }
      if (res.status === 409) { state.busy = false; state.again = false; state.queue = []; return heldElsewhere(res.body.error); }
      var info = res.body;
      if (state.again || sent !== state.events.length) { state.busy = false; return ask(); }  // changed meanwhile: ask again
      state.info = info;
      state.halted = (info.halt || []).length > 0 && !state.overrides[state.events.length - 1];
      state.busy = false;
      state.timeouts = info.timeouts || [];
      if (state.timeoutAt !== null && state.timeoutAt === sent - 1) { clockLogged(state.events[sent - 1]); }
      if (clock) { clock.update(info.clock, info.now, sent, state.halted); }
      render();
      if (!state.halted && !info.error && autoMove()) { return; }
      pump();
    }).catch(function () {
      state.busy = false;
      state.again = false;  // the next key asks with everything changed so far
      showError(W.error);
    });
  }
  // A clock ran out: it logs what its end logs (the hand's stand, the peek closing the insurance
  // offer) when the round is still at the entry it ran for and nothing stops it.
  function clockEnded(entries) {
    var c = state.info && state.info.clock;
    if (entries !== state.events.length || !c || !c.timeout || state.halted || state.info.error ||
        state.heldElsewhere || !cfg.mayStore) { return; }
    state.timeoutAt = entries;
    state.clockAt = Date.now();
    push(Object.assign({}, c.timeout));
  }
  function clockLogged(ev) {
    state.timeoutAt = null;
    hint(ev.e === "stand" ? say(W.clock.stood, {hand: ev.hand}) : W.clock.closed);
    if (clock) { clock.announce(state.hint); }
  }
  // The server refused the clock's entry (the round moved on, or its time is not up there yet):
  // it is taken back here, and the clock runs again as the server counts it.
  function clockRefused() {
    if (state.timeoutAt !== null && state.timeoutAt === state.events.length - 1) { state.events.pop(); }
    state.timeoutAt = null;
    state.busy = false;
    if (clock) { clock.stop(); }
    return ask();
  }
  // A stand key pressed just after a clock stood the hand would stand the next one: it waits.
  function clockJustStood() {
    var last = state.events.length - 1;
    return state.timeouts.indexOf(last) >= 0 && state.events[last].e === "stand" && Date.now() - state.clockAt < 1500;
  }
  function dealerChosen() { var d = el("term-dealer"); return d ? d.value : null; }
  // Another terminal holds the round in progress (or it was left behind): nothing more is written
  // here until this terminal takes it over, which its dealer asks for with the button.
  function heldElsewhere(error) {
    state.heldElsewhere = error || true;
    var box = el("term-held");
    box.hidden = false;
    var d = cfg.draft;
    el("term-held-text").textContent = error && error.message ? error.message :
      say(W.heldElsewhere, {user: d.heldBy, n: d.entries, when: new Date(d.updatedAt).toLocaleTimeString(document.documentElement.lang || undefined)});
    var btn = el("term-takeover");
    if (btn) { btn.hidden = !!(error && error.code === "draft_left_behind"); }
    render();
  }
  function autoMove() {  // what needs no choice: the open, a reveal, a sole peek
    var moves = state.info.moves;
    if (moves.length === 1 && moves[0].needs.length === 0 && /^(open|reveal|peek)$/.test(moves[0].event.e)) {
      push(moves[0].event);
      return true;
    }
    return false;
  }
  function push(event) {
    state.events.push(event);
    state.buffer = ""; state.prefix = null; state.rank = null;
    renderStakes();
    ask();
  }

  // --- keys -----------------------------------------------------------------------------------------
  function moves() { return state.info ? state.info.moves : []; }
  function find(test) { var m = moves(); for (var i = 0; i < m.length; i++) { if (test(m[i])) { return m[i]; } } return null; }
  function needs(m, what) { return m.needs.indexOf(what) >= 0; }
  function cardMove(dark) {
    return find(function (m) {
      return needs(m, "card") && (dark ? /^(dark|double|tapo)$/.test(m.event.e) : /^(deal|hit|draw)$/.test(m.event.e));
    });
  }
  function settleMove() { return find(function (m) { return /^(pay|take|leave)$/.test(m.event.e); }); }

  function key(k) { state.queue.push(k); pump(); }
  function pump() {
    while (!state.busy && state.queue.length && !state.saving) { handle(state.queue.shift()); }
    render();
  }

  function withCard(card) {
    var m = cardMove(state.prefix === "D");
    if (!m) { return; }
    var ev = Object.assign({}, m.event, {card: card});
    push(ev);
  }

  function hint(text) { state.hint = text; }
  function say(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (m, name) { return values[name] == null ? "" : String(values[name]); });
  }
  function keyName(K) { return K === "Backspace" ? "⌫" : K; }

  function handle(k) {
    if (state.saved || !state.info) { return; }
    if (k.indexOf("Clock:") === 0) { clockEnded(parseInt(k.slice(6), 10)); return; }
    var K = k.length === 1 ? k.toUpperCase() : k;
    state.hint = "";
    if (K === "Escape") { state.buffer = ""; state.prefix = null; state.rank = null; return; }
    if (state.heldElsewhere) { hint(W.hints.heldElsewhere); return; }
    if (state.halted) {  // only taking the entry back lifts a halt here; a pit boss's override is below
      if (K === "Backspace") { undo(); } else { hint(W.hints.halted); }
      return;
    }
    if (state.info.error) { if (K === "Backspace") { undo(); } else { hint(W.hints.error); } return; }
    if (K === "Backspace") {
      if (state.rank) { state.rank = null; } else if (state.buffer) { state.buffer = state.buffer.slice(0, -1); }
      else if (state.prefix) { state.prefix = null; } else if (state.events.length) { undo(); }
      else { hint(W.hints.nothingToUndo); }
      return;
    }
    var cards = !!(cardMove(false) || cardMove(true));
    var amountMode = state.prefix === "I" || !cards;
    if (cfg.suited && state.rank) {
      if (SUITS.indexOf(K) >= 0) { withCard(state.rank + K); } else { hint(W.hints.suit); }
      return;
    }
    if (cards && !amountMode) {
      var rank = K === "0" ? "T" : K;
      if ("23456789TJQKA".indexOf(rank) >= 0 && rank.length === 1 && RANKS.indexOf(rank) < 0) {
        hint(say(W.hints.noRank, {key: rank === "T" ? "10" : rank}));
        return;
      }
      if (RANKS.indexOf(rank) >= 0 && rank.length === 1) {
        if (cfg.suited) { state.rank = rank; return; }
        withCard(rank + "*");
        return;
      }
      if (K === "1") { hint(RANKS.indexOf("T") >= 0 ? W.hints.ten : say(W.hints.noRank, {key: "1"})); return; }
      if (/^(00|[.,])$/.test(K)) { hint(W.hints.noAmount); return; }
    }
    if (/^([0-9.,]|00)$/.test(K)) {
      if (amountMode && amountMoves()) { state.buffer += K; } else { hint(W.hints.noAmount); }
      return;
    }
    if (K.charAt(0) === "=" && amountMode && amountMoves()) { state.buffer = K.slice(1); return; }
    if (amountMode && K.length === 1 && "TJQKA".indexOf(K) >= 0) {
      hint(W.hints.noCard);
      return;
    }
    var m;
    var own = actionOf(K);  // the game's own one-key moves come first (veintiuno's P opens a pair)
    if (own) {
      m = find(function (x) { return x.event.e === own.event && x.needs.length === 0; });
      if (m) { return push(m.event.amount != null ? Object.assign({}, m.event, {amount: amount(m.event.amount)}) : m.event); }
      hint(say(W.hints.noKey, {key: keyName(K)}));
      return;
    }
    switch (K) {
      case "S": if (clockJustStood()) { hint(W.clock.already); return; } m = find(function (x) { return x.event.e === "stand"; }); if (m) { return push(m.event); } break;
      case "D": if (cardMove(true)) { state.prefix = "D"; return; } break;
      case "P": m = find(function (x) { return x.event.e === "split"; }); if (m) { return push(m.event); } break;
      case "F": m = find(function (x) { return x.event.e === "fold"; }); if (m) { return push(m.event); } break;
      case "E": m = find(function (x) { return x.event.e === "even_money"; }); if (m) { return push(m.event); } break;
      case "I": if (find(function (x) { return x.event.e === "insurance"; })) { state.prefix = "I"; state.buffer = ""; return; } break;
      case "X": case "L": if (settleMove()) { return settleOther(K === "X" ? "take" : "leave"); } break;
      case "R": if (!state.events.length && state.stakes.length) { return clearStakes(null); } break;
      case "Enter": return enter();
    }
    hint(say(W.hints.noKey, {key: keyName(K)}));
  }
  function actionOf(K) {
    for (var i = 0; i < ACTIONS.length; i++) { if (ACTIONS[i].key === K) { return ACTIONS[i]; } }
    return null;
  }
  function ownsEvent(e) { return ACTIONS.some(function (a) { return a.event === e; }); }
  // Does anything now take an amount (a Bet, an insurance, what was really paid)?
  function amountMoves() {
    return !!(settleMove() || find(function (x) { return needs(x, "amount"); }) || state.prefix === "I");
  }
  // What Enter does when nothing else is owed: the open, a reveal, the peek, the passing of the bank.
  var GO = /^(peek|open|reveal|bank_to)$/;
  function betMove() { return find(function (x) { return x.event.e === "bet" && needs(x, "amount"); }); }
  function betDefault(m) {
    var s = stakeOf(m.event.stake) || {};
    return s.last_bet != null ? s.last_bet : s[cfg.wager];
  }

  function settleOther(result) {
    var m = settleMove();
    if (!m) { return; }
    var ev = {e: result, stake: m.event.stake};
    if (m.event.hand != null) { ev.hand = m.event.hand; }
    ev.wager = m.event.wager;
    push(ev);
  }

  function enter() {
    var typed = state.buffer.trim();
    if (state.prefix === "I") {
      var ins = find(function (x) { return x.event.e === "insurance"; });
      if (ins && typed) { push(Object.assign({}, ins.event, {amount: amount(typed)})); } else { hint(W.hints.insurance); }
      return;
    }
    if (state.prefix === "D") { hint(W.hints.darkCard); return; }
    var m = settleMove();
    if (m) {
      var ev = Object.assign({}, m.event);
      if (typed) { ev = {e: "pay", stake: m.event.stake}; if (m.event.hand != null) { ev.hand = m.event.hand; } ev.wager = m.event.wager; ev.amount = amount(typed); }
      else if (ev.amount != null) { ev.amount = amount(ev.amount); }
      push(ev);
      return;
    }
    m = betMove();
    if (m) {
      var bet = typed || betDefault(m);
      if (!filled(bet)) { hint(W.hints.typeBet); return; }
      push(Object.assign({}, m.event, {amount: amount(bet)}));
      return;
    }
    if (typed) { hint(W.hints.amountUnused); return; }  // an amount is never read as anything else
    m = find(function (x) { return x.needs.length === 0 && GO.test(x.event.e); });
    if (m) { push(m.event); return; }
    if (!moves().length && state.events.length) {
      if (cfg.mayStore) { save(); } else { hint(W.hints.mayNotStore); }
      return;
    }
    hint(W.hints.enterCard);
  }

  function undo() {
    if (!state.events.length) { return; }
    state.events.pop();
    delete state.overrides[state.events.length];
    state.halted = false;
    // The halt's banner hides: a key pressed next must reach the terminal, not the pit boss's form.
    var box = el("term-override-box");
    if (box) { box.open = false; }
    if (document.activeElement && el("term-halt").contains(document.activeElement)) { root.focus(); }
    renderStakes();
    ask();
  }

  // --- storing the round ------------------------------------------------------------------------------
  function save() {
    if (!cfg.mayStore) { return; }
    var dealerSel = el("term-dealer");
    if (cfg.picksDealer && dealerSel && !dealerSel.value) { showError(W.noDealer); dealerSel.focus(); return; }
    state.saving = true;
    render();
    fetch(cfg.save, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify({id: cfg.roundId, terminal: TERMINAL, dealer: dealerSel ? dealerSel.value : null,
                            header: state.header, stakes: docStakes(), events: state.events, overrides: overrideTokens()})
    }).then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
      .then(function (res) {
        if (res.ok && res.body.url) { state.saved = true; window.location.assign(res.body.url); return; }
        state.saving = false;
        var code = res.body.error && res.body.error.code;
        if (code === "draft_taken" || code === "draft_left_behind") { heldElsewhere(res.body.error); return; }
        showError((res.body.error && res.body.error.message) || W.error);
      }).catch(function () { state.saving = false; showError(W.error); });
  }

  function overrideTokens() {
    return Object.keys(state.overrides).filter(function (i) { return Number(i) < state.events.length; })
      .map(function (i) { return state.overrides[i]; });
  }

  // --- a pit boss's override of a halt ------------------------------------------------------------------
  var overrideForm = el("term-override");
  if (overrideForm) {
    overrideForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!state.halted || state.busy) { return; }
      var at = state.events.length - 1;
      var dealerSel = el("term-dealer");
      var out = el("term-override-error");
      out.textContent = "";
      fetch(cfg.override, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
        body: JSON.stringify({header: state.header, stakes: docStakes(), events: state.events, dealer: dealerSel ? dealerSel.value : null,
                              username: el("term-ov-user").value, password: el("term-ov-pass").value,
                              reason: el("term-ov-reason").value})
      }).then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
        .then(function (res) {
          el("term-ov-pass").value = "";
          if (!res.ok || !res.body.token) { out.textContent = (res.body.error && res.body.error.message) || W.error; return; }
          if (at !== state.events.length - 1) { return; }  // the entry was taken back meanwhile
          state.overrides[at] = res.body.token;
          el("term-ov-user").value = ""; el("term-ov-reason").value = "";
          el("term-override-box").open = false;
          state.halted = false;
          state.hint = res.body.message;
          root.focus();
          render();
          ask();  // the override is kept with the draft; the clock, stopped by the halt, runs again
        }).catch(function () { out.textContent = W.error; });
    });
  }

  // --- drawing ----------------------------------------------------------------------------------------
  function showError(text) {
    var box = el("term-error");
    box.textContent = text;
    box.hidden = !text;
  }
  function cardText(code) {
    var r = code.charAt(0), s = code.charAt(1);
    var rank = r === "T" ? "10" : r;
    var sym = {S: "♠", H: "♥", D: "♦", C: "♣"}[s] || "";
    return rank + sym;
  }
  function renderFelt() {
    var boxes = {};
    var dealer = [];
    var add = function (box, text, cls) {
      (boxes[box] = boxes[box] || []).push({text: text, cls: cls || ""});
    };
    state.events.forEach(function (ev, i) {
      var box = ev.box != null ? ev.box : ev.to != null ? ev.to : ev.hand != null ? parseInt(String(ev.hand), 10) : null;
      if (ev.stake != null && box == null) { var st = stakeOf(ev.stake); box = st ? st.box : null; }
      var hand = ev.hand != null && String(ev.hand).indexOf(".") > 0 ? ev.hand + ": " : "";
      if (ev.e === "deal" && ev.to === (cfg.dealerTo || "dealer")) { dealer.push(cardText(ev.card)); return; }
      if (ev.e === "draw") { dealer.push(cardText(ev.card)); return; }
      var word = ev.e === "bet" ? W.fields.bet : W.events[ev.e] || ev.e;  // a Bet by the game's own word
      if (ev.e === "tapo" && box != null) { add(box, hand + "▮ (" + word + ")", "card"); return; }  // seen by nobody till the end
      if (ev.card && box != null) {
        add(box, hand + cardText(ev.card) + (ev.e === "dark" || ev.e === "double" ? " (" + word + ")" : ""), "card");
        return;
      }
      if (box != null && /^(stand|split|fold|bet|even_money|insurance|declare|withdraw|void)$/.test(ev.e)) {
        var timed = state.timeouts.indexOf(i) >= 0 ? " (" + W.clock.timedOut + ")" : "";  // a clock's end logged it
        add(box, hand + word + (ev.amount != null ? " " + ev.amount : "") + (ev.stake ? " (" + ev.stake + ")" : "") + timed,
            "act" + (timed ? " term-timed-out" : ""));
      }
    });
    var dl = el("term-dealer-cards");
    dl.textContent = "";
    dealer.forEach(function (t) {
      var span = document.createElement("span");
      span.className = "term-tok term-card";
      span.textContent = t;
      dl.appendChild(span);
    });
    var felt = (state.info && state.info.felt) || {hands: {}, dealer: null};
    var dt = el("term-dealer-total");
    dt.textContent = felt.dealer ? felt.dealer.say : "";
    dt.classList.toggle("term-bust", !!(felt.dealer && felt.dealer.bust));
    var next = nextToAct();
    var locked = state.events.length > 0;
    var paid = (state.info && state.info.paid) || {};
    var list = el("term-boxes");
    list.textContent = "";
    var numbers = {};
    docStakes().forEach(function (s) { numbers[s[PLACE]] = (numbers[s[PLACE]] || []).concat([s]); });
    Object.keys(numbers).map(Number).sort(function (a, b) { return a - b; }).forEach(function (n) {
      var li = document.createElement("li");
      li.className = "term-box";
      var head = document.createElement("div");
      head.className = "term-box-head";
      head.textContent = W.box + " " + n + " · " + numbers[n].map(function (s) {
        var wager = cfg.stakeWager === false ? betPlaced(s.id) : s[cfg.wager];
        return (s.player || s.id) + (wager != null ? " " + wager : "") + (s.dealer_bet != null ? " + " + s.dealer_bet : "");
      }).join(" · ");
      li.appendChild(head);
      var line = document.createElement("div");
      line.className = "term-cards";
      (boxes[n] || []).forEach(function (t) {
        var span = document.createElement("span");
        span.className = "term-tok term-" + t.cls;
        span.textContent = t.text;
        line.appendChild(span);
      });
      li.appendChild(line);
      // The box's totals as the engine counts them (each hand of a split), and what its stakes are owed.
      var sums = document.createElement("div");
      sums.className = "term-totals";
      Object.keys(felt.hands).sort().forEach(function (name) {
        var h = felt.hands[name];
        if (h.box !== n) { return; }
        var t = document.createElement("span");
        t.className = "term-total" + (h.bust ? " term-bust" : "") + (next === name ? " term-next-hand" : "");
        t.textContent = (name.indexOf(".") > 0 ? name + ": " : "") + h.say;
        sums.appendChild(t);
      });
      numbers[n].forEach(function (s) {
        if (paid[s.id] == null) { return; }
        var o = document.createElement("span");
        o.className = "term-paid";
        o.textContent = say(W.paid, {stake: s.id, amount: paid[s.id]});
        sums.appendChild(o);
      });
      if (sums.childNodes.length) { li.appendChild(sums); }
      if (next != null && String(next).split(".")[0] === String(n)) {
        li.classList.add("term-next");
        li.setAttribute("aria-current", "step");
        var mark = document.createElement("span");
        mark.className = "term-next-mark";
        mark.textContent = W.nextToAct;
        head.insertBefore(mark, head.firstChild);
      }
      if (!locked) {  // before the deal, one tap clears the box
        var clear = document.createElement("button");
        clear.type = "button";
        clear.className = "btn btn-quiet term-clear-box";
        clear.textContent = "×";
        clear.setAttribute("aria-label", say(W.clearBox, {box: n}));
        clear.addEventListener("click", function () { clearStakes(n); });
        head.appendChild(clear);
      }
      list.appendChild(li);
    });
  }
  // Whose turn it is: the box or hand the first card or action now offered is for (the deal's next box too).
  function nextToAct() {
    var m = moves();
    for (var i = 0; i < m.length; i++) {
      var ev = m[i].event;
      if (!/^(deal|hit|stand|dark|double|split|fold|bet|insurance|even_money|surrender|tapo|declare|withdraw|void)$/.test(ev.e)) { continue; }
      if (ev.hand != null) { return String(ev.hand); }
      if (ev.box != null) { return String(ev.box); }
      if (ev.to != null && ev.to !== (cfg.dealerTo || "dealer")) { return String(ev.to); }
      if (ev.stake != null) { var st = stakeOf(ev.stake); if (st) { return String(st.box); } }
      return null;
    }
    return null;
  }
  // The bet a stake placed by its event this round (a game whose stakes carry no wager).
  function betPlaced(id) {
    var out = null;
    state.events.forEach(function (ev) { if (ev.e === "bet" && ev.stake === id) { out = ev.amount; } });
    return out;
  }
  // Before the deal: every stake carried over goes (R), or one box's (its ×).
  function clearStakes(box) {
    if (state.events.length) { hint(W.stakesLocked); render(); return; }
    state.stakes = box == null ? [] : state.stakes.filter(function (s) { return s.box !== box; });
    renderStakes(); ask();
  }
  function renderOwed() {
    var info = state.info;
    var list = el("term-owed");
    list.textContent = "";
    if (!info) { return; }
    var settled = {};
    state.events.forEach(function (ev) {
      if (/^(pay|take|leave)$/.test(ev.e)) { settled[ev.stake + "|" + (ev.hand || "") + "|" + ev.wager] = ev; }
    });
    // What is owed, once the round has come to a settlement (before, "owed" is only where it stands).
    var settling = !!settleMove() || Object.keys(settled).length > 0 || (!info.moves.length && state.events.length > 0);
    (settling ? info.owed : []).forEach(function (w) {
      var li = document.createElement("li");
      var done = settled[w.stake + "|" + (w.hand || "") + "|" + w.wager];
      li.className = "term-owed-row" + (done ? " term-settled" : "");
      var right = done && done.e === w.result && (w.result !== "pay" || amount(done.amount) === amount(w.amount));
      if (done && !right) { li.className += " term-wrong"; }
      li.textContent = W.stake + " " + w.stake + (w.hand && w.hand !== w.stake ? " · " + w.hand : "") + " · " + w.label +
        ": " + w.result_label + " " + w.amount +
        (done ? (right ? " ✓" : " ✗ " + (W.events[done.e] || done.e) + (done.amount != null ? " " + done.amount : "")) : "");
      list.appendChild(li);
    });
    var fl = el("term-findings");
    fl.textContent = "";
    info.findings.forEach(function (f) {
      var li = document.createElement("li");
      li.className = "finding " + f.severity;
      var sev = document.createElement("span"); sev.className = "sev"; sev.textContent = f.severity_label;
      var msg = document.createElement("span"); msg.className = "msg"; msg.textContent = f.text;
      li.appendChild(sev); li.appendChild(msg);
      fl.appendChild(li);
    });
  }
  function render() {
    var info = state.info;
    if (!info) { return; }
    var halt = el("term-halt");
    halt.hidden = !state.halted;
    el("term-halt-text").textContent = state.halted ? info.halt.map(function (f) { return f.text; }).join(" ") : "";
    root.classList.toggle("term-halted", state.halted);
    if (info.error) { showError(W.error + ": " + info.error.text); } else if (!state.saving) { showError(""); }
    var prompt;
    var help = [];  // what each key does now, as "key — what"
    if (state.saving) { prompt = W.saving; }
    else if (state.halted) { prompt = W.prompts.halted; help = [W.keys.undoEntry, W.keys.override]; }
    else if (info.error) { prompt = W.prompts.error; help = [W.keys.undoEntry]; }
    else if (!info.moves.length && state.events.length) {
      prompt = cfg.mayStore ? W.done : W.doneFollow;
      if (cfg.mayStore) { help.push(W.keys.store); }
      help.push(W.keys.undo);
    } else if (info.moves.length) {
      var first = settleMove() || betMove() || info.moves[0];  // what Enter does comes first
      prompt = first.label;
      help = keysNow();
    } else { prompt = ""; }
    el("term-prompt").textContent = prompt;
    el("term-typed").textContent = (state.prefix ? state.prefix + " " : "") + (state.rank ? cardText(state.rank) : "") + state.buffer;
    el("term-hint").textContent = state.hint;
    var ml = el("term-moves");
    ml.textContent = "";
    help.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      ml.appendChild(li);
    });
    renderMultiples();
    renderFelt();
    renderOwed();
  }

  function keysNow() {
    var out = [];
    var has = function (e) { return !!find(function (x) { return x.event.e === e; }); };
    if (state.prefix === "I") { return [W.keys.insuranceAmount, W.keys.clear]; }
    if (state.prefix === "D") { return [cfg.suited ? W.keys.cardSuit : W.keys.card, W.keys.clear]; }
    var settle = settleMove();
    if (settle) {
      out.push(say(W.keys.enterSettle, {what: settle.label}));
      out.push(W.keys.amountPaid, W.keys.take, W.keys.leave);
    }
    var bet = betMove();
    if (bet) {
      out.push(say(W.keys.enterBet, {amount: state.buffer.trim() || betDefault(bet)}));
      out.push(W.keys.amountBet);
    }
    if (cardMove(false)) { out.push(cfg.suited ? W.keys.cardSuit : W.keys.card); }
    if (cardMove(true)) { out.push({dark: W.keys.dark, tapo: W.keys.tapo}[cardMove(true).event.e] || W.keys.double); }
    if (has("stand")) { out.push(W.keys.stand); }
    ACTIONS.forEach(function (a) { if (has(a.event)) { out.push(a.help); } });
    if (has("split") && !ownsEvent("split")) { out.push(W.keys.split); }
    if (has("fold")) { out.push(W.keys.fold); }
    if (has("insurance")) { out.push(W.keys.insurance); }
    if (has("even_money")) { out.push(W.keys.even); }
    var go = find(function (x) { return x.needs.length === 0 && GO.test(x.event.e); });
    if (go && !settle && !bet) { out.push(say(W.keys.enterGo, {what: go.label})); }
    if (state.events.length) { out.push(W.keys.undo); } else if (state.stakes.length) { out.push(W.keys.reset); }
    return out;
  }
  // The Bet's amounts a tap away: the stake's Ante times 1, 2, 3, … within the Bet's limits.
  function renderMultiples() {
    var box = el("term-multiples");
    if (!box) { return; }
    var bet = !state.halted && state.info && !state.info.error ? betMove() : null;
    var s = bet ? stakeOf(bet.event.stake) : null;
    var base = s ? Number(amount(s[cfg.wager])) : NaN;
    var key = bet ? bet.event.stake + "|" + base + "|" + bet.max : "";
    if (box.getAttribute("data-for") === key) { return; }
    box.setAttribute("data-for", key);
    box.textContent = "";
    if (!bet || !(base > 0)) { return; }
    var max = bet.max != null ? Number(bet.max) : base * 4;
    var min = bet.min != null ? Number(bet.min) : 0;
    for (var k = 1; k <= 5 && base * k <= max; k++) {
      if (base * k < min) { continue; }
      var b = document.createElement("button");
      b.type = "button";
      b.className = "term-key term-mult";
      b.setAttribute("data-key", "=" + String(base * k));
      b.textContent = "×" + k + " " + String(base * k);
      b.title = say(W.keys.multiple, {k: k, amount: String(base * k)});
      box.appendChild(b);
    }
  }

  // --- wiring -------------------------------------------------------------------------------------------
  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    if (t && t.closest && t.closest("#term-override-box")) {  // the pit boss types there, or opens and sends it
      if (t.tagName === "INPUT" || ((ev.key === "Enter" || ev.key === " ") && /^(BUTTON|SUMMARY)$/.test(t.tagName))) { return; }
    }
    if (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) {
      if (ev.key === "Enter" || ev.key === "Escape") { ev.preventDefault(); t.blur(); root.focus(); ask(); }
      return;
    }
    if (t && t.tagName === "BUTTON" && (ev.key === "Enter" || ev.key === " ")) {
      if (!t.closest("#term-keypad")) { return; }
    }
    var k = ev.key;
    if (k.length !== 1 && !/^(Enter|Backspace|Escape)$/.test(k)) { return; }
    if (k === " ") { return; }
    ev.preventDefault();
    key(window.shortcutKey && k.length === 1 && !/[0-9.,]/.test(k) ? window.shortcutKey(ev) : k);
  });
  el("term-keypad").addEventListener("click", function (ev) {
    var b = ev.target.closest("button[data-key]");
    if (b) { key(b.getAttribute("data-key")); b.blur(); root.focus(); }
  });
  el("term-reset").addEventListener("click", function () { clearStakes(null); root.focus(); });
  var takeover = el("term-takeover");
  if (takeover) {
    takeover.addEventListener("click", function () {
      takeover.disabled = true;
      fetch(cfg.takeover, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
        body: JSON.stringify({terminal: TERMINAL})
      }).then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
        .then(function (res) {
          takeover.disabled = false;
          // Taken over: the page resumes the round from the server's draft, at its last entry.
          if (res.ok) { window.location.reload(); return; }
          el("term-held-text").textContent = (res.body.error && res.body.error.message) || W.error;
        }).catch(function () { takeover.disabled = false; showError(W.error); });
    });
  }
  if (draft && draft.terminal === TERMINAL && draft.dealer && el("term-dealer")) { el("term-dealer").value = draft.dealer; }
  renderStakes();
  if (state.heldElsewhere) { heldElsewhere(null); }
  root.focus();
  ask();
})();
