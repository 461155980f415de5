import csv, io
import pytest
from openpyxl import load_workbook
from fogcontrol.core.roles import Role

@pytest.mark.django_db
def test_try(town, client):
    client.force_login(town.users[Role.FOG_MANAGER])
    for url in ["/registry/establishments/", "/registry/devices/", "/registry/parcels/", "/registry/parties/", "/registry/haulers/"]:
        r = client.get(url)
        assert b"format=csv" in r.content, url
        r = client.get(url + "?format=csv")
        body = b"".join(r.streaming_content).decode()
        print(url, body[:300])
        r = client.get(url + "?format=xlsx")
        wb = load_workbook(io.BytesIO(b"".join(r.streaming_content)))
        print(list(wb.active.values)[:3])
