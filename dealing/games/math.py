"""What a game's math pages and API share (the `math` slot of its GAME): the `GameMath` that says
where they are, who may read them, and the endpoints' two helpers.

Each game keeps its pages and endpoints in `dealing/games/<variant>/math/` (selectors caching the
engine's answers, presenters, forms, views, apis, and `urls.py` with `pages`, `api` and `warm()`);
the gamemath app mounts every game's under /math/ and /api/v1/math/ and warms them, asking the
registry and naming no game.
"""

from dataclasses import dataclass
from importlib import import_module

from rest_framework import serializers

from casino.roles import ROLES
from dealing.engine.math.questions import QuestionError

# Who may read the game math: every role. The pages and answers hold no floor data (no pit,
# table, dealer or round), only the engine's figures, so trainees read them too.
READERS = ROLES


@dataclass(frozen=True)
class GameMath:
    home: str  # the URL name (namespace "gamemath") of its first page: the navigation's entry when it comes first
    urls: str  # its module of `pages` (URL patterns under /math/), `api` (under /api/v1/math/) and `warm()`

    def load(self):
        return import_module(self.urls)


def asked(question):
    """The selector's answer; the engine's QuestionError becomes a 400 naming the field."""
    try:
        return question()
    except QuestionError as error:
        raise serializers.ValidationError({error.field: [str(error)]}) from None


def query(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
