from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from fogcontrol.core.roles import Role


class TokenRequestSerializer(AuthTokenSerializer):
    """Username and password in; the same checks as signing in to the site."""


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='Send it as the header "Authorization: Token <token>".')
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)
    created = serializers.BooleanField(help_text="True when this request issued the token.")
