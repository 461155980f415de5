"""Serializers shared by every app's API."""

from rest_framework import serializers


class ExplanationSerializer(serializers.Serializer):
    """A `rules.explain.Explanation`: the provisions a result rests on and the steps that produced
    it, so that a program can show the working a clerk would read at a hearing."""

    provisions = serializers.ListField(child=serializers.CharField(), help_text="Provision IDs, e.g. L2.")
    steps = serializers.ListField(child=serializers.CharField(), help_text="The working, in order.")
    text = serializers.CharField(help_text="Provisions and numbered steps as plain text.")


class VerdictSerializer(serializers.Serializer):
    """One step of `fogcontrol.core.actions`: may the requesting user take it now, and if not, why."""

    allowed = serializers.BooleanField(source="ok")
    reason = serializers.CharField(help_text="Empty when allowed; else what stands in the way.")


def actions_data(actions: dict) -> dict:
    return {step: VerdictSerializer(verdict).data for step, verdict in actions.items()}
