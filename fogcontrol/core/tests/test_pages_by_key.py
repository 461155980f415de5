"""``pages_by_key``: the keyset pages every batched sweep reads (records, spills, sampling, the
generator): each row once, in key order, one query a page, whatever the rows' shape (issue 16)."""

from operator import itemgetter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogcontrol.core.sweep import pages_by_key
from fogcontrol.registry.models import Parcel
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("size", [1, 2, 3, 7, 8])
def test_every_row_once_in_key_order_one_query_a_page(size):
    made = sorted(factories.ParcelFactory().pk for _ in range(7))
    with CaptureQueriesContext(connection) as queries:
        pages = list(pages_by_key(Parcel.objects.order_by("-pk"), size))
    assert [parcel.pk for page in pages for parcel in page] == made
    assert all(len(page) == size for page in pages[:-1])
    # A last page as full as the others needs one more (empty) read to know it was the last.
    assert len(queries) == len(pages) + (1 if len(made) % size == 0 else 0)


def test_value_rows_and_flat_keys():
    made = sorted(factories.ParcelFactory().pk for _ in range(5))
    rows = Parcel.objects.values_list("pk", "apn")
    assert [row[0] for page in pages_by_key(rows, 2, key=itemgetter(0)) for row in page] == made
    flat = Parcel.objects.values_list("pk", flat=True)
    assert [pk for page in pages_by_key(flat, 2, key=lambda pk: pk) for pk in page] == made


def test_rows_no_longer_matching_are_not_read_again():
    """A sweep that closes what it reads (the next page's filter no longer matches it) still
    reads every other row once: the next page starts after the last key, not at an offset."""
    made = sorted(factories.ParcelFactory().pk for _ in range(6))
    seen = []
    for page in pages_by_key(Parcel.objects.all(), 2):
        seen.extend(parcel.pk for parcel in page)
        Parcel.objects.filter(pk__in=[parcel.pk for parcel in page]).delete()
    assert seen == made
