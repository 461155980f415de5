from django_otp import user_has_device
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from fogcontrol.core.fresh_auth import verify_one_time_code
from fogcontrol.core.roles import Role


class TokenRequestSerializer(AuthTokenSerializer):
    """Username and password in; the same checks as signing in to the site, the second factor
    included: a user who has one (every staff user) gives a current code as well."""

    otp_token = serializers.CharField(
        required=False,
        allow_blank=True,
        write_only=True,
        help_text="A code from your authenticator app (or a backup code): required for Town staff, "
        "and for anyone who set up a second factor.",
    )

    def validate(self, attrs):
        attrs = super().validate(attrs)
        user = attrs["user"]
        if not user_has_device(user):
            if user.is_program_staff:
                raise serializers.ValidationError(
                    {
                        "otp_token": "Town staff need a second factor: sign in on the site once to set it up, then ask again with a code."
                    }
                )
            return attrs
        code = attrs.get("otp_token") or ""
        if not code:
            raise serializers.ValidationError(
                {"otp_token": "Give a current code from your authenticator app."}
            )
        if verify_one_time_code(user, code) is None:
            raise serializers.ValidationError(
                {"otp_token": "That code does not match; give the code your app shows now, or a backup code."}
            )
        return attrs


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='Send it as the header "Authorization: Token <token>".')
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)
    created = serializers.BooleanField(help_text="True when this request issued the token.")
