"""Dealer performance (docs/dealer-performance.md): `stats` (the exact tests, pure Python),
`selectors` (reads), `views`, `apis`."""
