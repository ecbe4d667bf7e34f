"""A shoe and what happens between rounds: loading, ending, burns, dealer changes; and how a round
names its shoe ("R-1/3")."""

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.models import Table
from casino.roles import DEALER, INSPECTOR, PIT_BOSS
from dealing import engine
from dealing.access import dealer_of, require
from dealing.engine import cards as engine_cards
from dealing.engine.money import parse_amount
from dealing.errors import refuse

from ..choices import BurnReason, ShoeEventKind
from ..models import Shoe, ShoeEvent, TerminalDraft
from .documents import MONEY_LIMIT
from .drafts import drafts_leave_behind


def shoe_decks(table: Table) -> int:
    """Packs in a new shoe of this table: ochko 8, blackjack its preset's `decks`, veintiuno `packs`."""
    rules = engine.house_rules(table.variant, table.rules)
    for key in ("decks", "packs"):
        if isinstance(rules.get(key), int):
            return rules[key]
    return engine.variant(table.variant).DECKS


def shoe_start(*, table: Table, shuffled_by, decks: int | None = None, loaded_at=None) -> Shoe:
    """Load a freshly shuffled shoe at a table: the open shoe (if any) ends, the new one records its shuffle."""
    require(
        shuffled_by,
        table,
        (DEALER, PIT_BOSS),
        _("Only a dealer or pit boss of pit %(pit)s loads a shoe at table %(table)s."),
    )
    if not table.is_active:
        raise refuse(_("Table %(table)s is closed.") % {"table": table.name}, "table_closed")
    if decks is None:
        decks = shoe_decks(table)
    elif type(decks) is not int or not 1 <= decks <= 16:
        raise refuse(_("A shoe holds from 1 to 16 packs."), "bad_decks", path="decks")
    now = timezone.now()
    loaded_at = loaded_at or now
    with transaction.atomic():
        Table.objects.select_for_update(no_key=True).filter(pk=table.pk).first()
        Shoe.objects.filter(table=table, ended_at__isnull=True).update(ended_at=max(now, loaded_at))
        # A round the terminal was following belongs to the shoe that ended: the pit boss decides on it.
        drafts_leave_behind(table=table, why=TerminalDraft.Left.NEW_SHOE)
        number = (Shoe.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
        shoe = Shoe.objects.create(
            table=table, number=number, decks=decks, loaded_at=loaded_at, shuffled_by=shuffled_by, next_position=2
        )
        ShoeEvent.objects.create(
            shoe=shoe, position=1, kind=ShoeEventKind.SHUFFLE, recorded_by=shuffled_by, recorded_at=loaded_at
        )
    return shoe


def shoe_end(*, shoe: Shoe, ended_by) -> Shoe:
    """End a shoe (the cut card came out, or the table closes)."""
    table = shoe.table
    require(
        ended_by,
        table,
        (DEALER, PIT_BOSS),
        _("Only a dealer or pit boss of pit %(pit)s ends a shoe at table %(table)s."),
    )
    with transaction.atomic():
        locked = _open_shoe(shoe)
        locked.ended_at = timezone.now()
        locked.save(update_fields=["ended_at"])
    shoe.ended_at = locked.ended_at
    return shoe


def _open_shoe(shoe: Shoe) -> Shoe:
    """The shoe's row, locked, while it is still open (inside the caller's transaction)."""
    locked = Shoe.objects.select_for_update(no_key=True).get(pk=shoe.pk)
    if locked.ended_at is not None:
        raise shoe_ended_error(shoe)
    return locked


def _shoe_event(shoe: Shoe, **fields) -> ShoeEvent:
    with transaction.atomic():
        locked = _open_shoe(shoe)
        position = locked.next_position
        Shoe.objects.filter(pk=shoe.pk).update(next_position=position + 1)
        return ShoeEvent.objects.create(shoe=shoe, position=position, **fields)


def card_code(variant: str, card, *, path: str = "card") -> str:
    """A card in the engine's notation ("10h" → "TH"), refused unless the variant's pack holds it."""
    code = engine_cards.normalize(card) if isinstance(card, str) else None
    if code is None:
        raise refuse(
            _('"%(card)s" is not a card: write rank and suit, like TS or AH.') % {"card": card}, "bad_card", path=path
        )
    if code not in engine.variant(variant).PACK:
        raise refuse(
            _("%(card)s is not in the %(variant)s pack.") % {"card": engine_cards.label(code), "variant": variant},
            "card_not_in_pack",
            path=path,
        )
    return code


def shoe_burn(*, shoe: Shoe, card, reason: str, fee=None, recorded_by) -> ShoeEvent:
    """A card burned between rounds: after loading, on a dealer change, a paid burn (with its fee), other."""
    table = shoe.table
    require(
        recorded_by,
        table,
        (DEALER, INSPECTOR, PIT_BOSS),
        _("Only the dealer, inspector or pit boss of pit %(pit)s records burns at table %(table)s."),
    )
    code = card_code(table.variant, card)
    if reason not in BurnReason.values:
        raise refuse(
            _("A burn's reason is one of: %(reasons)s.") % {"reasons": ", ".join(BurnReason.values)},
            "bad_reason",
            path="reason",
        )
    if reason == BurnReason.PAID:
        if fee is None or fee == "":
            raise refuse(_("A paid burn needs the fee the player paid."), "fee_required", path="fee")
        try:
            fee = parse_amount(fee, "fee")
        except engine.RoundError:
            raise refuse(
                _('The fee must be a positive amount with at most 2 decimals, such as 50 or "7.50".'),
                "bad_fee",
                path="fee",
            ) from None
        if fee >= MONEY_LIMIT:
            raise refuse(_("The fee is too large."), "bad_fee", path="fee")
    elif fee not in (None, ""):
        raise refuse(_("Only a paid burn has a fee."), "fee_not_paid", path="fee")
    else:
        fee = None
    return _shoe_event(shoe, kind=ShoeEventKind.BURN, card=code, reason=reason, fee=fee, recorded_by=recorded_by)


def shoe_dealer_change(*, shoe: Shoe, dealer, recorded_by) -> ShoeEvent:
    """A new dealer takes the table (ochko: one card is burned before his first round)."""
    table = shoe.table
    require(
        recorded_by,
        table,
        (DEALER, INSPECTOR, PIT_BOSS),
        _("Only the dealer, inspector or pit boss of pit %(pit)s records dealer changes at table %(table)s."),
    )
    if not dealer_of(table, dealer):
        raise refuse(
            _("%(user)s is not a dealer of pit %(pit)s.") % {"user": dealer, "pit": table.pit.name},
            "unknown_dealer",
            path="dealer",
        )
    return _shoe_event(shoe, kind=ShoeEventKind.DEALER_CHANGE, dealer=dealer, recorded_by=recorded_by)


def shoe_reference(shoe: Shoe) -> str:
    """How a round names its shoe: "R-1/3"."""
    return f"{shoe.table.name}/{shoe.number}"


def shoe_for_round(*, table: Table, reference) -> Shoe | None:
    """The shoe a round names ("R-1/3"), or the table's open shoe when it names none."""
    if reference:
        shoe = Shoe.objects.filter(table=table, number=shoe_number_of(table, reference)).first()
        if shoe is None:
            raise unknown_shoe_error(table, reference)
        return shoe
    return Shoe.objects.filter(table=table, ended_at__isnull=True).order_by("-number").first()


def shoe_number_of(table: Table, reference) -> int:
    name, _sep, number = str(reference).rpartition("/")
    if name != table.name or not (number.isascii() and number.isdigit()) or len(number) > 9:
        raise unknown_shoe_error(table, reference)
    return int(number)


def unknown_shoe_error(table: Table, reference) -> ServiceError:
    return refuse(
        _('Table %(table)s has no shoe "%(shoe)s" (shoes are named like %(example)s).')
        % {"table": table.name, "shoe": reference, "example": f"{table.name}/1"},
        "unknown_shoe",
        path="$.shoe",
    )


def shoe_ended_error(shoe: Shoe) -> ServiceError:
    return refuse(
        _("Shoe %(shoe)s has ended; start a new shoe first.") % {"shoe": shoe_reference(shoe)}, "shoe_ended", status=409
    )
