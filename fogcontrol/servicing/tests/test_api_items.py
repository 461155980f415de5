"""The API batch checks its items without DRF's machinery per value (``PlainItemsMixin``): every
item, good or bad, gives exactly what DRF's own ``run_validation`` gives: the same data (keys,
order, types, values) or the same errors (fields, words, codes)."""

import random

from django.utils import timezone
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from fogcontrol.core.api.serializers import PlainItemsMixin
from fogcontrol.servicing import certification
from fogcontrol.servicing.api.serializers import ManifestInputSerializer

GOOD = {
    "device": "GI-00042",
    "manifest_number": "T-100234",
    "serviced_at": "2025-03-14T09:30",
    "full_pumpout": True,
    "baffles_cleaned": True,
    "fog_depth_in": "3.5",
    "solids_depth_in": "6",
    "gallons_removed": "950",
    "establishment": "BL-1",
    "hauler": "Peninsula Pumping",
    "driver_name": "Dana Ruiz",
    "vehicle_plate": "8ABC123",
    "leak_observed": False,
    "damaged_baffles": False,
    "damaged_tees": False,
    "condition_notes": "",
    "receiving_facility": "Regional Digester",
    "delivered_on": "2025-03-14",
    "certified_by_name": "Dana Ruiz",
    "certification_version": certification.CURRENT_VERSION,
}
MISSING = object()
# What a client may send in any field: plain and odd text, numbers, flags, dates, nothing.
VALUES = [
    MISSING, None, "", "   ", " GI-7 ", "x", "x" * 21, "x" * 65, "x" * 200, "a\x00b", "\ud800", "Muñoz",
    "  ñ  ", "\t", 0, 1, 2, 1.5, -3, True, False, "true", "True", "yes", "no", "1", "0", "on", "null",
    "3.5", " 3.5 ", "3.555", "1234567.5", "1e3", "NaN", "Infinity", "-0.00", "2025-03-14T09:30",
    "2025-03-14 09:30", "2025-03-14T09:30:00+02:00", "2025-03-14T09:30:00Z", "2025-03-14",
    "03/14/2025", "2025-02-30", "garbage", [], ["a"], {}, {"a": 1},
]  # fmt: skip


def _item(changes: dict) -> dict:
    item = dict(GOOD)
    for name, value in changes.items():
        if value is MISSING:
            item.pop(name, None)
        else:
            item[name] = value
    return item


def _typed(data: dict) -> list:
    return [(key, type(value), repr(value)) for key, value in data.items()]


def _both(checker, item):
    try:
        drf = ("ok", _typed(checker.run_validation(item)))
    except ValidationError as exc:
        drf = ("refused", exc.detail, exc.get_codes(), repr(exc.detail))
    try:
        plain = ("ok", _typed(checker.check_item(item)))
    except ValidationError as exc:
        plain = ("refused", exc.detail, exc.get_codes(), repr(exc.detail))
    return drf, plain


def _items():
    yield dict(GOOD)
    yield {}
    for name in GOOD:  # each field alone given every value
        for value in VALUES:
            yield _item({name: value})
    rng = random.Random(16)
    for _ in range(1500):  # several fields at once
        yield _item({name: rng.choice(VALUES) for name in rng.sample(list(GOOD), rng.randint(1, 6))})


def test_every_item_checks_as_drf_checks_it():
    checker = ManifestInputSerializer()
    assert checker._item_plan is not None  # the plain path is the one taken
    compared = refused = 0
    with timezone.override("America/Los_Angeles"):
        for item in _items():
            drf, plain = _both(checker, item)
            assert plain == drf, item
            compared += 1
            refused += drf[0] == "refused"
    assert compared > 2000 and 0 < refused < compared


def test_a_batch_of_items_gives_the_submissions_and_errors_of_run_validation():
    items = [dict(GOOD), _item({"fog_depth_in": "lots"}), "not an object", _item({"device": MISSING})]
    checker, expected = ManifestInputSerializer(), []
    for item in items:
        try:
            expected.append((_typed(checker.run_validation(item if isinstance(item, dict) else {})), None))
        except ValidationError as exc:
            expected.append((None, exc.detail))
    got = [
        (None if submission is None else _typed(vars(submission)), errors)
        for submission, errors in ManifestInputSerializer.each(items)
    ]
    # A submission is the checked data with the dataclass's defaults for what was left out.
    assert [errors for _, errors in got] == [errors for _, errors in expected]
    for (data, _), (want, _) in zip(got, expected, strict=True):
        assert (data is None) == (want is None)
        if data is not None:
            assert set(want) <= set(data)


class _Checked(PlainItemsMixin, serializers.Serializer):
    name = serializers.CharField()

    def validate(self, attrs):
        return attrs


def test_a_serializer_with_its_own_validation_is_checked_by_drf_alone():
    assert _Checked()._item_plan is None
    assert _Checked().check_item({"name": " a "}) == {"name": "a"}
