"""The BMP materials in the API (C4, C7): the list of what may be printed, each material as a PDF
in English or Spanish (`?language=`, default the user's preferred language) on Letter or A4
(`?paper=`), and an establishment's C4 training sheet prefilled with its name (outside the user's
scope: 404). A hauler is told they do not exist (404), as on the pages. Thin: parse, call
``records.pdf``, answer."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import renderers, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from fogcontrol.core.api.filters import MAX_ID
from fogcontrol.core.api.renderers import PDFRenderer
from fogcontrol.core.languages import Language
from fogcontrol.core.permissions import has_role
from fogcontrol.records import pdf, selectors
from fogcontrol.records.roles import BMP_READERS

PDF_ANSWER = {(200, "application/pdf"): OpenApiTypes.BINARY}


class PrintOptionsSerializer(serializers.Serializer):
    language = serializers.ChoiceField(
        choices=Language.choices,
        required=False,
        help_text="The language to print in: en or es. Default: the user's preferred language.",
    )
    paper = serializers.ChoiceField(
        choices=list(pdf.PAPERS.items()), required=False, default=pdf.DEFAULT_PAPER, help_text="letter or a4."
    )


class MaterialSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField(help_text="In the language asked for.")
    description = serializers.CharField()
    provision = serializers.CharField(help_text="The provision of Chapter 10.02 it serves: C4 or C7.")
    languages = serializers.ListField(child=serializers.CharField())
    pdf_url = serializers.CharField()


def _readers_only(user) -> None:
    if not has_role(user, BMP_READERS):
        raise Http404("No such page.")


def _options(request) -> tuple[str, str]:
    options = PrintOptionsSerializer(data=request.query_params)
    options.is_valid(raise_exception=True)
    language = options.validated_data.get("language") or pdf.language_or_default(
        getattr(request.user, "preferred_language", None)
    )
    return language, options.validated_data["paper"]


def _pdf(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


class MaterialListView(APIView):
    """`GET /api/v1/bmp-materials/`: the C4 training sheet and the C7 signs, with their PDF's URL."""

    permission_classes = [IsAuthenticated]
    pagination_class = None

    @extend_schema(
        summary="The BMP materials to print (C4, C7)",
        parameters=[PrintOptionsSerializer],
        responses={200: MaterialSerializer(many=True)},
    )
    def get(self, request):
        _readers_only(request.user)
        language, paper = _options(request)
        with translation.override(language):
            rows = [
                {
                    "key": material.key,
                    "title": str(material.title),
                    "description": str(material.description),
                    "provision": material.provision,
                    "languages": list(pdf.LANGUAGES),
                    "pdf_url": reverse("bmp-material-pdf", kwargs={"key": material.key}, request=request)
                    + f"?language={language}&paper={paper}",
                }
                for material in pdf.MATERIALS.values()
            ]
        return Response(MaterialSerializer(rows, many=True).data)


class MaterialPdfView(APIView):
    """`GET /api/v1/bmp-materials/{key}/pdf/`: a C7 sign, or the C4 training sheet blank."""

    permission_classes = [IsAuthenticated]
    renderer_classes = [renderers.JSONRenderer, PDFRenderer]

    @extend_schema(
        summary="A BMP material as a PDF (C4 training sheet, C7 signs)",
        parameters=[
            OpenApiParameter(
                "key", str, OpenApiParameter.PATH, enum=list(pdf.MATERIALS), description="The material."
            ),
            PrintOptionsSerializer,
        ],
        responses=PDF_ANSWER,
    )
    def get(self, request, key: str):
        _readers_only(request.user)
        if key not in pdf.MATERIALS:
            raise Http404("No such material.")
        language, paper = _options(request)
        return _pdf(
            pdf.material_pdf(key, language=language, paper=paper),
            pdf.material_filename(key, language=language),
        )


class EstablishmentTrainingSheetView(APIView):
    """`GET /api/v1/establishments/{id}/training-sheet/`: the C4 sheet prefilled with the FSE's name."""

    permission_classes = [IsAuthenticated]
    renderer_classes = [renderers.JSONRenderer, PDFRenderer]

    @extend_schema(
        summary="The establishment's C4 training sign-in sheet as a PDF, prefilled",
        parameters=[PrintOptionsSerializer],
        responses=PDF_ANSWER,
    )
    def get(self, request, pk: str):
        try:
            if not pk.isdigit() or int(pk) > MAX_ID:
                raise ValueError(pk)
            establishment = selectors.establishment_for(request.user, int(pk))
        except (ObjectDoesNotExist, ValueError) as missing:
            raise Http404("No such establishment.") from missing
        language, paper = _options(request)
        return _pdf(
            pdf.training_sheet_pdf(establishment=establishment, language=language, paper=paper),
            pdf.material_filename(pdf.TRAINING_SHEET, language=language, establishment=establishment),
        )
