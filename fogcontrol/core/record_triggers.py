"""The database triggers that keep copies of record append-only (F1, F5, F7; issue 15, finding 4).

Two generations. The first (servicing 0002 to core 0002) refused UPDATE and DELETE, except a
DELETE of a row named in the purge log. The second, installed once the purge log records the
Town's approval and the chains have seals (core 0002), also:

- refuses an INSERT that reuses a row's id, place or hash, or does not append at the chain head:
  SQLite's ``INSERT OR REPLACE`` deletes the row it replaces without running DELETE triggers
  (unless ``recursive_triggers`` is on, which an outside shell does not set), so the insert path
  is guarded instead;
- lets a DELETE through only for a purge entry that matches the row (id, place, hash and record
  date), names a recorded ``RetentionApproval`` of the row's class covering that date, and whose
  F5 period (the ruleset's ``record_retention_years``, read from the Town's ruleset in force) has
  ended; a model declares its class and date with ``purge_record_class`` and
  ``purge_record_date_sql``; a chain without them cannot be purged at all;
- protects the chain head and seal: the head moves only one step forward onto a row that exists,
  neither is deleted while its chain has rows or purge entries, a seal never moves back and its
  ``legacy_until`` never changes.

Which generation is installed follows the schema (``keyed_schema``), so the migrations written
before the second generation still install the first, which their tables can hold.
"""

from __future__ import annotations

from django.apps import apps
from django.db import connection as default_connection
from django.db.migrations.operations.base import Operation

from fogcontrol.core.models import GENESIS_HASH, CopyOfRecord
from fogcontrol.rules.ruleset import Ruleset

HEAD = "servicing_recordchainhead"
SEAL = "core_recordchainseal"
PURGES = "servicing_purgedrecord"
APPROVALS = "servicing_retentionapproval"
RULESETS = "program_rulesetversion"
# The chapter's own number, used when no ruleset version in force changes it (the versions hold
# only what differs from Chapter 10.02 as adopted).
DEFAULT_RETENTION_YEARS = Ruleset.__dataclass_fields__["record_retention_years"].default


def keyed_schema(connection=None) -> bool:
    """True once the purge log records approvals and the seals exist (core 0002 and after).

    Asked of the catalog directly: Django's introspection parses each table's SQL, too slow for
    a check made on every verification."""
    conn = connection or default_connection
    with conn.cursor() as cursor:
        if conn.vendor == "sqlite":
            cursor.execute(
                "SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (%s, %s, %s)) "
                "+ (SELECT count(*) FROM pragma_table_info(%s) WHERE name = 'retention_approval_id')",
                [SEAL, APPROVALS, RULESETS, PURGES],
            )
        else:
            cursor.execute(
                "SELECT (to_regclass(%s) IS NOT NULL)::int + (to_regclass(%s) IS NOT NULL)::int "
                "+ (to_regclass(%s) IS NOT NULL)::int + (SELECT count(*) FROM pg_attribute "
                "WHERE attrelid = to_regclass(%s) AND attname = 'retention_approval_id' AND NOT attisdropped)",
                [SEAL, APPROVALS, RULESETS, PURGES],
            )
        return cursor.fetchone()[0] == 4


def _chain_model(table: str) -> type[CopyOfRecord] | None:
    for model in apps.get_models():
        if issubclass(model, CopyOfRecord) and model._meta.db_table == table:
            return model
    return None


def _trigger_names(table: str) -> tuple[str, str]:
    return f"{table}_refuse_update", f"{table}_refuse_delete"


def _second_generation_names(table: str) -> tuple[str, ...]:
    return (f"{table}_refuse_insert", f"{table}_head_forward", f"{table}_head_kept", f"{table}_seal_kept")


