"""Document pages: the issued documents (staff all; an FSE user its own once served), a document
with its PDF and its service record, writing a letter to an FSE (``general_letter``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list, staff_only
from fogcontrol.notices import selectors, services
from fogcontrol.notices.exports import DOCUMENT_COLUMNS
from fogcontrol.notices.filters import DocumentFilter
from fogcontrol.notices.forms import LetterForm, ServiceForm
from fogcontrol.notices.letters import GENERAL_LETTER
from fogcontrol.notices.pdf import document_pdf
from fogcontrol.notices.roles import DOCUMENT_ISSUERS, ISSUERS_ONLY
from fogcontrol.registry.models import FoodServiceEstablishment

PAGE_SIZE = 50


@login_required
def document_list(request):
    filterset, rows = filtered_rows(DocumentFilter, request, selectors.documents_for(request.user))
    live_filters(filterset, request.path)
    page = paginate(request, rows, PAGE_SIZE)
    for document in page.object_list:
        document.current_service = selectors.current_service(document)
    establishment = filterset.form.cleaned_data.get("establishment") if filterset.is_valid() else None
    context = {
        "filter": filterset,
        "page": page,
        "can_issue": has_role(request.user, DOCUMENT_ISSUERS),
        "establishment": establishment,
    }
    export = Export("documents", DOCUMENT_COLUMNS, rows)
    return render_list(request, "notices/document_list.html", context, export=export)


def _document_page(request, document, *, form=None, status=200):
    context = {
        "document": document,
        "service": selectors.current_service(document),
        "services": document.service_list,
        "can_record_service": has_role(request.user, DOCUMENT_ISSUERS),
        "form": form or ServiceForm(initial=_service_initial(document)),
    }
    return render(request, "notices/document_detail.html", context, status=status)


def _service_initial(document) -> dict:
    service = selectors.current_service(document)
    if service is None:
        return {}
    return {"service_method": service.method, "article_number": service.article_number}


@login_required
def document_detail(request, pk: int):
    document = found(selectors.document_detail, request.user, pk)
    return _document_page(request, document)


@login_required
def document_pdf_download(request, pk: int):
    document = found(selectors.document_detail, request.user, pk)
    response = HttpResponse(document_pdf(document), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{document.reference}.pdf"'
    return response


@login_required
@require_POST
def document_service(request, pk: int):
    document = found(selectors.document_detail, request.user, pk)
    require_role(request.user, DOCUMENT_ISSUERS, ISSUERS_ONLY)
    form = ServiceForm(request.POST)
    if form.is_valid():
        try:
            services.document_record_service(acting_user=request.user, document=document, **form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(request, f"The service of {document.reference} is recorded.")
            return redirect("notices:document", pk=document.pk)
    document = selectors.document_detail(request.user, pk)
    return _document_page(request, document, form=form, status=400)


@login_required
def document_new(request):
    """Write a letter to an FSE from the program's own template (``general_letter``)."""
    staff_only(request.user)
    require_role(request.user, DOCUMENT_ISSUERS, ISSUERS_ONLY)
    establishments = FoodServiceEstablishment.objects.visible_to(request.user).order_by("business_name")
    initial = {}
    chosen = request.GET.get("establishment", "")
    if chosen.isdigit():
        establishment = establishments.filter(pk=int(chosen)).select_related("operator").first()
        if establishment is not None:
            initial = {
                "establishment": establishment,
                "addressee": selectors.default_addressee(establishment),
            }
    form = LetterForm(request.POST or None, initial=initial, establishments=establishments)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        establishment = data["establishment"]
        try:
            document = services.document_issue(
                acting_user=request.user,
                key=GENERAL_LETTER,
                establishment=establishment,
                addressee=data["addressee"],
                context={"business_name": establishment.business_name, "body_text": data["body_text"]},
                service_method=data["service_method"],
                served_on=data["served_on"],
                article_number=data["article_number"],
            )
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(request, f"{document.reference} is issued: print it or download its PDF below.")
            return redirect("notices:document", pk=document.pk)
    return render(request, "notices/document_new.html", {"form": form}, status=400 if form.errors else 200)
