"""The game math endpoints, mounted under /api/v1/math/ in the "api" namespace (casino/urls.py): each
game's (the `math` slot of its GAME, dealing/games/<variant>/math/urls.py `api`), in the registry's order."""

from dealing import games

urlpatterns = [pattern for _game, math in games.filled("math") for pattern in math.load().api]
