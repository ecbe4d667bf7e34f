"""The output serializers of dealing's endpoints: approvals, stakes, rounds, shoes, incidents; and
the input of a pit boss's decision, shared by corrections and incidents."""

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.api_inputs import JsonInput, Text
from dealing import selectors

from .common import MONEY


class ApprovalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    decision = serializers.CharField()
    comment = serializers.CharField()
    decided_by = serializers.CharField(source="decided_by.username")
    decided_at = serializers.DateTimeField()
    incident = serializers.IntegerField(source="incident_id", allow_null=True)
    round = serializers.IntegerField(source="round_id", allow_null=True)


class StakeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round_id")
    round_uid = serializers.UUIDField(source="round.uid")
    table = serializers.CharField(source="round.table.name")
    stake_id = serializers.CharField()
    box = serializers.IntegerField(allow_null=True, help_text="Box (or seat, veintiuno).")
    player = serializers.CharField()
    ante = serializers.DecimalField(**MONEY, allow_null=True)
    bet = serializers.DecimalField(**MONEY, allow_null=True)
    dealer_bet = serializers.DecimalField(**MONEY, allow_null=True)
    owed_net = serializers.DecimalField(**MONEY, allow_null=True, help_text="Σ pay − Σ take as the rules owed.")
    paid_net = serializers.DecimalField(**MONEY, allow_null=True, help_text="Σ pay − Σ take as logged.")


class _StakeInRoundSerializer(StakeSerializer):
    round_uid = None
    table = None


class RoundSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The record's id (each revision has its own).")
    uid = serializers.UUIDField(help_text="The document's id, shared by a round's revisions.")
    table = serializers.CharField(source="table.name")
    table_id = serializers.IntegerField()
    shoe = serializers.SerializerMethodField(help_text='The shoe\'s name, e.g. "R-1/3".')
    shoe_id = serializers.IntegerField(allow_null=True)
    table_round = serializers.IntegerField(
        allow_null=True,
        help_text="The round's number at its table: 1, 2, … (a "
        "correction keeps the number of the round it corrects). The number "
        "every page shows.",
    )
    number = serializers.IntegerField(allow_null=True, help_text="Round of the shoe: 1, 2, …")
    position = serializers.IntegerField(allow_null=True, help_text="Place among the shoe's events and rounds.")
    dealer = serializers.CharField(source="dealer.username")
    variant = serializers.CharField()
    revision = serializers.IntegerField()
    status = serializers.CharField()
    supersedes = serializers.IntegerField(source="supersedes_id", allow_null=True)
    chain_index = serializers.IntegerField()
    sha256 = serializers.CharField()
    prev_sha256 = serializers.CharField()
    logged_by = serializers.CharField(source="logged_by.username")
    logged_at = serializers.DateTimeField()
    played_at = serializers.DateTimeField(
        help_text="When the round was dealt (round/1 `played_at`; else when it was logged)."
    )
    audit_status = serializers.CharField(
        help_text="As stored when the record was read (the audit runs after the round is committed)."
    )
    audited_at = serializers.DateTimeField(allow_null=True)
    float_owed = serializers.DecimalField(**MONEY, allow_null=True)
    float_logged = serializers.DecimalField(**MONEY, allow_null=True)

    @extend_schema_field({"type": "string", "nullable": True})  # no shoe: a round logged without one
    def get_shoe(self, record) -> str | None:
        return None if record.shoe_id is None else f"{record.table.name}/{record.shoe.number}"


class _RevisionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    revision = serializers.IntegerField()
    status = serializers.CharField()
    logged_by = serializers.CharField(source="logged_by.username")
    logged_at = serializers.DateTimeField()
    amendment_reason = serializers.CharField()


class RoundDetailSerializer(RoundSerializer):
    house_rules = serializers.DictField()
    table_min = serializers.DecimalField(**MONEY)
    table_max = serializers.DecimalField(**MONEY)
    amendment_reason = serializers.CharField()
    document = serializers.DictField(help_text="The round/1 log as stored.")
    settlement = serializers.SerializerMethodField(help_text="The engine's settlement/1 of the document.")
    findings = serializers.SerializerMethodField()
    stakes = _StakeInRoundSerializer(many=True, source="stakes.all")
    revisions = serializers.SerializerMethodField()
    approvals = ApprovalSerializer(many=True, source="approvals.all")

    def _settlement(self, record) -> dict:
        cached = getattr(record, "_settlement", None)
        if cached is None:
            cached = record._settlement = selectors.round_settlement(round=record)
        return cached

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_settlement(self, record) -> dict:
        return self._settlement(record)

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_findings(self, record) -> list:
        return self._settlement(record).get("findings", [])

    @extend_schema_field(_RevisionSerializer(many=True))
    def get_revisions(self, record) -> list:
        return _RevisionSerializer(selectors.round_revisions(round=record), many=True).data


