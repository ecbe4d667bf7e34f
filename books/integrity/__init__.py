"""Integrity signals (docs/signals.md): `detection` (the tests, pure Python), `selectors` (reads),
`services` (the scan, the review), `views`, `apis`, `forms`."""
