"""What every app shares (see docs/architecture.md). It imports no fogcontrol app."""
