"""factory_boy factories of the project's models. Apps add theirs here.

UserFactory(role="dealer")                      # a user in the dealer group
StaffFactory(user__role="pit_boss", pits=[pit]) # a staff profile in one pit
TableFactory(variant="ochko", pit__name="Pit A")
"""

from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from casino.choices import Variant
from casino.models import Pit, Staff, Table
from casino.roles import ROLES

PASSWORD = "demo"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    email = factory.LazyAttribute(lambda u: f"{u.username}@casino.example")
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def role(user, create, extracted, **kwargs):
        """`role="dealer"` (or a list of roles) puts the user in those groups."""
        if not extracted:
            return
        roles = [extracted] if isinstance(extracted, str) else list(extracted)
        assert set(roles) <= set(ROLES), f"unknown role in {roles}"
        # The groups come from a migration; a transactional test's flush removes them, so a later
        # test recreates what it needs.
        groups = [Group.objects.get_or_create(name=name)[0] for name in roles]
        user.groups.add(*groups)


class SuperuserFactory(UserFactory):
    username = factory.Sequence(lambda n: f"admin{n}")
    is_superuser = True
    is_staff = True


class PitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pit
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Pit {n}")
    description = ""


class TableFactory(factory.django.DjangoModelFactory):
    """An ochko table of six boxes, 100–5,000, by default."""

    class Meta:
        model = Table

    name = factory.Sequence(lambda n: f"T-{n}")
    pit = factory.SubFactory(PitFactory)
    variant = Variant.OCHKO
    min_bet = Decimal("100")
    max_bet = Decimal("5000")
    boxes = 6
    chips = factory.LazyFunction(lambda: ["100", "500", "1000", "5000"])
    rules = factory.LazyFunction(dict)
    is_active = True


class StaffFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Staff
        skip_postgeneration_save = True

    user = factory.SubFactory(UserFactory)
    badge = factory.Sequence(lambda n: f"B-{n:03d}")

    @factory.post_generation
    def pits(staff, create, extracted, **kwargs):
        """`pits=[pit_a, pit_b]` puts the staff member in those pits."""
        if extracted:
            staff.pits.add(*extracted)


# --- dealing ------------------------------------------------------------------------------------------
# Rounds are not made by a factory: they are logged through `dealing.services.round_log`, which
# computes the chain (tests/dealing/conftest.py has helpers that deal them with the simulators).

from dealing.choices import IncidentKind, Resolution  # noqa: E402
from dealing.models import Incident, Shoe  # noqa: E402

# A round is never updated (append-only): a test that needs a round in another state appends the
# fact that puts it there, behind the services' back, as the old tests edited its columns.


def audit_pending(rounds) -> None:
    """The rounds (a queryset or ids) as not audited yet: their audit rows back to pending."""
    from audit.pending_rollup import pending_rebuild
    from dealing.choices import AuditStatus
    from dealing.models import RoundAudit

    ids = list(rounds.values_list("pk", flat=True)) if hasattr(rounds, "values_list") else list(rounds)
    RoundAudit.objects.filter(round_id__in=ids).update(status=AuditStatus.PENDING, audited_at=None, engine_version="")
    # Behind the services' back: the counters of rounds waiting for audit are what a rebuild gives.
    pending_rebuild()


def awaiting_pit_boss(record, *, corrects) -> None:
    """`record` as a correction of `corrects` that no pit boss has decided yet (not in force)."""
    from dealing.models import Round

    Round.objects.filter(pk=record.pk).update(supersedes=corrects)


def superseded(record, *, by, decided_by) -> None:
    """`record` superseded by the round `by`, as an approval appends it (not chained: for selections)."""
    from django.db.models import Max
    from django.utils import timezone

    from dealing.models import Approval, Supersession

    link = (Approval.objects.aggregate(m=Max("link"))["m"] or -1) + 1
    approval = Approval.objects.create(
        round=by, decided_by=decided_by, decision="approved", link=link, hmac=f"{link:064d}", chain_key="test"
    )
    Supersession.objects.create(superseded=record, superseding=by, approval=approval, at=timezone.now())


class ShoeFactory(factory.django.DjangoModelFactory):
    """A shoe row of its own (no shuffle event): `dealing.services.shoe_start` makes real ones."""

    class Meta:
        model = Shoe

    table = factory.SubFactory(TableFactory)
    number = factory.Sequence(lambda n: n + 1)
    decks = 8
    shuffled_by = factory.SubFactory(UserFactory, role="dealer")


class IncidentFactory(factory.django.DjangoModelFactory):
    """A reported exposed dealer card, burned; give `table`, `dealer` and `reported_by` to place it."""

    class Meta:
        model = Incident

    kind = IncidentKind.DEALER_CARD_EXPOSED
    card = "KH"
    exposed = True
    table = factory.SubFactory(TableFactory)
    dealer = factory.SubFactory(UserFactory, role="dealer")
    reported_by = factory.SubFactory(UserFactory, role="inspector")
    resolution = Resolution.BURNED


# --- drills (drills) ----------------------------------------------------------------

from drills import setups as drill_setups  # noqa: E402
from drills.models import CertificationStandard, Drill  # noqa: E402


class DrillFactory(factory.django.DjangoModelFactory):
    """A payout drill of 21 Ochko at the practice table R-1; `drills.services.drill_start`
    starts real ones (both deal the same rounds for the same seed)."""

    class Meta:
        model = Drill

    trainee = factory.SubFactory(UserFactory, role="trainee")
    variant = "ochko"
    preset = ""
    kind = "payout"
    seed = factory.Sequence(lambda n: 7000 + n)
    options = factory.LazyAttribute(lambda d: drill_setups.default_options(d.variant, d.preset, d.kind))
    table_key = factory.LazyAttribute(lambda d: drill_setups.tables_for(d.variant, d.preset)[0].key)
    table_name = factory.LazyAttribute(lambda d: drill_setups.table_setup(d.variant, d.preset, d.table_key).name)
    table_min = factory.LazyAttribute(lambda d: drill_setups.table_setup(d.variant, d.preset, d.table_key).min)
    table_max = factory.LazyAttribute(lambda d: drill_setups.table_setup(d.variant, d.preset, d.table_key).max)
    chips = factory.LazyAttribute(
        lambda d: [str(c) for c in drill_setups.table_setup(d.variant, d.preset, d.table_key).chips]
    )
    rounds_planned = 5


class CertificationStandardFactory(factory.django.DjangoModelFactory):
    """Ochko payouts: 3 rounds in a row at 90 % or better, no time limit."""

    class Meta:
        model = CertificationStandard

    variant = "ochko"
    preset = ""
    kind = "payout"
    rounds_in_row = 3
    min_accuracy = Decimal("90")
    time_limit_s = None
    set_by = factory.SubFactory(UserFactory, role="pit_boss")
