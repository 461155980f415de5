"""A failed seed says why (issue 19, item 5): the seed is one transaction, so a failure leaves the
database empty, and the message names the seeder and the error instead of leaving it unexplained."""

import pytest

from fogcontrol.demo.run import FEWEST_ESTABLISHMENTS, DemoRefused, seed_demo
from fogcontrol.registry.models import FoodServiceEstablishment


def exploding_seeder(*, rng, town, today):
    raise ValueError("delivery is dated before the service")


def test_a_failed_seeder_is_named_with_its_error_and_nothing_is_left_behind(db):
    path = f"{__name__}.exploding_seeder"
    with pytest.raises(DemoRefused) as refusal:
        seed_demo(establishments=FEWEST_ESTABLISHMENTS, seed=1, seeders=[path])
    message = str(refusal.value)
    assert f"the seeder {path} failed: ValueError: delivery is dated before the service" in message
    assert "Nothing was saved (the seed is one transaction)" in message
    assert not FoodServiceEstablishment.objects.exists()
