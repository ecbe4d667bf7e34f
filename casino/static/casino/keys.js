/* The letter a shortcut means, whatever the keyboard layout: with a Russian layout the P key types
   "з", so a Latin letter is taken from the key's position (ev.code "KeyP") when the key typed none.
   Layouts that type Latin letters keep their own letters (on AZERTY, A is "a", not "q"). */
window.shortcutKey = function (ev) {
  var key = ev.key || "";
  if (key.length === 1 && !/^[a-z]$/i.test(key) && /^Key[A-Z]$/.test(ev.code || "")) {
    return ev.code.charAt(3).toLowerCase();
  }
  return key.length === 1 ? key.toLowerCase() : key;
};
