"""POST /api/v1/auth/token/: username and password in, the user's API token out."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from fogcontrol.accounts.api.serializers import TokenRequestSerializer, TokenSerializer
from fogcontrol.accounts.lockout import lockout_response
from fogcontrol.accounts.services import api_token_get_or_create


class TokenThrottle(AnonRateThrottle):
    # Slows password guessing; generous enough for any real script.
    rate = "30/minute"


class ObtainTokenView(APIView):
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [TokenThrottle]

    @extend_schema(
        summary="Get your API token",
        description="Give your username and password, and, if you have a second factor (every Town "
        "staff user does), a current code from your authenticator app as `otp_token`; the answer holds "
        "your token (issued if you had none). Rotate it on your account page (/account/).",
        request=TokenRequestSerializer,
        responses={
            200: TokenSerializer,
            400: OpenApiResponse(
                description="Missing fields, wrong username or password, or a missing or wrong "
                "second-factor code (`otp_token`)."
            ),
            429: OpenApiResponse(
                description="Too many wrong passwords for this username from this address: locked "
                "for the minutes given (`detail`, `locked_minutes`, Retry-After)."
            ),
        },
        auth=[],
        tags=["auth"],
    )
    def post(self, request):
        form = TokenRequestSerializer(data=request.data, context={"request": request})
        valid = form.is_valid()
        # django-axes marks the request when the username is locked out from this address
        # (fogcontrol/accounts/lockout.py); the DRF request carries the mark, not Django's.
        if getattr(request, "axes_locked_out", False):
            return lockout_response(request)
        if not valid:
            raise ValidationError(form.errors)
        user = form.validated_data["user"]
        token, created = api_token_get_or_create(user=user, acting_user=user)
        return Response(
            TokenSerializer(
                {"token": token.key, "username": user.get_username(), "role": user.role, "created": created}
            ).data
        )
