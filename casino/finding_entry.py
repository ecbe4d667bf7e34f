"""One entry of the findings' catalogue (casino/finding_catalogue.py): a msgid with named
placeholders and the params each placeholder is filled from."""


class Unsaid(Exception):
    """A finding or phrase this module has no words for (a sentence the engine added after it)."""


class E:
    """A msgid and where its placeholders come from: `names` maps a placeholder to the param (or
    derived value: who, wager, because) it is filled with; a placeholder not listed is the param of
    its own name."""

    __slots__ = ("msgid", "names")

    def __init__(self, msgid, **names):
        self.msgid = msgid
        self.names = names

    def say(self, values: dict) -> str:
        text = str(self.msgid)
        if "%(" not in text:
            return text
        return text % _Fill(values, self.names)


class _Fill(dict):
    """The placeholders' values, looked up through E.names; a missing one is Unsaid, not a KeyError."""

    def __init__(self, values: dict, names: dict):
        super().__init__()
        self.values, self.names = values, names

    def __missing__(self, key):
        name = self.names.get(key, key)
        try:
            return self.values[name]
        except KeyError:
            raise Unsaid(name) from None
