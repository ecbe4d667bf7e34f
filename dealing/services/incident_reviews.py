"""What surveillance files on an incident: its review (classification, the money saved or lost) by
a first reviewer and the sign-off of a second, and its attachments — image and PDF files kept
through Django's storage with their SHA-256, and video references (a camera between two times).

Who: a pit boss of the table's pit or an auditor reviews and signs off, never the incident's
reporter or its dealer, and the second reviewer is never the first. Inspectors, pit bosses of the
pit and auditors attach. Once signed off, the file is closed: nothing is reclassified or attached.
"""

import hashlib
import os
import unicodedata
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.roles import AUDITOR, INSPECTOR, PIT_BOSS, has_role
from dealing.access import staff_of
from dealing.chain import Break
from dealing.errors import refuse

from ..choices import AttachmentKind, IncidentClass, MoneyDirection
from ..models import Incident, IncidentAttachment, IncidentReview
from .documents import check_text

# The file types an attachment may be, told by their first bytes (never by the name or the
# browser's word): the type and the kind of attachment each is.
SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png", AttachmentKind.IMAGE),
    (b"\xff\xd8\xff", "image/jpeg", AttachmentKind.IMAGE),
    (b"%PDF-", "application/pdf", AttachmentKind.DOCUMENT),
)
MONEY_MAX = Decimal("999999999999.99")
NAME_MAX = IncidentAttachment._meta.get_field("name").max_length
CAMERA_MAX = IncidentAttachment._meta.get_field("camera").max_length


def _may_review(user, incident: Incident) -> bool:
    return has_role(user, AUDITOR) or staff_of(user, incident.table, PIT_BOSS)


def _check_reviewer(user, incident: Incident) -> None:
    if not _may_review(user, incident):
        raise refuse(
            _("Only a pit boss of pit %(pit)s or an auditor reviews this incident.") % {"pit": incident.table.pit.name},
            "forbidden",
            status=403,
        )
    if user.pk == incident.reported_by_id:
        raise refuse(_("You reported this incident; another person reviews it."), "own_report", status=403)
    dealers = {incident.dealer_id, incident.round.dealer_id if incident.round_id else None}
    if user.pk in dealers:
        raise refuse(_("You were the dealer; another person reviews this incident."), "own_round", status=403)


def _text(value, field: str, *, required: bool) -> str:
    if not isinstance(value, str):
        raise refuse(_("%(field)s must be text.") % {"field": field}, "bad_text", path=field)
    check_text(value, field)
    value = value.strip()
    if required and not value:
        raise refuse(_("Say why (the reason)."), "reason_required", path=field)
    if len(value) > 4000:
        raise refuse(_("The text has at most %(n)d characters.") % {"n": 4000}, "too_long", path=field)
    return value


def money_checked(value) -> Decimal:
    """An amount of money as the review stores it: a decimal, not negative, at most two places."""
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal):
        raise refuse(_("The amount is a decimal number such as 150.00."), "bad_money", path="money")
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise refuse(_("The amount is a decimal number such as 150.00."), "bad_money", path="money") from None
    if not amount.is_finite():
        raise refuse(_("The amount is a decimal number such as 150.00."), "bad_money", path="money")
    if amount < 0:
        raise refuse(
            _("The amount is never negative: say whether it was saved or lost."), "negative_money", path="money"
        )
    if amount > MONEY_MAX or amount != amount.quantize(Decimal("0.01")):
        raise refuse(_("The amount has at most two decimal places and 12 digits."), "bad_money", path="money")
    return amount.quantize(Decimal("0.01"))


def _locked(incident: Incident) -> Incident:
    return Incident.objects.select_for_update(of=("self",)).select_related("table__pit", "round").get(pk=incident.pk)


def _open_review(incident: Incident) -> IncidentReview | None:
    review = IncidentReview.objects.select_for_update().filter(incident=incident).first()
    if review is not None and review.signed_off:
        raise refuse(_("This incident's review is signed off: it no longer changes."), "signed_off", status=409)
    return review


def incident_classify(
    *, incident: Incident, reviewed_by, classification: str, money_direction: str, money, reason: str
) -> IncidentReview:
    """The first review: whose fault it was and the money saved or lost, with the reason. Until the
    second reviewer signs off, another review replaces it (each a new link of the record chain)."""
    if classification not in IncidentClass.values:
        raise refuse(
            _("A classification is one of: %(values)s.") % {"values": ", ".join(IncidentClass.values)},
            "bad_classification",
            path="classification",
        )
    if money_direction not in MoneyDirection.values:
        raise refuse(
            _("Say whether the money was saved or lost (%(values)s).") % {"values": ", ".join(MoneyDirection.values)},
            "bad_direction",
            path="money_direction",
        )
    amount = money_checked(money)
    reason = _text(reason, "reason", required=True)
    with transaction.atomic():
        locked = _locked(incident)
        _check_reviewer(reviewed_by, locked)
        review = _open_review(locked) or IncidentReview(incident=locked)
        review.classification = classification
        review.money_direction = money_direction
        review.money = amount
        review.reason = reason
        review.reviewed_by = reviewed_by
        review.reviewed_at = timezone.now()
        review.save()
    return review


