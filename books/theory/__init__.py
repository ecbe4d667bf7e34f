"""Theoretical against actual win (docs/books.md): `arithmetic` (the figures, the band, pure Python),
`selectors` (reads), `views` and `apis` (the theory page and the reports)."""
