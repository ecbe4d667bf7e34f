"""The demo floor: two pits, eight tables, one user per role (password "demo").

Loading is idempotent: what exists is left as it is (an edit made in the admin survives), what is
missing is created, and memberships (roles, pits) are topped up. Running it twice changes nothing.
The apps above the floor add their demo data through `register_loader` (dealing: shoes, rounds,
incidents; ledger: a game night), so the floor imports none of them.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from . import selectors, services
from .choices import Variant
from .models import Pit, Table
from .roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE

DEMO_PASSWORD = "demo"
# The demo users who sign in with a second factor (the production default of OTP_REQUIRED_ROLES:
# DEMO_TOTP_USERS below) share one authenticator key, known and printed by `manage.py demo_floor`: add it to an
# authenticator app once (or set OTP_REQUIRED_ROLES= to switch the second factor off). The demo
# floor runs with DEBUG only, so the key never guards a real account.
DEMO_TOTP_KEY = "3132333435363738393031323334353637383930"  # hex of "12345678901234567890"

PITS = [
    ("Pit A", "21 Ochko tables."),
    ("Pit B", "Blackjack (salon and online) and veintiuno."),
]

# (pit, name, variant, min, max, boxes, chips, rule overrides)
TABLES = [
    ("Pit A", "R-1", Variant.OCHKO, "100", "5000", 6, [100, 500, 1000, 5000], {}),
    ("Pit A", "R-2", Variant.OCHKO, "500", "25000", 6, [500, 1000, 5000, 25000], {}),
    ("Pit A", "R-3", Variant.OCHKO, "1000", "50000", 6, [1000, 5000, 10000, 50000], {}),
    # The salon's three tiers (rules/blackjack.md, seed 002) and the online game (seed 001).
    ("Pit B", "Escribas", Variant.BLACKJACK, "100", "5000", 5, [100, 500, 1000, 5000], {"preset": "salon"}),
    ("Pit B", "Sacerdotes", Variant.BLACKJACK, "1000", "50000", 5, [1000, 5000, 10000, 50000], {"preset": "salon"}),
    ("Pit B", "Faraón", Variant.BLACKJACK, "10000", "500000", 5, [10000, 50000, 100000, 500000], {"preset": "salon"}),
    ("Pit B", "Online-1", Variant.BLACKJACK, "1", "1000", 1, [1, 5, 25, 100, 500], {"preset": "online"}),
    ("Pit B", "Casa-21", Variant.VEINTIUNO, "5", "100", 6, [5, 10, 25, 50], {}),
]

# (username, first name, last name, role or None for the superuser, badge)
USERS = [
    ("dealer1", "Dmitri", "Volkov", DEALER, "D-101"),
    ("inspector1", "Irina", "Sokolova", INSPECTOR, "I-201"),
    ("pitboss1", "Pavel", "Orlov", PIT_BOSS, "P-301"),
    # A second pit boss, so that each one's own reports (an incident he filed, a shift he counted
    # as a relief dealer) can be decided by the other: nobody approves his own.
    ("pitboss2", "Oleg", "Zaitsev", PIT_BOSS, "P-302"),
    ("auditor1", "Anna", "Lebedeva", AUDITOR, "A-401"),
    ("trainee1", "Timur", "Kozlov", TRAINEE, "T-501"),
    ("admin", "Floor", "Administrator", None, ""),
]
DEMO_TOTP_USERS = tuple(
    username for username, _first, _last, role, _badge in USERS if role in (PIT_BOSS, AUDITOR, None)
)


# The demo loaders of the apps above the floor, registered in their AppConfig.ready():
# {name: (order, name, loader)}; a loader takes no argument and returns what it created, in words.
_loaders: dict[str, tuple[int, str, Callable[[], list[str]]]] = {}


class _Progress:
    """Where the loaders' progress lines go while `demo_floor_load` runs (the command's output)."""

    report: Callable[[str], None] | None = None


def progress(line: str) -> None:
    """A line of progress from a step of the demo floor (the command prints it at once, so a first
    `make run` says what it is doing); nothing outside a load that reports."""
    if _Progress.report is not None:
        _Progress.report(line)


def register_loader(name: str, loader: Callable[[], list[str]], *, order: int = 100) -> None:
    """Load `loader`'s part of the demo floor after the floor itself, in `order` (re-registering
    a name replaces it). dealing loads its rounds at 10, the ledger its game night at 20."""
    _loaders[name] = (order, name, loader)


def unregister_loader(name: str) -> None:
    """Forget a loader registered under `name` (nothing if there is none)."""
    _loaders.pop(name, None)


@dataclass
class DemoResult:
    created: list[str] = field(default_factory=list)
    unchecked_rules: list[str] = field(default_factory=list)


def demo_floor_load(report: Callable[[str], None] | None = None) -> DemoResult:
    """Load what is missing; `report` gets a line as each step starts and as it finishes."""
    _Progress.report = report
    try:
        return _load()
    finally:
        _Progress.report = None


@transaction.atomic
def _load() -> DemoResult:
    result = DemoResult()
    progress("demo floor: pits, tables and users")
    pits = {}
    for name, description in PITS:
        pit = Pit.objects.filter(name=name).first()
        if pit is None:
            pit = services.pit_create(name=name, description=description)
            result.created.append(f"pit {name}")
        pits[name] = pit

    for pit_name, name, variant, low, high, boxes, chips, rules in TABLES:
        if Table.objects.filter(name=name).exists():
            continue
        _table_create(
            result,
            pit=pits[pit_name],
            name=name,
            variant=variant,
            min_bet=Decimal(low),
            max_bet=Decimal(high),
            boxes=boxes,
            chips=chips,
            rules=rules,
        )
        result.created.append(f"table {name}")

    User = get_user_model()
    for username, first, last, role, badge in USERS:
        user = User.objects.filter(username=username).first()
        if user is None:
            user = services.user_create(
                username=username,
                password=DEMO_PASSWORD,
                first_name=first,
                last_name=last,
                email=f"{username}@casino.example",
                is_superuser=role is None,
            )
            result.created.append(f"user {username}")
        services.staff_enrol(user=user, roles=(role,) if role else (), pits=list(pits.values()), badge=badge)
        if username in DEMO_TOTP_USERS and selectors.totp_device_confirmed(user=user) is None:
            services.totp_device_create(user=user, key=DEMO_TOTP_KEY)
            result.created.append(f"authenticator of {username}")

    # What the apps above the floor add (shoes, rounds, incidents, a game night), each loader
    # idempotent like the steps above; casino imports none of them (register_loader).
    for what in result.created:
        progress(f"  created {what}")
    loaders = sorted(_loaders.values(), key=lambda entry: entry[:2])
    for step, (_order, name, loader) in enumerate(loaders, 1):
        progress(f"demo floor {step}/{len(loaders)}: {name} …")
        began = time.perf_counter()
        created = loader()
        for what in created:
            progress(f"  created {what}")
        progress(f"demo floor {step}/{len(loaders)}: {name} done in {time.perf_counter() - began:.1f} s")
        result.created.extend(created)
    return result


def _table_create(result: DemoResult, **fields) -> Table:
    """`services.table_create`, except for one case the demo floor must get past (see below)."""
    table = Table(**fields)
    try:
        table.full_clean()
    except ValidationError as exc:
        # The blackjack and veintiuno engine modules land after this command was written; until
        # then their presets cannot be checked. The demo floor still needs those tables, so when
        # that is the only error the table is stored with its rules unchecked; any other stands.
        codes = {name: [e.code for e in errors] for name, errors in exc.error_dict.items()}
        if codes != {"rules": ["variant_unavailable"]}:
            raise
        result.unchecked_rules.append(table.name)
    table.save()
    return table