_SQLITE_GENERIC = {
    "chainhead_refuse_insert": (
        f'BEFORE INSERT ON "{HEAD}" WHEN NEW."last_sequence" <> 0 OR NEW."last_hash" <> \'{GENESIS_HASH}\' '
        f'OR EXISTS (SELECT 1 FROM "{HEAD}" h WHERE h."chain" = NEW."chain")',  # nosec B608: SQL names come from model metadata, values are parameters
        "a chain head starts at the beginning of its chain, once",
    ),
    "chainhead_refuse_update": (
        f'BEFORE UPDATE ON "{HEAD}" WHEN NEW."chain" <> OLD."chain" '
        'OR NEW."last_sequence" <> OLD."last_sequence" + 1',
        "a chain head moves only one record forward",
    ),
    "chainseal_refuse_insert": (
        f'BEFORE INSERT ON "{SEAL}" WHEN NEW."sealed_sequence" <> 0 OR NEW."legacy_until" <> 0 '
        f'OR EXISTS (SELECT 1 FROM "{SEAL}" s WHERE s."chain" = NEW."chain")',  # nosec B608: SQL names come from model metadata, values are parameters
        "a chain seal starts at the beginning of its chain, once",
    ),
    "chainseal_refuse_update": (
        f'BEFORE UPDATE ON "{SEAL}" WHEN NEW."chain" <> OLD."chain" '
        'OR NEW."legacy_until" <> OLD."legacy_until" OR NEW."sealed_sequence" < OLD."sealed_sequence"',
        "a chain seal never moves back",
    ),
}


def _years(vendor: str) -> str:
    if vendor == "sqlite":
        return (
            f"COALESCE((SELECT CAST(json_extract(v.\"values\", '$.record_retention_years') AS INTEGER) "
            f'FROM "{RULESETS}" v WHERE v."effective_from" <= date(\'now\') '
            f'ORDER BY v."effective_from" DESC LIMIT 1), {DEFAULT_RETENTION_YEARS})'  # nosec B608: SQL names come from model metadata, values are parameters
        )
    return (
        f'COALESCE((SELECT (v."values"->>\'record_retention_years\')::int FROM "{RULESETS}" v '
        f'WHERE v."effective_from" <= CURRENT_DATE ORDER BY v."effective_from" DESC LIMIT 1), '
        f"{DEFAULT_RETENTION_YEARS})"  # nosec B608: SQL names come from model metadata, values are parameters
    )


def _purge_condition(vendor: str, table: str, model) -> str:
    """SQL true when the row being deleted (OLD) was purged lawfully (second generation)."""
    record_class = getattr(model, "purge_record_class", None) if model else None
    record_date = getattr(model, "purge_record_date_sql", None) if model else None
    if not record_class or not record_date:
        return "FALSE" if vendor == "postgresql" else "0"
    if vendor == "sqlite":
        ended = f"date(p.\"record_date\", '+' || {_years(vendor)} || ' years', '-1 day') <= date('now')"
    else:
        ended = f'(p."record_date" + make_interval(years => {_years(vendor)}))::date - 1 <= CURRENT_DATE'
    return (
        f'EXISTS (SELECT 1 FROM "{PURGES}" p JOIN "{APPROVALS}" a ON a."id" = p."retention_approval_id" '
        f'WHERE p."table_name" = \'{table}\' AND p."record_id" = OLD."id" '
        f'AND p."record_sequence" = OLD."record_sequence" AND p."record_hash" = OLD."record_hash" '
        f'AND p."record_date" = {record_date} '
        f"AND a.\"record_class\" = '{record_class}' "
        f'AND a."records_from" <= p."record_date" AND a."records_to" >= p."record_date" AND {ended})'  # nosec B608: SQL names come from model metadata, values are parameters
    )


def _chain_in_use(table: str, row: str) -> str:
    return (
        f'(EXISTS (SELECT 1 FROM "{table}") OR EXISTS (SELECT 1 FROM "{PURGES}" p '
        f'WHERE p."table_name" = {row}."chain"))'  # nosec B608: SQL names come from model metadata, values are parameters
    )


