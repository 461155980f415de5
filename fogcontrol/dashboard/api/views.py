"""The dashboard's API: the "today" figures, the global search and the bulk flag review. Staff
only (404 for anyone else, as the pages)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.core.api.views import StaffOnly
from fogcontrol.core.permissions import require_role
from fogcontrol.dashboard import search as global_search
from fogcontrol.dashboard.api import serializers as s
from fogcontrol.dashboard.selectors import flag_queue, today_for
from fogcontrol.dashboard.services import flags_review_bulk, renewals_approve_bulk, routine_renewals
from fogcontrol.permits.filters import ApplicationFilter
from fogcontrol.permits.roles import DECIDERS
from fogcontrol.permits.selectors import application_list
from fogcontrol.servicing.filters import FlagFilter
from fogcontrol.servicing.permissions import STEP_ROLES


class TodayView(StaffOnly, APIView):
    """The staff home's figures for the user's role (each with the list page it counts) and the
    last twelve months of its trends."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: s.TodaySerializer})
    def get(self, request):
        return Response(s.TodaySerializer(today_for(request.user)).data)


class SearchView(APIView):
    """Establishments, devices, permits, manifests and parcels the user may see matching ``q`` (name,
    address, licence, APN, number or identifier), grouped by kind, at most ``limit`` of each."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("q", OpenApiTypes.STR, required=True, description="At least 2 characters."),
            OpenApiParameter("limit", OpenApiTypes.INT, description="Per kind, 1 to 25 (default 5)."),
        ],
        responses={200: s.SearchSerializer},
    )
    def get(self, request):
        text, problem = global_search.clean_query(request.query_params.get("q"))
        if not text:
            problem = "Give the text to search for as ?q=."
        if problem:
            raise ValidationError({"q": problem})
        raw = request.query_params.get("limit") or global_search.LIVE_LIMIT
        if not str(raw).isdigit() or not 1 <= int(raw) <= global_search.PAGE_LIMIT:
            raise ValidationError({"limit": f"A whole number from 1 to {global_search.PAGE_LIMIT}."})
        groups = global_search.search(request.user, text, limit=int(raw))
        return Response(s.SearchSerializer({"q": text, "groups": groups}).data)


class BulkFlagReviewView(StaffOnly, APIView):
    """F4: review many manifest flags with one outcome and one note: the named ``ids``, or every flag
    matching the filters (``all_matching``). Each flag is reviewed in its own transaction by the
    single-flag service (audited); a refused flag is listed with the reason, the others go through.
    ``dry_run`` counts them only."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.BulkFlagReviewSerializer, responses={200: s.BulkResultSerializer})
    def post(self, request):
        require_role(request.user, *STEP_ROLES["review"])
        body = s.BulkFlagReviewSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if data["all_matching"]:
            params = {"review": data["review"], "code": data["code"]}
            filterset = FlagFilter({k: v for k, v in params.items() if v}, queryset=flag_queue(request.user))
            if not filterset.is_valid():
                raise ValidationError(filterset.errors)
            chosen = filterset.qs
        else:
            chosen = flag_queue(request.user).filter(pk__in=data["ids"])
        if data["dry_run"]:
            matched = chosen.count()
            return Response(s.BulkResultSerializer({"matched": matched, "done": [], "refused": []}).data)
        result = flags_review_bulk(
            flags=chosen, acting_user=request.user, outcome=data["outcome"], note=data["note"]
        )
        return _answer(result)


def _answer(result):
    answer = {
        "matched": len(result.done) + len(result.refused),
        "done": result.done,
        "refused": [{"id": pk, "reason": why} for pk, why in result.refused],
    }
    return Response(s.BulkResultSerializer(answer).data)


class BulkRenewalView(StaffOnly, APIView):
    """B5, B6: approve many routine renewals (renewal applications submitted, under review or
    accepted): the named ``ids``, or all matching the application list's ``q`` and ``status``. Each
    is accepted if not yet and its permit issued, in its own transaction, by the permits services
    (audited); a refused one is listed with the reason. ``dry_run`` counts them only."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.BulkRenewalSerializer, responses={200: s.BulkResultSerializer})
    def post(self, request):
        require_role(request.user, DECIDERS, "Only the FOG Manager may approve renewals (B5).")
        body = s.BulkRenewalSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        queue = routine_renewals(application_list(request.user))
        if data["all_matching"]:
            params = {"q": data["q"], "status": data["status"]}
            filterset = ApplicationFilter({k: v for k, v in params.items() if v}, queryset=queue)
            if not filterset.is_valid():
                raise ValidationError(filterset.errors)
            chosen = filterset.qs
        else:
            chosen = queue.filter(pk__in=data["ids"])
        if data["dry_run"]:
            return Response(
                s.BulkResultSerializer({"matched": chosen.count(), "done": [], "refused": []}).data
            )
        return _answer(
            renewals_approve_bulk(applications=chosen, acting_user=request.user, note=data["note"])
        )