def incident_sign_off(*, incident: Incident, signed_by, comment: str = "") -> IncidentReview:
    """The second reviewer signs the first review off: another person than the reporter, the dealer
    and the first reviewer."""
    comment = _text(comment, "comment", required=False)
    with transaction.atomic():
        locked = _locked(incident)
        _check_reviewer(signed_by, locked)
        review = _open_review(locked)
        if review is None:
            raise refuse(_("The incident has no first review to sign off yet."), "no_review", status=409)
        if review.reviewed_by_id == signed_by.pk:
            raise refuse(_("You made the first review; a second person signs it off."), "same_reviewer", status=403)
        review.second_by = signed_by
        review.second_at = timezone.now()
        review.second_comment = comment
        review.save()
    return review


def _check_attacher(user, incident: Incident) -> None:
    if not (has_role(user, AUDITOR) or staff_of(user, incident.table, INSPECTOR, PIT_BOSS)):
        raise refuse(
            _("Only an inspector or pit boss of pit %(pit)s or an auditor adds to this incident's file.")
            % {"pit": incident.table.pit.name},
            "forbidden",
            status=403,
        )


def _file_name(name) -> str:
    name = os.path.basename(str(name or "").replace("\\", "/"))
    name = "".join(c for c in unicodedata.normalize("NFC", name) if unicodedata.category(c)[0] != "C").strip()
    if len(name) > NAME_MAX:
        stem, ext = os.path.splitext(name)
        name = stem[: NAME_MAX - len(ext)] + ext
    return name or "attachment"


def _read(upload) -> tuple[str, str, int]:
    """(content type, SHA-256, size) of an upload, refused if it is too large or not a file type
    an attachment may be."""
    limit = settings.INCIDENT_ATTACHMENT_MAX_BYTES
    too_large = refuse(
        _("The file is larger than %(n)s MB.") % {"n": f"{limit / 1048576:g}"}, "too_large", path="file", status=413
    )
    if upload.size is not None and upload.size > limit:
        raise too_large
    upload.seek(0)
    head = upload.read(16)
    found = next((s for s in SIGNATURES if head.startswith(s[0])), None)
    if found is None:
        raise refuse(
            _("An attachment is a JPEG or PNG image or a PDF document (checked by its content)."),
            "bad_type",
            path="file",
            status=415,
        )
    upload.seek(0)
    digest, size = hashlib.sha256(), 0
    for chunk in upload.chunks():
        size += len(chunk)
        if size > limit:
            raise too_large
        digest.update(chunk)
    upload.seek(0)
    return found[1], digest.hexdigest(), size


def incident_attach(*, incident: Incident, added_by, upload) -> IncidentAttachment:
    """An image or a PDF kept with the incident: checked (size, type by content) before anything is
    stored; the file and its row are written together, or neither."""
    _check_attacher(added_by, incident)
    content_type, sha256, size = _read(upload)
    name = _file_name(upload.name)
    check_text(name, "file")
    with transaction.atomic():
        locked = _locked(incident)
        _open_review(locked)
        kind = next(s[2] for s in SIGNATURES if s[1] == content_type)
        attachment = IncidentAttachment(
            incident=locked,
            kind=kind,
            name=name,
            content_type=content_type,
            size=size,
            sha256=sha256,
            added_by=added_by,
        )
        attachment.file.save(name, upload, save=False)
        try:
            attachment.save()
        except BaseException:
            attachment.file.delete(save=False)
            raise
    return attachment


def incident_video_reference(*, incident: Incident, added_by, camera: str, start, end) -> IncidentAttachment:
    """Where surveillance's recording of the incident is: a camera between two times (no file)."""
    _check_attacher(added_by, incident)
    camera = _text(camera, "camera", required=False)
    if not camera:
        raise refuse(_("Name the camera."), "camera_required", path="camera")
    if len(camera) > CAMERA_MAX:
        raise refuse(_("A camera's name has at most %(n)d characters.") % {"n": CAMERA_MAX}, "too_long", path="camera")
    if start is None or end is None or end <= start:
        raise refuse(_("The video ends after it starts."), "bad_times", path="end")
    with transaction.atomic():
        locked = _locked(incident)
        _open_review(locked)
        return IncidentAttachment.objects.create(
            incident=locked,
            kind=AttachmentKind.VIDEO,
            camera=camera,
            video_start=start,
            video_end=end,
            added_by=added_by,
        )


def attachment_files_check(relation) -> Break | None:
    """Every attachment's file read back from the storage and hashed: a file swapped, edited or
    removed behind the application's back no longer has the SHA-256 its chained row says."""
    rows = IncidentAttachment.objects.exclude(file="").order_by("pk").values_list("pk", "file", "sha256")
    storage = IncidentAttachment._meta.get_field("file").storage
    for pk, path, sha256 in rows.iterator(chunk_size=500):
        digest = hashlib.sha256()
        try:
            with storage.open(path, "rb") as handle:
                for chunk in iter(lambda handle=handle: handle.read(1 << 20), b""):
                    digest.update(chunk)
        except OSError:
            return Break(relation.key, relation.name, None, pk, f"its file {path} is missing from the storage")
        if digest.hexdigest() != sha256:
            return Break(
                relation.key,
                relation.name,
                None,
                pk,
                f"its file {path} does not have the SHA-256 its record says: the file was changed or swapped",
            )
    return None