def _sqlite_trigger(name: str, timing: str, message: str) -> str:
    return f"CREATE TRIGGER IF NOT EXISTS \"{name}\" {timing} BEGIN SELECT RAISE(ABORT, '{message}'); END"


def _sqlite_second_generation(table: str, purgeable: bool) -> list[str]:
    update_trigger, delete_trigger = _trigger_names(table)
    model = _chain_model(table)
    statements = [
        _sqlite_trigger(
            update_trigger,
            f'BEFORE UPDATE ON "{table}"',
            f"copy of record: rows of {table} cannot be changed (F1, F7); submit a correction",
        ),
    ]
    delete_when = f"WHEN NOT {_purge_condition('sqlite', table, model)} " if purgeable else ""
    statements.append(
        _sqlite_trigger(
            delete_trigger,
            f'BEFORE DELETE ON "{table}" {delete_when}',
            f"copy of record: rows of {table} are deleted only when purged after their retention period "
            "under a recorded approval (F5)",
        )
    )
    insert_trigger, head_forward, head_kept, seal_kept = _second_generation_names(table)
    if model is None:  # the purge log: append-only, and never replaced
        statements.append(
            _sqlite_trigger(
                insert_trigger,
                f'BEFORE INSERT ON "{table}" WHEN EXISTS (SELECT 1 FROM "{table}" r WHERE r."id" = NEW."id" '
                'OR (r."table_name" = NEW."table_name" AND (r."record_id" = NEW."record_id" '
                'OR r."record_sequence" = NEW."record_sequence")))',  # nosec B608: SQL names come from model metadata, values are parameters
                f"copy of record: an entry of {table} cannot be replaced",
            )
        )
        return statements
    statements += [
        _sqlite_trigger(
            insert_trigger,
            f'BEFORE INSERT ON "{table}" WHEN EXISTS (SELECT 1 FROM "{table}" r WHERE r."id" = NEW."id" '
            'OR r."record_sequence" = NEW."record_sequence" OR r."record_hash" = NEW."record_hash") '
            f'OR NOT EXISTS (SELECT 1 FROM "{HEAD}" h WHERE h."chain" = \'{table}\' '
            'AND h."last_sequence" + 1 = NEW."record_sequence" AND h."last_hash" = NEW."previous_hash")',  # nosec B608: SQL names come from model metadata, values are parameters
            f"copy of record: a row of {table} is only appended at the head of its chain, never replaced",
        ),
        _sqlite_trigger(
            head_forward,
            f'BEFORE UPDATE ON "{HEAD}" WHEN OLD."chain" = \'{table}\' AND NOT EXISTS (SELECT 1 FROM "{table}" r '
            'WHERE r."record_sequence" = NEW."last_sequence" AND r."record_hash" = NEW."last_hash")',  # nosec B608: SQL names come from model metadata, values are parameters
            f"copy of record: the head of {table} moves only onto the record appended",
        ),
        _sqlite_trigger(
            head_kept,
            f'BEFORE DELETE ON "{HEAD}" WHEN OLD."chain" = \'{table}\' AND {_chain_in_use(table, "OLD")}',
            f"copy of record: the head of {table} cannot be deleted",
        ),
        _sqlite_trigger(
            seal_kept,
            f'BEFORE DELETE ON "{SEAL}" WHEN OLD."chain" = \'{table}\' AND {_chain_in_use(table, "OLD")}',
            f"copy of record: the seal of {table} cannot be deleted",
        ),
    ]
    for name, (timing, message) in _SQLITE_GENERIC.items():
        statements.append(_sqlite_trigger(name, timing, f"copy of record: {message}"))
    return statements


_PG_FUNCTION = """
CREATE OR REPLACE FUNCTION fogcontrol_copy_of_record_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND TG_ARGV[0] = 'purgeable' AND EXISTS (
      SELECT 1 FROM servicing_purgedrecord p WHERE p.table_name = TG_TABLE_NAME AND p.record_id = OLD.id
  ) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'copy of record: rows of % cannot be changed or deleted (F1, F7); submit a correction', TG_TABLE_NAME
    USING ERRCODE = 'integrity_constraint_violation';
END
$$;
"""

