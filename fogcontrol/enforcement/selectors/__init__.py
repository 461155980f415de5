"""Every read of enforcement, scoped to the user (outside the scope: 404). One module per area."""
