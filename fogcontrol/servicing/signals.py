"""What servicing announces to the apps above it, which it must not import (docs/architecture.md,
"Import layers"): enforcement listens and opens a violation the moment a flag is referred."""

from django.dispatch import Signal

# Sent inside the review's transaction, after the flag is saved: (sender=ManifestFlag, flag=, acting_user=).
manifest_flag_referred = Signal()
