"""What permits announces to the apps above it, which it must not import (docs/architecture.md,
"How a lower app tells the apps above"): messaging listens, so that a notice's e-mail goes out
through the program's one sending path (its outbox, its delivery status)."""

from django.dispatch import Signal

# Sent by `notice_send` inside its transaction when a notice has e-mail addresses to go to:
# (sender=PermitNotice, notice=, acting_user=). A receiver that takes the e-mail returns True;
# with none, permits sends it itself (its own task). A receiver's error undoes the notice.
notice_recorded = Signal()
