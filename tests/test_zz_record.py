import json
import django.utils.translation.trans_real as tr
from tests.test_crawl import crawled_town  # noqa
from tests.test_spanish_pages import test_every_portal_page_is_in_spanish as inner

def test_record(client, crawled_town, monkeypatch):
    used = set()
    orig = tr.DjangoTranslation.gettext
    monkeypatch.setattr(tr.DjangoTranslation, "gettext", lambda self, m: (used.add(m), orig(self, m))[1])
    try:
        inner(client, crawled_town)
    finally:
        json.dump(sorted(used), open("/tmp/h-es/used.json", "w"))
