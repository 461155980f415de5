"""Users of the program. Each has one role (fogcontrol.core.roles.Role).

Outside users are bound to their records by the registry: an FSE user to its establishments,
a property owner user to its parcels, a hauler user to its company.
"""

from django.contrib.auth.models import AbstractUser
from django.db import models

from fogcontrol.core.languages import DEFAULT_LANGUAGE, Language
from fogcontrol.core.roles import REGISTRY_EDITORS, STAFF_ROLES, Role


class User(AbstractUser):
    role = models.CharField(max_length=32, choices=Role.choices, default=Role.STAFF_READONLY)
    phone = models.CharField(max_length=40, blank=True)
    preferred_language = models.CharField(
        max_length=2,
        choices=Language.choices,
        default=DEFAULT_LANGUAGE,
        help_text="The language the program's e-mails and reminders are written in.",
    )

    class Meta:
        ordering = ["username"]

    @property
    def is_program_staff(self) -> bool:
        """Town staff, or a superuser doing back-office repairs."""
        return self.is_superuser or self.role in STAFF_ROLES

    @property
    def can_edit_registry(self) -> bool:
        """For templates; code asks fogcontrol.core.permissions.has_role(user, REGISTRY_EDITORS)."""
        return self.has_role(*REGISTRY_EDITORS)

    def has_role(self, *roles: str) -> bool:
        """The primitive under fogcontrol.core.permissions (which also lets jobs through): ask that."""
        return self.is_superuser or self.role in roles

    def __str__(self) -> str:
        return self.get_full_name() or self.username


class UserSession(models.Model):
    """A session a user signed in with, so that deactivating the user can end every one of them
    (the session store itself cannot be searched by user). Written at sign-in, removed at sign-out;
    a row whose session expired on its own is harmless and goes with the next deactivation."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="signed_in_sessions")
    session_key = models.CharField(max_length=40, unique=True)
    signed_in_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} since {self.signed_in_at:%Y-%m-%d %H:%M}"
