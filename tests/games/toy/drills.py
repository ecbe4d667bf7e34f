"""The toy game's drill set-ups (dealing.games.drills, tests only): one practice table, no
difficulty options, a bet per box."""

from dealing.games.drills import GameDrills


def knobs(preset: str, options: dict, table_min, table_max, incidents: float = 0.0) -> dict:
    return dict(table_min=table_min, table_max=table_max, boxes=(1, max(1, int(options.get("boxes", 2)))))


DRILLS = GameDrills(
    variant="toy",
    labels={"": "Toy game"},
    tables={"": [("toy10", "Toy-1", 10, 100, [1, 5, 10, 25, 100])]},
    max_boxes={"": 2},
    features=[],
    knobs=knobs,
    features_of=lambda doc, outcome=None: set(),
    wagers=("bet",),
)
