"""Every write of the permits app: keyword-only arguments, an acting user, one transaction, an audit entry.

Grouped by what a clerk does: applications (drafting, renewal and change: B3, B6, B8), their
submission and review (B4, B5), permits and their life (issue B2, B6; modification B7; suspension,
revocation by recorded order L, M; expiry), fees and their payment or waiver (B3, G2), notices (B7),
remodel notices (G1, G2), and the permits that follow a business licence's new expiry (B6).
"""

# B3's owed fees are read where the verdicts are (the page's offer and the services share them).
from fogcontrol.permits.actions import fees_outstanding
from fogcontrol.permits.services.application_review import (
    application_accept,
    application_add_note,
    application_record_inspection,
    application_reject,
    application_request_information,
    application_respond,
    application_schedule_inspection,
    application_start_review,
    application_submit,
    application_withdraw,
)
from fogcontrol.permits.services.applications import (
    application_add_document,
    application_create,
    application_update,
    change_application_start,
    renewal_application_start,
)
from fogcontrol.permits.services.fees import (
    fee_assess,
    fee_record_payment,
    fee_schedule_create,
    fee_schedule_on,
    fee_waive,
)
from fogcontrol.permits.services.licence import permits_follow_licence
from fogcontrol.permits.services.notices import (
    notice_email_deliver,
    notice_email_letter,
    notice_email_outcome,
    notice_send,
)
from fogcontrol.permits.services.orders import (
    permit_order_decide,
    permit_order_record,
    permit_order_record_appeal,
)
from fogcontrol.permits.services.permit_conditions import (
    permit_conditions_attach,
    permit_conditions_end,
)
from fogcontrol.permits.services.permit_modifications import (
    permit_modification_propose,
    permit_modification_withdraw,
    permit_modifications_apply_due,
)
from fogcontrol.permits.services.permit_status import (
    permit_reinstate,
    permit_revoke,
    permit_suspend,
    permits_daily,
    permits_expire_lapsed,
)
from fogcontrol.permits.services.permits import permit_issue
from fogcontrol.permits.services.remodel import (
    remodel_notice_file,
    remodel_plan_review_decide,
    remodel_plans_submit,
)

__all__ = [
    "application_accept",
    "application_add_document",
    "application_add_note",
    "application_create",
    "application_record_inspection",
    "application_reject",
    "application_request_information",
    "application_respond",
    "application_schedule_inspection",
    "application_start_review",
    "application_submit",
    "application_update",
    "application_withdraw",
    "change_application_start",
    "fee_assess",
    "fee_record_payment",
    "fee_schedule_create",
    "fee_schedule_on",
    "fee_waive",
    "fees_outstanding",
    "notice_email_deliver",
    "notice_email_letter",
    "notice_email_outcome",
    "notice_send",
    "permit_conditions_attach",
    "permit_conditions_end",
    "permit_issue",
    "permit_modification_propose",
    "permit_modification_withdraw",
    "permit_modifications_apply_due",
    "permit_order_decide",
    "permit_order_record",
    "permit_order_record_appeal",
    "permit_reinstate",
    "permit_revoke",
    "permit_suspend",
    "permits_daily",
    "permits_expire_lapsed",
    "permits_follow_licence",
    "remodel_notice_file",
    "remodel_plan_review_decide",
    "remodel_plans_submit",
    "renewal_application_start",
]
