"""Dealing's REST endpoints (under /api/v1/, routed by dealing/api_urls.py), by family:

    tokens       TokenCreateApi, TokenRevokeAllApi
    shoes        ShoeCollectionApi, ShoeDetailApi, ShoeEndApi, ShoeBurnApi, ShoeDealerChangeApi
    rounds       RoundCollectionApi, RoundDetailApi, RoundAmendApi, RoundApproveApi, RoundRejectApi, StakeListApi
    incidents    IncidentCollectionApi, IncidentDetailApi, IncidentApproveApi, IncidentRejectApi
    incident_file  IncidentReviewApi, IncidentSignOffApi, IncidentVideoApi (files: the page only)
    engine       EngineSettleApi
    outputs      the output serializers;  common: pagination, reading a body exactly

Thin by design: each operation reads its input with a small serializer, calls one service or
selector, and writes its output with another. Who may do what is checked twice — the role at
the door (`casino.roles.HasRole`, with dealing.access's role tuples, the pages' too), the pit and
the four-eyes rules in the service. Round documents are read from the raw body by the engine
(`engine.load`), so amounts never pass through a float.
Errors: ``{"message", "extra"}`` (casino.exception_handlers); a round the engine refuses names its `code`,
JSON `path` and `event` index in `extra`.
"""

from .common import MONEY, READERS, Pagination
from .engine import EngineSettleApi
from .incident_file import IncidentReviewApi, IncidentSignOffApi, IncidentVideoApi
from .incidents import IncidentApproveApi, IncidentCollectionApi, IncidentDetailApi, IncidentRejectApi
from .outputs import (
    ApprovalSerializer,
    DecisionInput,
    IncidentDetailSerializer,
    IncidentSerializer,
    RoundDetailSerializer,
    RoundLoggedSerializer,
    RoundSerializer,
    ShoeDetailSerializer,
    ShoeEventSerializer,
    ShoeSerializer,
    StakeSerializer,
)
from .rounds import (
    ROUND_EXAMPLE,
    RoundAmendApi,
    RoundApproveApi,
    RoundCollectionApi,
    RoundDetailApi,
    RoundRejectApi,
    StakeListApi,
)
from .shoes import ShoeBurnApi, ShoeCollectionApi, ShoeDealerChangeApi, ShoeDetailApi, ShoeEndApi
from .tokens import TokenCreateApi, TokenRevokeAllApi

__all__ = [
    "IncidentReviewApi",
    "IncidentSignOffApi",
    "IncidentVideoApi",
    "MONEY",
    "READERS",
    "ROUND_EXAMPLE",
    "ApprovalSerializer",
    "DecisionInput",
    "EngineSettleApi",
    "IncidentApproveApi",
    "IncidentCollectionApi",
    "IncidentDetailApi",
    "IncidentDetailSerializer",
    "IncidentRejectApi",
    "IncidentSerializer",
    "Pagination",
    "RoundAmendApi",
    "RoundApproveApi",
    "RoundCollectionApi",
    "RoundDetailApi",
    "RoundDetailSerializer",
    "RoundLoggedSerializer",
    "RoundRejectApi",
    "RoundSerializer",
    "ShoeBurnApi",
    "ShoeCollectionApi",
    "ShoeDealerChangeApi",
    "ShoeDetailApi",
    "ShoeDetailSerializer",
    "ShoeEndApi",
    "ShoeEventSerializer",
    "ShoeSerializer",
    "StakeListApi",
    "StakeSerializer",
    "TokenCreateApi",
    "TokenRevokeAllApi",
]
