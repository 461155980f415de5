"""A module-scoped demo town with every app's demo data (fogcontrol.demo: seed_demo), built once per
test module in a transaction rolled back after it, with one signed-in staff user per role."""

from __future__ import annotations

import pytest
from django.db import transaction

from fogcontrol.core.roles import STAFF_ROLES
from fogcontrol.demo.run import seed_demo
from fogcontrol.testing.factories import UserFactory

ESTABLISHMENTS = 30


def demo_fixture():
    @pytest.fixture(scope="module")
    def demo(django_db_setup, django_db_blocker):
        with django_db_blocker.unblock():
            atomic = transaction.atomic()
            atomic.__enter__()
            try:
                result = seed_demo(establishments=ESTABLISHMENTS, seed=1)
                assert result.seeded, result
                users = {
                    role: UserFactory(role=role, username=f"dash-{role}") for role in sorted(STAFF_ROLES)
                }
            except BaseException:
                transaction.set_rollback(True)
                atomic.__exit__(None, None, None)
                raise
        yield users
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)

    return demo
