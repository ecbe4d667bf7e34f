"""What the pit boss's decision endpoints share: an incident and a correction are approved or
rejected the same way; each endpoint names what is decided and the service that decides it."""

from rest_framework.response import Response
from rest_framework.views import APIView

from casino.roles import HasRole
from dealing.access import DECIDERS

from .outputs import ApprovalSerializer, DecisionInput


class DecisionApi(APIView):
    permission_classes = [HasRole(*DECIDERS)]
    decision = ""

    def subject(self, user, pk: int):
        raise NotImplementedError

    def decide(self, subject, user, data: dict):
        raise NotImplementedError

    def post(self, request, pk: int):
        subject = self.subject(request.user, pk)
        data = DecisionInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(ApprovalSerializer(self.decide(subject, request.user, data.validated_data)).data)
