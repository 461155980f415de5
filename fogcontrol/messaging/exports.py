"""Messaging's list exports (core/exports.py): the outbox, the invitations and the reminders to send."""

from __future__ import annotations

from fogcontrol.core.exports import Column

REMINDER_COLUMNS = (
    Column("Reminder", lambda r: r.kind_label),
    Column("Establishment", lambda r: r.business_name),
    Column("About", lambda r: r.about),
    Column("Due", lambda r: r.due_on),
    Column("Recipient", lambda r: r.to_name),
    Column("E-mail", lambda r: r.to_email),
    Column("Language", lambda r: r.language),
    Column("Key", lambda r: r.key),
)

MESSAGE_COLUMNS = (
    Column("Message", lambda m: m.reference),
    Column("Subject", lambda m: m.subject),
    Column("Recipient", lambda m: m.to_name),
    Column("E-mail", lambda m: m.to_email),
    Column("Establishment", lambda m: m.establishment.business_name if m.establishment_id else ""),
    Column("Kind", lambda m: m.get_kind_display()),
    Column("Language", lambda m: m.get_language_display()),
    Column("Template", lambda m: f"{m.template_key} v{m.template_version}" if m.template_key else ""),
    Column("Status", lambda m: m.get_status_display()),
    Column("Queued", lambda m: m.queued_at),
    Column("Sent", lambda m: m.sent_at),
    Column("Bounce reason", lambda m: m.bounce_reason),
)

INVITATION_COLUMNS = (
    Column("E-mail", lambda i: i.user.email),
    Column("Name", lambda i: i.user.get_full_name()),
    Column("Role", lambda i: i.get_role_display()),
    Column("For", lambda i: i.bound_to),
    Column("Status", lambda i: i.get_status_display()),
    Column("Expires", lambda i: i.expires_at),
    Column("Invited by", lambda i: i.invited_by_label),
    Column("Sent", lambda i: i.created_at),
)
