"""Forms of the dealing pages, by family: the fields they share (`fields`), the round form every
game's form is made of (`rounds`), incidents (`incidents`) and the shoe (`shoes`).

Each game's own round form lives in its package, `dealing/games/<variant>/forms.py`; pages find
it with `dealing.games.form_for(variant)`, never by naming a game here.
"""

from .fields import (
    QUICK_WIDGETS,
    RESULT_CHOICES,
    AmountField,
    CardField,
    CardsField,
    ResultField,
    UserChoiceField,
    amount_json_text,
    dealer_label,
    parse_amount_text,
    parse_cards,
)
from .incident_file import AttachmentForm, ReviewForm, SignOffForm, VideoForm
from .incidents import DecisionForm, IncidentForm
from .rounds import SETTLEMENT_CODES, Check, FindingView, RoundForm, WagerRow, document_token, pit_dealers
from .shoes import BurnForm, DealerChangeForm, ShoeStartForm

__all__ = [
    "AttachmentForm",
    "ReviewForm",
    "SignOffForm",
    "VideoForm",
    "QUICK_WIDGETS",
    "RESULT_CHOICES",
    "AmountField",
    "CardField",
    "CardsField",
    "ResultField",
    "UserChoiceField",
    "amount_json_text",
    "dealer_label",
    "parse_amount_text",
    "parse_cards",
    "DecisionForm",
    "IncidentForm",
    "SETTLEMENT_CODES",
    "Check",
    "FindingView",
    "RoundForm",
    "WagerRow",
    "document_token",
    "pit_dealers",
    "BurnForm",
    "DealerChangeForm",
    "ShoeStartForm",
]
