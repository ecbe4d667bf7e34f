"""Python's cyclic garbage collector paused over work that allocates millions of objects and makes
no cycle: a player's year is 50,000 decoded documents and a hundred thousand evaluated rounds and
decisions. With the collector running, each few hundred allocations start a collection that walks
a heap that keeps growing, and what the work built is walked again, generation after generation,
until it is dropped: about a fifth of the evaluation's time (docs/benchmarks.md, "Player
evaluation").

    @paused()                 # a view: paused until its objects are dropped, with its frame
    def player_evaluation(request, player): ...

    with paused():            # a block
        ...

Paused over a whole request, not only over the building: re-enabled while the objects are alive,
the collector walks them at the next allocation (0.17 s for a year's documents); dropped first,
they leave nothing for it to walk. Nested pauses leave an outer one as it was. Reference counting
frees everything as usual: only cycles wait, and one request delays them by its length.
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