_PG_REFUSE = "RAISE EXCEPTION '{message}' USING ERRCODE = 'integrity_constraint_violation';"

_PG_HEAD_FUNCTIONS = [
    f"""
CREATE OR REPLACE FUNCTION fogcontrol_chain_in_use(chain text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE used boolean;
BEGIN
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I)', chain) INTO used;
  RETURN used OR EXISTS (SELECT 1 FROM "{PURGES}" p WHERE p.table_name = chain);
END
$$;
""",  # nosec B608: SQL names come from model metadata, values are parameters
    f"""
CREATE OR REPLACE FUNCTION fogcontrol_chain_head_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE appended boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.last_sequence <> 0 OR NEW.last_hash <> '{GENESIS_HASH}' THEN
      {_PG_REFUSE.format(message="copy of record: a chain head starts at the beginning of its chain")}
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW.chain <> OLD.chain OR NEW.last_sequence <> OLD.last_sequence + 1 THEN
      {_PG_REFUSE.format(message="copy of record: a chain head moves only one record forward")}
    END IF;
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE record_sequence = $1 AND record_hash = $2)', NEW.chain)
      INTO appended USING NEW.last_sequence, NEW.last_hash;
    IF NOT appended THEN
      {_PG_REFUSE.format(message="copy of record: a chain head moves only onto the record appended")}
    END IF;
    RETURN NEW;
  END IF;
  IF fogcontrol_chain_in_use(OLD.chain) THEN
    {_PG_REFUSE.format(message="copy of record: a chain head cannot be deleted")}
  END IF;
  RETURN OLD;
END
$$;
""",  # nosec B608: SQL names come from model metadata, values are parameters
    f"""
CREATE OR REPLACE FUNCTION fogcontrol_chain_seal_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.sealed_sequence <> 0 OR NEW.legacy_until <> 0 THEN
      {_PG_REFUSE.format(message="copy of record: a chain seal starts at the beginning of its chain")}
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW.chain <> OLD.chain OR NEW.legacy_until <> OLD.legacy_until OR NEW.sealed_sequence < OLD.sealed_sequence THEN
      {_PG_REFUSE.format(message="copy of record: a chain seal never moves back")}
    END IF;
    RETURN NEW;
  END IF;
  IF fogcontrol_chain_in_use(OLD.chain) THEN
    {_PG_REFUSE.format(message="copy of record: a chain seal cannot be deleted")}
  END IF;
  RETURN OLD;
END
$$;
""",
]

_PG_HEAD_TRIGGERS = {HEAD: "fogcontrol_chain_head_guard", SEAL: "fogcontrol_chain_seal_guard"}


