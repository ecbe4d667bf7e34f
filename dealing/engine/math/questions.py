"""What every game's math shares in reading a question: its refusals, and cards read from a pack."""

from ..cards import normalize


class QuestionError(ValueError):
    """A question that cannot be asked; `field` names the argument at fault."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


class Refused(Exception):
    """A command line of the game math (math/cli.py) that cannot be answered: one line on standard error."""


def read_cards(texts, field: str, pack, pack_words: str) -> list[str]:
    """Card codes from a list (or a space-separated string) of spellings, each a card of `pack`;
    `pack_words` names the pack in the refusal ("the 36-card ochko pack (6 to A …)")."""
    if texts is None:
        return []
    if isinstance(texts, str):
        texts = texts.split()
    out = []
    for text in texts:
        code = normalize(text)
        if code is None or code not in pack:
            raise QuestionError(field, f"{text!r} is not a card of {pack_words}.")
        out.append(code)
    return out
