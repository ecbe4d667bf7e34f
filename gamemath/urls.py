"""The Game math pages, under /math/ (namespace "gamemath"): each game's (the `math` slot of its GAME,
dealing/games/<variant>/math/urls.py `pages`), in the registry's order."""

from dealing import games

app_name = "gamemath"

urlpatterns = [pattern for _game, math in games.filled("math") for pattern in math.load().pages]