def _pg_second_generation(table: str, purgeable: bool) -> list[str]:
    update_trigger, _ = _trigger_names(table)
    insert_trigger = _second_generation_names(table)[0]
    model = _chain_model(table)
    if model is None:  # the purge log: the first generation's strict guard (no REPLACE on PostgreSQL)
        return _pg_first_generation(table, purgeable)
    purged = _purge_condition("postgresql", table, model) if purgeable else "FALSE"
    function = f"{table}_guard"
    statements = [
        f"""
CREATE OR REPLACE FUNCTION "{function}"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF EXISTS (SELECT 1 FROM "{table}" r WHERE r.id = NEW.id OR r.record_sequence = NEW.record_sequence
               OR r.record_hash = NEW.record_hash)
       OR NOT EXISTS (SELECT 1 FROM "{HEAD}" h WHERE h.chain = '{table}'
                      AND h.last_sequence + 1 = NEW.record_sequence AND h.last_hash = NEW.previous_hash) THEN
      {_PG_REFUSE.format(message=f"copy of record: a row of {table} is only appended at the head of its chain")}
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' AND {purged} THEN
    RETURN OLD;
  END IF;
  {_PG_REFUSE.format(message=f"copy of record: rows of {table} cannot be changed, or deleted before they are purged under a recorded approval after their retention period (F1, F5, F7)")}
END
$$;
""",  # nosec B608: SQL names come from model metadata, values are parameters
        f'DROP TRIGGER IF EXISTS "{update_trigger}" ON "{table}"',
        f'CREATE TRIGGER "{update_trigger}" BEFORE UPDATE OR DELETE ON "{table}" '
        f'FOR EACH ROW EXECUTE FUNCTION "{function}"()',
        f'DROP TRIGGER IF EXISTS "{insert_trigger}" ON "{table}"',
        f'CREATE TRIGGER "{insert_trigger}" BEFORE INSERT ON "{table}" FOR EACH ROW EXECUTE FUNCTION "{function}"()',
        *_PG_HEAD_FUNCTIONS,
    ]
    for head_table, head_function in _PG_HEAD_TRIGGERS.items():
        statements += [
            f'DROP TRIGGER IF EXISTS "{head_table}_guard" ON "{head_table}"',
            f'CREATE TRIGGER "{head_table}_guard" BEFORE INSERT OR UPDATE OR DELETE ON "{head_table}" '
            f"FOR EACH ROW EXECUTE FUNCTION {head_function}()",
        ]
    return statements


def _pg_first_generation(table: str, purgeable: bool) -> list[str]:
    update_trigger, _ = _trigger_names(table)
    argument = "purgeable" if purgeable else "strict"
    return [
        _PG_FUNCTION,
        f'DROP TRIGGER IF EXISTS "{update_trigger}" ON "{table}"',
        f'CREATE TRIGGER "{update_trigger}" BEFORE UPDATE OR DELETE ON "{table}" '
        f"FOR EACH ROW EXECUTE FUNCTION fogcontrol_copy_of_record_guard('{argument}')",
    ]


def _sqlite_first_generation(table: str, purgeable: bool) -> list[str]:
    update_trigger, delete_trigger = _trigger_names(table)
    purge_clause = (
        f'WHEN NOT EXISTS (SELECT 1 FROM "servicing_purgedrecord" p '
        f'WHERE p."table_name" = \'{table}\' AND p."record_id" = OLD."id") '  # nosec B608: SQL names come from model metadata, values are parameters
        if purgeable
        else ""
    )
    return [
        f'CREATE TRIGGER IF NOT EXISTS "{update_trigger}" BEFORE UPDATE ON "{table}" BEGIN '
        f"SELECT RAISE(ABORT, 'copy of record: rows of {table} cannot be changed (F1, F7); submit a correction'); END",
        f'CREATE TRIGGER IF NOT EXISTS "{delete_trigger}" BEFORE DELETE ON "{table}" {purge_clause}BEGIN '
        f"SELECT RAISE(ABORT, 'copy of record: rows of {table} cannot be deleted before they are purged "
        f"after their retention period (F5)'); END",
    ]


def protection_sql(vendor: str, table: str, *, purgeable: bool = True, connection=None) -> list[str]:
    """The statements that make ``table`` append-only on ``vendor`` (sqlite or postgresql), of the
    generation the schema of ``connection`` (default: the default database) holds."""
    if vendor not in {"sqlite", "postgresql"}:
        raise NotImplementedError(f"No copy-of-record triggers for the {vendor} database.")
    second = keyed_schema(connection)
    if vendor == "sqlite":
        return (_sqlite_second_generation if second else _sqlite_first_generation)(table, purgeable)
    return (_pg_second_generation if second else _pg_first_generation)(table, purgeable)


