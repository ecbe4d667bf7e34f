/* Audit pages: small conveniences only — every form works without this script. */
(function () {
  "use strict";
  var FIT = { confirmed: "dealer_error", dismissed: "no_error", open: "" };

  function syncClassification(statusSelect) {
    var form = statusSelect.form;
    var cls = form && form.querySelector("select[name=classification]");
    if (cls && Object.prototype.hasOwnProperty.call(FIT, statusSelect.value)) {
      cls.value = FIT[statusSelect.value];
    }
  }

  function countChecked(form) {
    var n = form.querySelectorAll("input[name=ids]:checked").length;
    var out = form.querySelector("[data-selected]");
    if (out) { out.textContent = out.getAttribute("data-template").replace("%n", n); }
    var submit = form.querySelector("[data-bulk-submit]");
    if (submit) { submit.disabled = n === 0; }
  }

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches("select[name=status]")) { syncClassification(el); }
    if (el.matches("[data-select-all]")) {
      var form = el.form;
      form.querySelectorAll("input[name=ids]").forEach(function (box) { box.checked = el.checked; });
      countChecked(form);
    } else if (el.matches("input[name=ids]")) {
      countChecked(el.form);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-bulk]").forEach(countChecked);
  });
})();
