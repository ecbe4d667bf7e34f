// What every page does that would otherwise be inline code, which the Content-Security-Policy
// refuses (style-src 'self' forbids style="..." attributes; script-src 'self' forbids onchange=).
//
// 1. Values known only when the page is rendered (a progress bar's width, a place's position on
//    the table, the number of boxes an arc lays out) are written as data-style="width: 40%" and
//    set here through the CSSOM (element.style.setProperty), which the policy allows. Only the
//    properties below and custom properties (--name) are set: the attribute is for geometry, not
//    a way round the policy. Content added later (htmx swaps) is handled the same way.
// 2. The language switch submits its form when a language is picked.
// 3. The navigation's menus close on Escape and on a click elsewhere.
(function () {
  "use strict";
  var ALLOWED = { width: true, left: true, top: true };

  function applyStyles(root) {
    var nodes = root.querySelectorAll ? root.querySelectorAll("[data-style]") : [];
    var all = root.hasAttribute && root.hasAttribute("data-style") ? [root].concat([].slice.call(nodes)) : nodes;
    for (var i = 0; i < all.length; i++) {
      var el = all[i];
      el.getAttribute("data-style").split(";").forEach(function (declaration) {
        var colon = declaration.indexOf(":");
        if (colon < 0) return;
        var name = declaration.slice(0, colon).trim();
        var value = declaration.slice(colon + 1).trim();
        if (ALLOWED[name] || name.indexOf("--") === 0) el.style.setProperty(name, value);
      });
    }
  }

  applyStyles(document);
  // Whatever adds content later (htmx swapping in a fragment, a script) is seen here.
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      record.addedNodes.forEach(function (node) { if (node.nodeType === 1) applyStyles(node); });
    });
  }).observe(document.documentElement, { childList: true, subtree: true });

  // 3. The navigation's menus (<details>): one open at a time, closed by Escape (the focus goes
  //    back to its summary) or by a click outside it.
  var menus = [].slice.call(document.querySelectorAll(".navmenu"));
  menus.forEach(function (menu) {
    menu.addEventListener("toggle", function () {
      if (menu.open) menus.forEach(function (other) { if (other !== menu) other.open = false; });
    });
    menu.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && menu.open) { menu.open = false; menu.querySelector("summary").focus(); }
    });
  });
  document.addEventListener("click", function (e) {
    menus.forEach(function (menu) { if (menu.open && !menu.contains(e.target)) menu.open = false; });
  });

  var language = document.getElementById("language");
  if (language) language.addEventListener("change", function () { language.form.submit(); });
})();
