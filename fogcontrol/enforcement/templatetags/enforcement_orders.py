"""``{% later_steps case %}``: the case page's links to the later steps (complaint, penalty order,
suspension notice, emergency suspension, termination) the signed-in user may take, and to the case's
hearings; the steps it may not take say who takes them."""

from django import template
from django.urls import reverse

from fogcontrol.core.permissions import has_role
from fogcontrol.enforcement.views.orders import STEPS

register = template.Library()


@register.inclusion_tag("enforcement/partials/later_steps.html", takes_context=True)
def later_steps(context, case):
    user = context["request"].user
    links = [
        {"title": title, "provisions": provisions, "url": reverse("enforcement:order_step", args=[case.pk, slug]),
         "allowed": has_role(user, who) and case.closed_on is None}
        for slug, (title, provisions, _form, who, _preview, _submit) in STEPS.items()
    ]  # fmt: skip
    hearings = [
        {"title": str(h), "url": reverse("enforcement:hearing_detail", args=[h.pk])}
        for h in case.hearings.all()
    ]
    return {"links": links, "hearings": hearings, "closed": case.closed_on is not None}