class RoundLoggedSerializer(RoundSerializer):
    findings = serializers.ListField(
        child=serializers.DictField(),
        source="_findings",
        help_text="What the engine found wrong in the log (stored all the same).",
    )


class ShoeEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    shoe = serializers.IntegerField(source="shoe_id")
    position = serializers.IntegerField()
    kind = serializers.CharField()
    card = serializers.CharField()
    reason = serializers.CharField()
    fee = serializers.DecimalField(**MONEY, allow_null=True)
    dealer = serializers.CharField(source="dealer.username", allow_null=True, default=None)
    recorded_by = serializers.CharField(source="recorded_by.username")
    recorded_at = serializers.DateTimeField()


class ShoeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.CharField(source="table.name")
    table_id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.SerializerMethodField(help_text='How rounds name the shoe: "R-1/3".')
    decks = serializers.IntegerField()
    loaded_at = serializers.DateTimeField()
    shuffled_by = serializers.CharField(source="shuffled_by.username")
    ended_at = serializers.DateTimeField(allow_null=True)
    is_open = serializers.BooleanField()

    @extend_schema_field(OpenApiTypes.STR)
    def get_name(self, shoe) -> str:
        return f"{shoe.table.name}/{shoe.number}"


class ShoeDetailSerializer(ShoeSerializer):
    events = ShoeEventSerializer(many=True, source="events.all")
    rounds = serializers.SerializerMethodField(help_text="Rounds in force dealt from this shoe.")
    cards_left = serializers.SerializerMethodField(help_text="Cards still in the shoe (null for veintiuno).")

    @extend_schema_field(OpenApiTypes.INT)
    def get_rounds(self, shoe) -> int:
        return selectors.shoe_rounds_count(shoe=shoe)

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_cards_left(self, shoe) -> int | None:
        return selectors.shoe_cards_left(shoe=shoe)


class IncidentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    card = serializers.CharField()
    exposed = serializers.BooleanField()
    table = serializers.CharField(source="table.name")
    table_id = serializers.IntegerField()
    shoe = serializers.IntegerField(source="shoe_id", allow_null=True)
    round = serializers.IntegerField(source="round_id", allow_null=True)
    dealer = serializers.CharField(source="dealer.username")
    reported_by = serializers.CharField(source="reported_by.username")
    reported_at = serializers.DateTimeField()
    status = serializers.CharField()
    resolution = serializers.CharField()
    to_box = serializers.IntegerField(allow_null=True)
    evidence = serializers.CharField()
    note = serializers.CharField()
    procedure = serializers.SerializerMethodField(
        help_text="The record's departures from the procedure (rules/ochko.md, Incidents): code, severity, "
        "message, params, rule_line. Empty when it holds."
    )

    @extend_schema_field({"type": "array", "items": {"type": "object"}})
    def get_procedure(self, incident) -> list[dict]:
        return selectors.incident_procedure(incident)


class IncidentReviewSerializer(serializers.Serializer):
    classification = serializers.CharField()
    money_direction = serializers.CharField(help_text="saved or lost")
    money = serializers.DecimalField(**MONEY)
    reason = serializers.CharField()
    reviewed_by = serializers.CharField(source="reviewed_by.username")
    reviewed_at = serializers.DateTimeField()
    second_by = serializers.CharField(source="second_by.username", allow_null=True, default=None)
    second_at = serializers.DateTimeField(allow_null=True)
    second_comment = serializers.CharField()


class IncidentAttachmentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="image, document or video (a reference, no file)")
    name = serializers.CharField()
    content_type = serializers.CharField()
    size = serializers.IntegerField()
    sha256 = serializers.CharField()
    camera = serializers.CharField()
    video_start = serializers.DateTimeField(allow_null=True)
    video_end = serializers.DateTimeField(allow_null=True)
    added_by = serializers.CharField(source="added_by.username")
    added_at = serializers.DateTimeField()
    download = serializers.SerializerMethodField(help_text="The file's download address (null for a video reference).")

    @extend_schema_field({"type": "string", "nullable": True})
    def get_download(self, attachment) -> str | None:
        return reverse("dealing:incident_attachment", args=[attachment.pk]) if attachment.file else None


class IncidentDetailSerializer(IncidentSerializer):
    approvals = ApprovalSerializer(many=True, source="approvals.all")
    review = serializers.SerializerMethodField(help_text="Classification, money and both reviewers; null before.")
    attachments = IncidentAttachmentSerializer(many=True, source="attachments.all")

    @extend_schema_field(IncidentReviewSerializer(allow_null=True))
    def get_review(self, incident) -> dict | None:
        review = selectors.incident_review_of(incident)
        return None if review is None else IncidentReviewSerializer(review).data


class DecisionInput(JsonInput):
    comment = Text(
        required=False, allow_blank=True, default="", max_length=4000, lines=True, help_text="Required to reject: why."
    )
