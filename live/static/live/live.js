/* The page's live stream (Server-Sent Events). Every event is re-dispatched on <body> as
   "live:<kind>" (htmx listens with hx-trigger="live:incident from:body") and "live:event" (floor.js).
   The banner says when the page is not live: the bus is down, or the connection is lost. EventSource
   reconnects by itself, sending the last id it received; the server sends what was missed. */
(function () {
  "use strict";
  var holder = document.getElementById("live-stream");
  if (!holder || !window.EventSource) { return; }
  var url = holder.getAttribute("data-stream") + "?after=" + encodeURIComponent(holder.getAttribute("data-after") || "0");
  var source = null, retry = null, wait = 3000;

  function live(on) {
    holder.classList.toggle("is-hidden", on);
    document.body.setAttribute("data-live", on ? "on" : "off");
  }

  function open() {
    retry = null;
    source = new EventSource(url);
    source.addEventListener("status", function (e) {
      var on = false;
      try { on = JSON.parse(e.data).live === true; } catch (err) { on = false; }
      live(on);
      if (on) { wait = 3000; }
    });
    source.addEventListener("live", function (e) {
      var msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      document.body.dispatchEvent(new CustomEvent("live:" + msg.kind, { detail: msg }));
      document.body.dispatchEvent(new CustomEvent("live:event", { detail: msg }));
    });
    source.onerror = function () {
      live(false);
      // The browser retries by itself unless the answer was not a stream (a restart, a 502):
      // then this page opens a new one, carrying on from the last id it got.
      if (source.readyState === EventSource.CLOSED && retry === null) {
        retry = window.setTimeout(open, wait);
        wait = Math.min(wait * 2, 60000);
      }
    };
  }
  open();
})();
