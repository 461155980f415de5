from functools import partial

from rest_framework.pagination import PageNumberPagination

from fogcontrol.core.kept_totals import KeptTotalPaginator


class StandardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500

    @property
    def django_paginator_class(self):
        # The `count` of a whole table the user sees all of is a kept count (core/kept_totals.py):
        # the same exact number, without reading the table (issue 16).
        return partial(KeptTotalPaginator, user=getattr(getattr(self, "request", None), "user", None))
