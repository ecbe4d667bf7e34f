/* A notification pushed on the page's live stream (live.js dispatches "live:notification" on
   <body>; the server sends each user only his own): the bell's count changes and a toast says what
   happened, without a reload. Text only (textContent): the payload is never read as HTML. */
(function () {
  "use strict";
  var bell = document.querySelector("[data-bell]");
  if (!bell) { return; }
  var shelf = null;

  function count(n) {
    var box = bell.querySelector("[data-bell-count]");
    if (box) { box.textContent = String(n); }
    bell.classList.toggle("bell-unread", n > 0);
    var said = bell.querySelector(".sr-only");
    // The screen reader's sentence keeps its words; only its number changes (the toast is announced).
    if (said) { said.textContent = said.textContent.replace(/\d+/, String(n)); }
  }

  function toast(data) {
    if (!shelf) {
      shelf = document.createElement("div");
      shelf.className = "toasts";
      shelf.setAttribute("role", "status");
      shelf.setAttribute("aria-live", "polite");
      document.body.appendChild(shelf);
    }
    var item = document.createElement("div");
    item.className = "toast";
    item.setAttribute("data-toast", data.kind || "");
    var head = document.createElement(data.url ? "a" : "strong");
    head.className = "toast-title";
    head.textContent = data.title || "";
    if (data.url && data.url.charAt(0) === "/") { head.setAttribute("href", data.url); }
    item.appendChild(head);
    if (data.text) {
      var line = document.createElement("p");
      line.textContent = data.text;
      item.appendChild(line);
    }
    var close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.textContent = "×";
    close.setAttribute("aria-label", bell.getAttribute("data-word-close") || "Close");
    close.addEventListener("click", function () { item.remove(); });
    item.appendChild(close);
    shelf.appendChild(item);
    window.setTimeout(function () { item.remove(); }, 12000);
  }

  document.body.addEventListener("live:notification", function (e) {
    var data = (e.detail && e.detail.data) || {};
    if (typeof data.unread === "number") { count(data.unread); }
    if (data.title) { toast(data); }
  });
})();
