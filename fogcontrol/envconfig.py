"""Settings read from the environment, with the parsing kept out of settings.py."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

DEVELOPMENT_SECRET_KEY = "fogcontrol-development-only-not-secret"


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in {"1", "true", "yes", "on"}:
        return True
    if raw.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if not raw:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def sqlite_database(path: Path) -> dict:
    """The embedded default: WAL for readers beside one writer, synchronous=FULL for durability."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
            "transaction_mode": "IMMEDIATE",
            # Seconds a writer waits for SQLite's one write lock before "database is locked".
            "timeout": float(os.environ.get("FOGCONTROL_SQLITE_TIMEOUT", 20)),
        },
        "TEST": {"NAME": None},
    }


def database_from_url(url: str) -> dict:
    import dj_database_url

    if url.startswith("sqlite:"):
        parsed = dj_database_url.parse(url)
        return sqlite_database(Path(parsed["NAME"]))
    config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    return config


def email_settings(url: str | None, data_dir: Path | None = None) -> dict:
    """EMAIL_URL: smtp://user:password@host:587?tls=1, smtps://…, file:///path, console://, or locmem://.

    Without EMAIL_URL, messages are written as files into ``<data_dir>/mail`` (one ``.log`` file per
    connection), and the program's outbox page (messaging) shows each message sent: a demo or a
    Town trying the program sees its real messages without a mail server."""
    if not url:
        if data_dir is None:
            return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(Path(data_dir) / "mail"),
        }
    if url.startswith("console:"):
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if url.startswith("locmem:"):
        return {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    parsed = urlparse(url)
    if parsed.scheme == "file":
        if not parsed.path:
            raise ImproperlyConfigured("EMAIL_URL file:// needs a directory, e.g. file:///var/lib/fog/mail")
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": unquote(parsed.path),
        }
    if parsed.scheme not in {"smtp", "smtps"}:
        raise ImproperlyConfigured(
            f"EMAIL_URL scheme must be smtp, smtps, file, console or locmem, not {parsed.scheme!r}"
        )
    query = parse_qs(parsed.query)
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parsed.hostname or "localhost",
        "EMAIL_PORT": parsed.port or (465 if parsed.scheme == "smtps" else 25),
        "EMAIL_HOST_USER": unquote(parsed.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parsed.password or ""),
        "EMAIL_USE_SSL": parsed.scheme == "smtps",
        "EMAIL_USE_TLS": query.get("tls", ["0"])[0] in {"1", "true"},
    }


def cache_settings(url: str | None) -> dict:
    """Django's cache, which holds the password pages' and the token endpoint's rate-limit counts.

    Unset: each process's own memory, so with several gunicorn processes a limit counts per
    process. ``redis://host:6379/1`` (the Redis a region runs its workers on) shares the counts
    between every process and server.
    """
    if not url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    if urlparse(url).scheme not in {"redis", "rediss"}:
        raise ImproperlyConfigured(
            f"FOGCONTROL_CACHE_URL must be a redis:// or rediss:// address, not {url!r}."
        )
    return {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}}


FILE_SYSTEM_STORAGE = "django.core.files.storage.FileSystemStorage"
S3_STORAGE = "storages.backends.s3.S3Storage"


def file_storage(environ) -> dict:
    """Where uploaded files and stored documents go: Django's ``STORAGES["default"]``.

    ``FOGCONTROL_STORAGE=filesystem`` (the default): MEDIA_ROOT on this machine. ``s3``: an
    S3-compatible object store (AWS S3, MinIO, Ceph, Backblaze, …) through django-storages (the
    ``s3`` extra), for several app servers sharing their files: ``FOGCONTROL_S3_BUCKET`` (required),
    ``FOGCONTROL_S3_ENDPOINT_URL`` (for a store other than AWS), ``FOGCONTROL_S3_REGION``,
    ``FOGCONTROL_S3_PREFIX`` (a folder in the bucket), ``FOGCONTROL_S3_ADDRESSING_STYLE`` (``path``
    for most self-hosted stores); the credentials as boto3 reads them (``AWS_ACCESS_KEY_ID`` and
    ``AWS_SECRET_ACCESS_KEY``, a profile, or the machine's role). The objects are private (no
    public ACL) and never linked: every file goes out through an access-checked view, read by the
    app server (docs/security.md, "Where files are stored")."""
    kind = (environ.get("FOGCONTROL_STORAGE") or "filesystem").strip().lower()
    if kind in ("filesystem", "file", "files"):
        return {"BACKEND": FILE_SYSTEM_STORAGE}
    if kind != "s3":
        raise ImproperlyConfigured(f"FOGCONTROL_STORAGE must be filesystem or s3, not {kind!r}")
    bucket = (environ.get("FOGCONTROL_S3_BUCKET") or "").strip()
    if not bucket:
        raise ImproperlyConfigured("FOGCONTROL_STORAGE=s3 needs FOGCONTROL_S3_BUCKET, the bucket's name.")
    options = {
        "bucket_name": bucket,
        "default_acl": "private",
        "querystring_auth": True,
        "querystring_expire": 300,
        "file_overwrite": False,
        "location": (environ.get("FOGCONTROL_S3_PREFIX") or "").strip("/"),
    }
    optional = {
        "endpoint_url": "FOGCONTROL_S3_ENDPOINT_URL",
        "region_name": "FOGCONTROL_S3_REGION",
        "addressing_style": "FOGCONTROL_S3_ADDRESSING_STYLE",
    }
    options.update({key: environ[name].strip() for key, name in optional.items() if environ.get(name)})
    return {"BACKEND": S3_STORAGE, "OPTIONS": options}


def check_storage_installed(storage: dict) -> None:
    """An object store named in the settings needs its package: say how to install it."""
    if storage["BACKEND"] == S3_STORAGE and not all(
        importlib.util.find_spec(name) for name in ("storages", "boto3")
    ):
        raise ImproperlyConfigured(
            "FOGCONTROL_STORAGE=s3 needs django-storages and boto3: install the s3 extra "
            "(uv sync --extra s3, or pip install 'fogcontrol[s3]')."
        )


ENVIRONMENTS = ("development", "production")


def environment_from(value: str | None) -> str:
    """Which settings to run: only an explicit "development" (or nothing set) runs development.

    A mistyped value ("Production", " production") must never fall back to development settings
    and the public development secret, so the spelling is forgiven towards production and any
    other word is refused by name.
    """
    if value is None or value == "development":
        return "development"
    if value.strip().lower() == "production":
        return "production"
    raise ImproperlyConfigured(
        f"FOGCONTROL_ENV is {value!r}: set it to 'production' on a Town's server, "
        "or to 'development' (or leave it unset) on a developer's machine."
    )


def check_production(
    *, secret_key: str, debug: bool, allowed_hosts: list[str], record_key_available: bool = False
) -> None:
    """Refuse to start a production server with development defaults."""
    problems = []
    if not record_key_available:
        problems.append(
            "the copy-of-record key must be set: FOGCONTROL_RECORD_KEY, or the key file "
            "FOGCONTROL_RECORD_KEY_FILE (default <data dir>/record-keys.json)"
        )
    if secret_key == DEVELOPMENT_SECRET_KEY or len(secret_key) < 32:
        problems.append("SECRET_KEY must be set to a random value of at least 32 characters")
    if debug:
        problems.append("FOGCONTROL_DEBUG must be off")
    if not allowed_hosts or "*" in allowed_hosts:
        problems.append("ALLOWED_HOSTS must name the site's host names")
    if problems:
        raise ImproperlyConfigured("Production settings refused: " + "; ".join(problems) + ".")
