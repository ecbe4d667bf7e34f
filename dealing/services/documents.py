"""A round document read and completed before it is checked: refused when the database could not
keep it exactly, filled in from its table (name, limits, house rules in force), its dealer and id."""

import datetime as dt
import uuid
from decimal import Decimal

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from casino.models import Table
from dealing import engine, input_limits
from dealing.engine import document as engine_document
from dealing.engine import games as engine_games
from dealing.engine.money import fmt, parse_amount
from dealing.errors import engine_error, refuse

MONEY_LIMIT = Decimal(10) ** 12  # MONEY: 14 digits, 2 of them decimals (dealing.models)
# A round log is a shallow document; anything nested deeper is not one.
MAX_DEPTH = 24
MAX_EXPONENT = 40
# round/1: a `played_at` later than now by more than this is refused (the clocks of a terminal and
# of the server may disagree by that much).
CLOCK_SKEW = dt.timedelta(minutes=1)


def read_document(document) -> dict:
    """A round document as a dict, read by the engine; refused when it could not be stored faithfully."""
    try:
        doc = engine.load(document)
        engine_document.header(doc, doc.get("variant"))
    except engine.RoundError as exc:
        raise engine_error(exc) from None
    _check_storable(doc)
    input_limits.check_round_input(doc)
    return dict(doc)


def _check_storable(doc: dict) -> None:
    """Refuse what the database could not keep exactly: NUL characters and unpaired surrogates in
    text, numbers too large to write out, documents nested beyond any round log.

    Every round passes through here, so a quick walk (`_plainly_storable`) first looks for
    anything to refuse; only when it finds something does the walk below, which says what and
    where, run. That walk carries where a value is as a link to its parent (`(parent's place, key
    or index)`) and spells the JSON path out only for a refusal."""
    if _plainly_storable(doc, 0):
        return
    stack = [(doc, 0, None)]
    pop, push = stack.pop, stack.append
    while stack:
        value, depth, place = pop()
        if depth > MAX_DEPTH:
            path = _json_path(place)
            raise refuse(_("The document is nested too deeply at %(path)s.") % {"path": path}, "too_deep", path=path)
        kind = type(value)
        if kind is dict:
            for key, item in value.items():
                if "\x00" in key or not key.isascii():
                    check_text(key, _json_path(place))
                push((item, depth + 1, (place, key)))
        elif kind is list:
            for i, item in enumerate(value):
                push((item, depth + 1, (place, i)))
        elif kind is str:
            if "\x00" in value or not value.isascii():
                check_text(value, _json_path(place))
        elif kind is Decimal and (not value.is_finite() or abs(value.adjusted()) > MAX_EXPONENT):
            path = _json_path(place)
            raise refuse(_("The number at %(path)s is out of range.") % {"path": path}, "bad_number", path=path)


def _plainly_storable(value, depth: int) -> bool:
    """True when `_check_storable`'s walk would refuse nothing in `value` (a dict or list at `depth`).
    False at the first doubt, which that walk then settles: a container whose items would lie
    beyond MAX_DEPTH, a key that is not plain ASCII, text with a NUL or that does not encode, a
    number out of range. Text and numbers are checked where they stand, without a call each."""
    if depth >= MAX_DEPTH:
        return False
    items = value.items() if type(value) is dict else enumerate(value)
    for key, item in items:
        if type(key) is str and ("\x00" in key or not key.isascii()):
            return False
        kind = type(item)
        if kind is str:
            if "\x00" in item or not (item.isascii() or _encodes(item)):
                return False
        elif kind is dict or kind is list:
            if not _plainly_storable(item, depth + 1):
                return False
        elif kind is Decimal and (not item.is_finite() or abs(item.adjusted()) > MAX_EXPONENT):
            return False
    return True


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_path(place) -> str:
    """`$.events[3].card` from the links `_check_storable` keeps."""
    steps = []
    while place is not None:
        place, step = place
        steps.append(f"[{step}]" if type(step) is int else f".{step}")
    return "$" + "".join(reversed(steps))


