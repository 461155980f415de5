"""The triggers that keep ``SharedDevice``: the devices linked to more than one FSE (A2; issue 16).

Shared devices were found by grouping every device-FSE link, on each request of the device list
filtered to them and of the staff home's figure, a cost that grew with the town. The triggers keep
one row per shared device as links are added, removed or changed, by any path (the services, a
form's many-to-many save, a bulk insert of links, a cascade from a deleted FSE), so the list and
its count read that table (one row in twenty devices in a typical town) and its primary key.

On PostgreSQL the trigger first locks the device's row (``FOR NO KEY UPDATE``), so that two
transactions linking the same device at once count each other's links once the first commits.
SQLite writes one transaction at a time.
"""

from __future__ import annotations

LINKS = "registry_greasecontroldevice_establishments"
SHARED = "registry_shareddevice"
DEVICES = "registry_greasecontroldevice"
DEVICE = "greasecontroldevice_id"
NAME = "registry_shared_device_kept"


def _count(row: str) -> str:
    return f'(SELECT COUNT(*) FROM "{LINKS}" l WHERE l."{DEVICE}" = {row}."{DEVICE}")'  # nosec B608: fixed table names


def _sqlite() -> list[str]:
    added = f'INSERT OR IGNORE INTO "{SHARED}" ("device_id") SELECT NEW."{DEVICE}" WHERE {_count("NEW")} > 1;'  # nosec B608: fixed table names
    removed = f'DELETE FROM "{SHARED}" WHERE "device_id" = OLD."{DEVICE}" AND {_count("OLD")} < 2;'  # nosec B608: fixed table names
    return [
        f'CREATE TRIGGER IF NOT EXISTS "{NAME}_insert" AFTER INSERT ON "{LINKS}" BEGIN {added} END',
        f'CREATE TRIGGER IF NOT EXISTS "{NAME}_delete" AFTER DELETE ON "{LINKS}" BEGIN {removed} END',
        f'CREATE TRIGGER IF NOT EXISTS "{NAME}_update" AFTER UPDATE ON "{LINKS}" BEGIN {removed} {added} END',
    ]


def _postgresql() -> list[str]:
    return [
        f"""CREATE OR REPLACE FUNCTION "{NAME}"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        PERFORM 1 FROM "{DEVICES}" WHERE "id" = OLD."{DEVICE}" FOR NO KEY UPDATE;
        DELETE FROM "{SHARED}" WHERE "device_id" = OLD."{DEVICE}" AND {_count("OLD")} < 2;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM 1 FROM "{DEVICES}" WHERE "id" = NEW."{DEVICE}" FOR NO KEY UPDATE;
        IF {_count("NEW")} > 1 THEN
            INSERT INTO "{SHARED}" ("device_id") VALUES (NEW."{DEVICE}") ON CONFLICT DO NOTHING;
        END IF;
    END IF;
    RETURN NULL;
END
$$""",  # nosec B608: fixed table names
        f'DROP TRIGGER IF EXISTS "{NAME}" ON "{LINKS}"',
        f'CREATE TRIGGER "{NAME}" AFTER INSERT OR UPDATE OR DELETE ON "{LINKS}" '
        f'FOR EACH ROW EXECUTE FUNCTION "{NAME}"()',
    ]


def install_sql(vendor: str) -> list[str]:
    """The statements that install the triggers and fill the table from the links already there."""
    fill = (
        f'INSERT INTO "{SHARED}" ("device_id") SELECT "{DEVICE}" FROM "{LINKS}" '
        f'GROUP BY "{DEVICE}" HAVING COUNT(*) > 1'  # nosec B608: fixed table names
    )
    triggers = _sqlite() if vendor == "sqlite" else _postgresql()
    return [*triggers, f'DELETE FROM "{SHARED}"', fill]  # nosec B608: fixed table names


def uninstall_sql(vendor: str) -> list[str]:
    if vendor == "sqlite":
        return [f'DROP TRIGGER IF EXISTS "{NAME}_{event}"' for event in ("insert", "delete", "update")]
    return [f'DROP TRIGGER IF EXISTS "{NAME}" ON "{LINKS}"', f'DROP FUNCTION IF EXISTS "{NAME}"()']