def unprotection_sql(vendor: str, table: str) -> list[str]:
    """Drops the table's own triggers (both generations); the generic head and seal triggers stay."""
    update_trigger, delete_trigger = _trigger_names(table)
    insert_trigger, head_forward, head_kept, seal_kept = _second_generation_names(table)
    if vendor == "sqlite":
        return [
            f'DROP TRIGGER IF EXISTS "{name}"'
            for name in (update_trigger, delete_trigger, insert_trigger, head_forward, head_kept, seal_kept)
        ]
    if vendor == "postgresql":
        return [
            f'DROP TRIGGER IF EXISTS "{update_trigger}" ON "{table}"',
            f'DROP TRIGGER IF EXISTS "{insert_trigger}" ON "{table}"',
        ]
    raise NotImplementedError(f"No copy-of-record triggers for the {vendor} database.")


def head_unprotection_sql(vendor: str) -> list[str]:
    """Drops the generic chain-head and seal triggers (a migration rewriting the heads; tests)."""
    if vendor == "sqlite":
        return [f'DROP TRIGGER IF EXISTS "{name}"' for name in _SQLITE_GENERIC]
    return [f'DROP TRIGGER IF EXISTS "{table}_guard" ON "{table}"' for table in _PG_HEAD_TRIGGERS]


def expected_triggers(table: str, connection=None) -> list[str]:
    conn = connection or default_connection
    update_trigger, delete_trigger = _trigger_names(table)
    second = keyed_schema(conn)
    chain = _chain_model(table) is not None
    if conn.vendor == "postgresql":
        names = [update_trigger]
        if second and chain:
            names += [_second_generation_names(table)[0], f"{HEAD}_guard", f"{SEAL}_guard"]
        return names
    names = [update_trigger, delete_trigger]
    if second:
        names += (
            list(_second_generation_names(table)) + list(_SQLITE_GENERIC)
            if chain
            else [_second_generation_names(table)[0]]
        )
    return names


def protection_installed(table: str, using=None) -> bool:
    conn = using or default_connection
    names = expected_triggers(table, conn)
    with conn.cursor() as cursor:
        if conn.vendor == "sqlite":
            placeholders = ", ".join(["%s"] * len(names))
            cursor.execute(
                f"SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN ({placeholders})",  # nosec B608: SQL names come from model metadata, values are parameters
                names,
            )
            return cursor.fetchone()[0] == len(names)
        if conn.vendor == "postgresql":
            placeholders = ", ".join(["%s"] * len(names))
            cursor.execute(
                f"SELECT count(*) FROM pg_trigger WHERE tgname IN ({placeholders}) AND tgenabled <> 'D'",  # nosec B608: SQL names come from model metadata, values are parameters
                names,
            )
            return cursor.fetchone()[0] == len(names)
    return False


class ProtectCopyOfRecord(Operation):
    """Migration operation: make a table append-only with database triggers (see the module docstring
    and fogcontrol.core.records).

    ``ProtectCopyOfRecord("servicing_manifest")``; ``purgeable=False`` for tables whose rows may
    never be deleted at all (the purge log itself).
    """

    reduces_to_sql = True
    reversible = True

    def __init__(self, table: str, purgeable: bool = True):
        self.table = table
        self.purgeable = purgeable

    def deconstruct(self):
        return self.__class__.__name__, [self.table], {"purgeable": self.purgeable}

    def state_forwards(self, app_label, state):
        pass

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        conn = schema_editor.connection
        # Replaces triggers of an older generation under the same names (SQLite's CREATE TRIGGER
        # IF NOT EXISTS would keep them).
        for statement in unprotection_sql(conn.vendor, self.table):
            schema_editor.execute(statement, params=None)
        for statement in protection_sql(conn.vendor, self.table, purgeable=self.purgeable, connection=conn):
            schema_editor.execute(statement, params=None)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        for statement in unprotection_sql(schema_editor.connection.vendor, self.table):
            schema_editor.execute(statement, params=None)

    def describe(self):
        return f"Make {self.table} a copy of record (refuse UPDATE and DELETE)"
