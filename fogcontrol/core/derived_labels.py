"""Labels that reach the outside users' pages as plain English from code that does not translate:
labels Django derives from model fields (a filter's or form's field without its own label), the
rules' controlled lists (pure Python, no Django: `rules/spills.py` causes), status words compared in
code (`Standing.label`). Marked here so that `makemessages` keeps them in the catalogue; pages show
them through the `translated` filter (core/templatetags/translated.py) or a lazy choice label.
See docs/i18n.md."""

from django.utils.translation import gettext_noop

LABELS = (
    # Statuses compared in code (permits.selectors.Standing, servicing's device statuses)
    gettext_noop("In force"),
    gettext_noop("Renewal due"),
    gettext_noop("Expired"),
    gettext_noop("Over limit"),
    gettext_noop("Due soon"),
    gettext_noop("Never serviced"),
    gettext_noop("Overdue"),
    gettext_noop("Compliant"),
    # The State's spill categories (rules/spills.py CATEGORY_LABELS)
    gettext_noop("Category 1: reached surface water"),
    gettext_noop("Category 2: 1,000 gallons or more, no surface water"),
    gettext_noop("Category 3: 50 to 999 gallons, no surface water"),
    gettext_noop("Category 4: under 50 gallons, no surface water"),
    # Spill causes and cost kinds (rules/spills.py)
    gettext_noop("Grease deposition (FOG)"),
    gettext_noop("Root intrusion"),
    gettext_noop("Debris (general)"),
    gettext_noop("Debris: rags and wipes"),
    gettext_noop("Debris from construction"),
    gettext_noop("Pipe structural problem or failure"),
    gettext_noop("Pump station failure"),
    gettext_noop("Flow or rainfall exceeded capacity"),
    gettext_noop("Vandalism"),
    gettext_noop("Operator error"),
    gettext_noop("Damage by others"),
    gettext_noop("Inappropriate discharge to the sewer"),
    gettext_noop("Other (explained)"),
    gettext_noop("Unknown"),
    gettext_noop("Town staff time (N1)"),
    gettext_noop("Town equipment (N1)"),
    gettext_noop("Clean-up contractor (N1)"),
    gettext_noop("Fine or penalty imposed on the Town by another agency (N2)"),
    # The titles of the documents registered in code (notices.catalogue: the documents list's kinds)
    gettext_noop("Administrative citation {citation_number} to {business_name}"),
    gettext_noop("Administrative civil penalty order {order_reference}: {business_name}"),
    gettext_noop("Administrative complaint {complaint_reference}: {business_name}"),
    gettext_noop("Compliance schedule agreement with {business_name}"),
    gettext_noop("Decision of the hearing officer: {business_name} (case {case_reference})"),
    gettext_noop("Delinquent: invoice {invoice_number} ({amount})"),
    gettext_noop("Emergency suspension order {order_reference}: {business_name}"),
    gettext_noop("FOG permit {permit_number}: renew by {renew_by}"),
    gettext_noop("Grease control device {device}: service due by {due_date}"),
    gettext_noop("Hearing on {hearing_date}: {business_name}"),
    gettext_noop("Invoice {invoice_number} from {town_name}: {amount}"),
    gettext_noop("Letter from the FOG Control Program"),
    gettext_noop("Notice of hearing: {business_name} (case {case_reference})"),
    gettext_noop("Notice of proposed {order_kind} of FOG permit {permit_number}: {business_name}"),
    gettext_noop("Notice of violation to {business_name}"),
    gettext_noop("Overdue: grease control device {device} was due for service on {due_date}"),
    gettext_noop("Termination of sewer service: {business_name}"),
    gettext_noop("Your account on the {town_name} FOG Control Program"),
    gettext_noop("{business_name}: annual employee training due by {due_date}"),
    gettext_noop("{business_name}: {report} due by {due_date}"),
    # Field labels Django derives from model fields (filters and forms without their own label)
    gettext_noop("Source"),
    gettext_noop("Sampled at"),
    gettext_noop("Installed"),
    gettext_noop("Notes"),
    gettext_noop("Reason"),
    gettext_noop("Condition"),
    gettext_noop("Attachments"),
    gettext_noop("Receipt"),
    gettext_noop("Establishment id"),
    gettext_noop("Kind"),
    gettext_noop("Status"),
    gettext_noop("Category"),
    gettext_noop("Cause"),
    gettext_noop("Name"),
    gettext_noop("Channel"),
)
