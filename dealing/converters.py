"""The table name in the addresses of a table's pages: /tables/<name>/shoe/ and the like.

Names are checked when they are given (casino.validators), but a table may carry an older name
with a `/` or any other character. Django's `str` converter stops at `/` and cannot build such an
address (NoReverseMatch: a 500 on every page that links to the table), so this converter takes
any non-empty text without a NUL: the patterns that use it each end in their own fixed suffix
(`/shoe/`, `/rounds/new`, ...), so a `/` inside the name is never mistaken for one of them.
`reverse()` percent-encodes everything else. A NUL could never be a stored name (PostgreSQL refuses
it in text) and would fail the lookup, so an address with one is simply not found.

Left as it is: an old name with a `.` or `..` segment ("../x") gives an address that a browser
shortens before sending it, which then finds nothing (a 404, never a 500); renaming the table in
the admin, which now requires a plain name, mends it.
"""


class TableNameConverter:
    regex = "[^\x00]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value) -> str:
        return str(value)
