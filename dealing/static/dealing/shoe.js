/* Shoe page: the fee field matters only for a paid burn (the server ignores it otherwise). */
(function () {
  "use strict";
  function sync() {
    var form = document.getElementById("burn-form");
    if (!form) return;
    var reason = form.querySelector("select[name='burn-reason']");
    var fee = form.querySelector(".fee-field");
    if (reason && fee) fee.hidden = reason.value !== "paid";
  }
  document.addEventListener("change", function (ev) {
    if (ev.target.name === "burn-reason") sync();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sync);
  else sync();
})();
