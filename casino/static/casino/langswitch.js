// The language switcher (base.html) posts itself when a language is chosen, so the page reloads
// in it at once. Kept out of the template: the pages carry no inline script (a CSP is coming).
// Without script, the switcher's own "Go" button posts it.
document.addEventListener("DOMContentLoaded", () => {
  const select = document.getElementById("language");
  if (select && select.form) {
    select.addEventListener("change", () => select.form.submit());
  }
});
