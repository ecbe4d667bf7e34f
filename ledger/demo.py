"""A finished demo night on the demo veintiuno table (Casa-21), for `manage.py demo_floor`.

Idempotent: when the night is there (by its name, at that table) nothing happens. The rounds are
dealt by the engine's simulator from one pack through the night and logged by dealer1 through the
ledger's services (so through `round_log`, the hash chain and the audit, like any round); one round
carries a dealer's mistake for the audit to find. The bank passes by declared naturals.
"""

import random

from django.contrib.auth import get_user_model
from django.db import transaction

from casino import house_rules
from casino.choices import Variant
from casino.models import Table
from dealing import engine
from dealing.engine.veintiuno.simulator import Pack, simulate_round

from . import selectors, services
from .choices import EndReason
from .models import GameSession

NAME = "Viernes en Casa-21"
PLAYERS = ["Ana", "Beto", "Caro", "Dani", "Eva"]
# Ana and Dani tie on the ace; Dani wins the second pass with the king.
DRAW = [{"Ana": "AS", "Beto": "QH", "Caro": "5D", "Dani": "AC", "Eva": "7S"}, {"Ana": "3S", "Dani": "KD"}]
LIMITS = {"Ana": (5, 50), "Beto": (10, 100), "Caro": (5, 25), "Dani": (5, 50), "Eva": (10, 50)}
ROUNDS = 18
SEED = 2104
MISTAKE_AT = 7  # the round where the bank pays a tie (WRONG_RESULT)


@transaction.atomic
def ledger_demo_load(*, table_name: str = "Casa-21", dealer: str = "dealer1") -> list[str]:
    """Load the demo night; returns what was created (empty when it was there already)."""
    table = Table.objects.filter(name=table_name, variant=Variant.VEINTIUNO).first()
    user = get_user_model().objects.filter(username=dealer).first()
    if table is None or user is None or GameSession.objects.filter(table=table, name=NAME).exists():
        return []
    try:  # a table whose rules the engine cannot read (yet) gets no night
        house_rules.in_force(table.variant, table.rules)
    except (house_rules.VariantUnavailable, engine.RoundError):
        return []
    session = services.session_create(table=table, players=PLAYERS, unit=5, created_by=user, name=NAME)
    services.session_draw_record(session=session, by=user, passes=DRAW)
    session.refresh_from_db()
    rng = random.Random(SEED)
    pack = Pack(rng)
    for number in range(1, ROUNDS + 1):
        state = selectors.session_state(session)
        low, high = LIMITS[state.bank]
        seated = [player for _place, player in state.seated()]
        dealt = simulate_round(
            rng,
            players=seated,
            bank=state.bank,
            table_min=low,
            table_max=high,
            unit=5,
            pack=pack,
            specials=0.45,
            declare=1.0,
            mistake="tie_paid" if number == MISTAKE_AT else None,
        )
        services.session_round_add(session=session, document=dealt.doc, logged_by=user)
    services.session_end(
        session=session, by=user, reason=EndReason.AGREEMENT, note="Cerramos a las dos: cada uno paga lo que debe."
    )
    return [f"game night {NAME} ({ROUNDS} rounds)"]
