"""What the registry announces to the apps above it, which it must not import (docs/architecture.md,
"How a lower app tells the apps above"): permits listens, so that a permit follows its
establishment's business licence (B6)."""

from django.dispatch import Signal

# Sent by `establishment_update` inside its transaction when an establishment's licence expiry
# changed (registry edits and the licence import both write through it): (sender=FoodServiceEstablishment,
# establishment=, acting_user=, previous_expiry=). A receiver's error undoes the whole edit.
licence_expiry_changed = Signal()