def check_text(text: str, path: str) -> None:
    if "\x00" in text:
        raise refuse(_("The text at %(path)s contains a NUL character.") % {"path": path}, "bad_text", path=path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise refuse(_("The text at %(path)s is not valid Unicode.") % {"path": path}, "bad_text", path=path) from None


def complete_document(doc: dict, *, table: Table, logged_by) -> dict:
    """The document as it will be stored: the table's name, limits and house rules in force, the
    dealer's username and an id, filled in where the client left them out.

    Anything the client did give must agree with the stored table: a round logged against other
    limits or other house rules is refused rather than silently re-read.
    """
    doc = dict(doc)
    if doc.get("variant") != table.variant:
        given = doc.get("variant")
        if type(given) is not str or given not in engine.VARIANTS:
            try:  # the engine's own words for a missing or unknown variant
                engine.replay(doc)
            except engine.RoundError as exc:
                raise engine_error(exc) from None
        raise refuse(
            _("Table %(table)s plays %(variant)s, but the round is %(given)s.")
            % {"table": table.name, "variant": table.variant, "given": given},
            "variant_mismatch",
            path="$.variant",
        )
    given = doc.get("table") if isinstance(doc.get("table"), dict) else {}
    out_table = dict(given)
    out_table["name"] = table.name
    out_table["min"], out_table["max"] = _limits(given, table)
    doc["table"] = out_table
    _check_places(doc, table)
    in_force = engine.house_rules(table.variant, table.rules)
    if doc.get("rules") is not None:
        try:
            sent_rules = engine.house_rules(table.variant, doc["rules"])
        except engine.RoundError as exc:
            raise engine_error(exc) from None
        if sent_rules != in_force:
            differ = sorted(k for k in in_force if sent_rules.get(k) != in_force.get(k))
            raise refuse(
                _("The round's house rules differ from table %(table)s's (%(rules)s).")
                % {"table": table.name, "rules": ", ".join(differ)},
                "rules_mismatch",
                path="$.rules",
                rules=differ,
            )
    doc["rules"] = dict(table.rules or {})
    if not doc.get("dealer"):
        doc["dealer"] = logged_by.get_username()
    if doc.get("id") is None:
        doc["id"] = str(uuid.uuid4())
    else:
        try:
            doc["id"] = str(uuid.UUID(str(doc["id"])))
        except ValueError:
            raise refuse(
                _("The round's id must be a UUID, such as b7e4c2d0-5a1f-4a3e-9d51-0c7f2f0a9e11."), "bad_id", path="$.id"
            ) from None
    return doc


def _check_places(doc: dict, table: Table) -> None:
    """Every stake is on one of the table's boxes (a seat, at veintiuno): 1 to `table.boxes`. A
    stake on a box the felt does not have (0, -1, 7 at six boxes, 10**9) cannot have been played;
    it was stored, beyond the column's range with no box at all. A box of another type is left to
    the engine, which says what a box is."""
    stakes = doc.get("stakes")
    if type(stakes) is not list:
        return
    for i, item in enumerate(stakes):
        if type(item) is not dict:
            continue
        key = "seat" if "seat" in item else "box"
        number = item.get(key)
        if type(number) is int and not 1 <= number <= table.boxes:
            if key == "seat":
                message = _("Table %(table)s has seats 1 to %(n)d: there is no seat %(number)d.")
            else:
                message = _("Table %(table)s has boxes 1 to %(n)d: there is no box %(number)d.")
            raise refuse(
                message % {"table": table.name, "n": table.boxes, "number": number},
                "no_such_box",
                path=f"$.stakes[{i}].{key}",
            )


def _limits(given: dict, table: Table) -> tuple[Decimal, Decimal]:
    """The limits in force for the round: the table's. At veintiuno each bank announces its own,
    which must lie within the table's."""
    limits = {"min": table.min_bet, "max": table.max_bet}
    game = engine_games.get(table.variant)
    by_bank = game is not None and game.limits_by_bank
    for key in ("min", "max"):
        if key not in given:
            continue
        try:
            sent = parse_amount(given[key], f"$.table.{key}")
        except engine.RoundError as exc:
            raise engine_error(exc) from None
        if by_bank:
            if not table.min_bet <= sent <= table.max_bet:
                raise refuse(
                    _("The bank's %(which)s of %(sent)s lies outside table %(table)s's limits (%(min)s to %(max)s).")
                    % {
                        "which": _("minimum") if key == "min" else _("maximum"),
                        "sent": fmt(sent),
                        "table": table.name,
                        "min": fmt(table.min_bet),
                        "max": fmt(table.max_bet),
                    },
                    "limits_mismatch",
                    path=f"$.table.{key}",
                )
        elif sent != limits[key]:
            raise refuse(
                _("The round gives the table %(which)s as %(sent)s; table %(table)s's is %(value)s.")
                % {
                    "which": _("minimum") if key == "min" else _("maximum"),
                    "sent": fmt(sent),
                    "table": table.name,
                    "value": fmt(limits[key]),
                },
                "limits_mismatch",
                path=f"$.table.{key}",
            )
        limits[key] = sent
    if limits["min"] > limits["max"]:
        raise refuse(_("The round's minimum is above its maximum."), "limits_mismatch", path="$.table")
    return limits["min"], limits["max"]


def played_at_of(doc: dict, table: Table, *, now: dt.datetime | None = None) -> dt.datetime | None:
    """When the round was dealt, read from its `played_at` (ISO 8601 with its offset); None when it
    gives none (it was dealt when it is logged). Refused, naming the field: not such a time, a time
    without its offset (whose moment no one could tell), in the future beyond CLOCK_SKEW, or before
    its table came into play."""
    value = doc.get("played_at")
    if value is None:
        return None
    example = "2026-03-14T21:05:09+03:00"
    if type(value) is not str:
        raise refuse(
            _("played_at must be a time as text, such as %(example)s.") % {"example": example},
            "bad_played_at",
            path="$.played_at",
        )
    try:
        at = dt.datetime.fromisoformat(value)
    except ValueError:
        at = None
    if at is None or "T" not in value.upper():
        raise refuse(
            _('"%(value)s" is not a time in ISO 8601, such as %(example)s.') % {"value": value, "example": example},
            "bad_played_at",
            path="$.played_at",
        )
    if at.utcoffset() is None:
        raise refuse(
            _('The time "%(value)s" has no offset from UTC: give it, as in %(example)s.')
            % {"value": value, "example": example},
            "bad_played_at",
            path="$.played_at",
        )
    now = now or timezone.now()
    if at > now + CLOCK_SKEW:
        raise refuse(
            _("played_at %(value)s is in the future: a round is logged after it is dealt.") % {"value": value},
            "played_at_future",
            path="$.played_at",
        )
    if table.opened_at is not None and at < table.opened_at:
        raise refuse(
            _("played_at %(value)s is before table %(table)s came into play (%(opened)s).")
            % {
                "value": value,
                "table": table.name,
                "opened": formats.date_format(timezone.localtime(table.opened_at), "DATETIME_FORMAT"),
            },
            "played_at_before_table",
            path="$.played_at",
        )
    return at
