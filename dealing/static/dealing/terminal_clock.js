/* Seed 002's clocks at the table terminal (docs/terminal.md, "The clocks"), drawn and counted down.
   The server says which clock runs after each entry and until when (its `deadline`, in the server's
   time, counted from the entry it accepted last: a reload resumes the time left); this counts down
   in the server's time (`now` gives the offset) and, when the time is up, calls `ended(entries)`
   once for that entry count: the terminal then logs what the clock's end logs (a stand, the peek
   that closes the insurance offer). The bet clock has no deadline from the server (nothing is
   written before the deal): it is counted here, kept in the browser's storage across a reload.
   The number shown each second is not announced; the start, 5 seconds left and the end are (polite). */
(function () {
  "use strict";
  function TerminalClock(opts) {
    var box = opts.box, what = opts.what, left = opts.left, sayNode = opts.say, W = opts.words;
    var storeKey = "dealing.betClock." + opts.table;
    var current = null;  // {clock, deadline (server ms), offset, entries, fired, said}
    var timer = null;

    function fill(template, values) {
      return template.replace(/%\((\w+)\)s/g, function (m, name) { return values[name] == null ? "" : String(values[name]); });
    }
    function announce(text) { if (sayNode.textContent !== text) { sayNode.textContent = text; } }
    function label(clock) {
      if (clock.kind === "bet") { return W.bet; }
      if (clock.kind === "insurance") { return W.insurance; }
      return fill(W.action, {hand: clock.timeout && clock.timeout.hand != null ? clock.timeout.hand : ""});
    }
    function betDeadline(seconds, serverNow) {
      try {
        var kept = JSON.parse(window.localStorage.getItem(storeKey) || "null");
        // A bet clock of this page's round, still running or ended within the minute: resume it.
        if (kept && kept.round === opts.roundId() && kept.deadline > serverNow - 60000) { return kept.deadline; }
        var deadline = serverNow + seconds * 1000;
        window.localStorage.setItem(storeKey, JSON.stringify({round: opts.roundId(), deadline: deadline}));
        return deadline;
      } catch (e) { return serverNow + seconds * 1000; }
    }
    function stop() {
      if (timer) { window.clearInterval(timer); timer = null; }
      current = null;
      box.hidden = true;
      box.classList.remove("term-clock-low", "term-clock-over", "term-clock-paused");
    }
    function tick() {
      if (!current) { return; }
      var ms = current.deadline - (Date.now() + current.offset);
      var secs = Math.max(0, Math.ceil(ms / 1000));
      left.textContent = fill(W.seconds, {s: secs});
      box.classList.toggle("term-clock-low", secs <= 5 && secs > 0);
      box.classList.toggle("term-clock-over", secs === 0);
      if (secs <= 5 && secs > 0 && current.said < 5) { current.said = 5; announce(fill(W.left, {what: label(current.clock), s: secs})); }
      if (ms > 0) { return; }
      if (current.clock.kind === "bet") {  // bets close: the deal may start (nothing is logged)
        what.textContent = W.betOver; left.textContent = "";
        if (current.said < 9) { current.said = 9; announce(W.betOver); }
        window.clearInterval(timer); timer = null;
        return;
      }
      if (!current.fired && opts.active()) {
        current.fired = true;
        window.clearInterval(timer); timer = null;
        opts.ended(current.entries);
      }
    }
    // After each answer of the server: the clock that runs now (or none) after this many entries;
    // `paused`: a halt is up (the server runs no clock then): a clock that ran says it stopped.
    function update(clock, serverNow, entries, paused) {
      if (entries > 0) { forget(); }  // the deal began: the bet clock is over for this round
      if (!clock || paused) {
        var was = !!current;  // a halt stops the clock that ran (none runs while the dealer pays)
        stop();
        if (paused && was) {
          box.hidden = false;
          box.classList.add("term-clock-paused");
          what.textContent = W.paused;
          left.textContent = "";
        }
        return;
      }
      box.classList.remove("term-clock-paused");
      var offset = serverNow - Date.now();
      var deadline = clock.deadline != null ? clock.deadline : betDeadline(clock.seconds, serverNow);
      if (current && current.entries === entries && current.clock.kind === clock.kind && current.deadline === deadline) {
        return;  // the same clock, still running (or already ended: it does not end twice)
      }
      if (timer) { window.clearInterval(timer); timer = null; }
      current = {clock: clock, deadline: deadline, offset: offset, entries: entries, fired: false, said: 0};
      what.textContent = label(clock);
      box.hidden = false;
      announce(fill(W.start, {what: label(clock), s: Math.max(0, Math.ceil((deadline - serverNow) / 1000))}));
      timer = window.setInterval(tick, 250);
      tick();
    }
    function forget() { try { window.localStorage.removeItem(storeKey); } catch (e) { /* none */ } }
    return {update: update, stop: stop, forget: forget, announce: announce};
  }
  window.TerminalClock = TerminalClock;
})();
