"""The project's settings: safe development defaults, production refuses them."""

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from fogcontrol.envconfig import (
    DEVELOPMENT_SECRET_KEY,
    cache_settings,
    check_production,
    database_from_url,
    email_settings,
    env_bool,
    environment_from,
)


def test_production_refuses_the_development_secret():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        check_production(secret_key=DEVELOPMENT_SECRET_KEY, debug=False, allowed_hosts=["fog.example.gov"])


def test_production_refuses_debug_and_open_hosts():
    with pytest.raises(ImproperlyConfigured) as refused:
        check_production(secret_key="x" * 50, debug=True, allowed_hosts=["*"])
    assert "FOGCONTROL_DEBUG" in str(refused.value)
    assert "ALLOWED_HOSTS" in str(refused.value)


def test_production_accepts_real_settings():
    check_production(
        secret_key="k" * 50, debug=False, allowed_hosts=["fog.example.gov"], record_key_available=True
    )


def test_production_refuses_to_start_without_the_record_key():
    """Issue 15, finding 4: the chain's key lives outside the database and production needs it."""
    with pytest.raises(ImproperlyConfigured, match="FOGCONTROL_RECORD_KEY"):
        check_production(secret_key="k" * 50, debug=False, allowed_hosts=["fog.example.gov"])


def test_a_production_server_without_the_record_key_does_not_start(tmp_path):
    env = {
        "FOGCONTROL_ENV": "production",
        "FOGCONTROL_DATA_DIR": str(tmp_path),
        "SECRET_KEY": "s" * 50,
        "ALLOWED_HOSTS": "fog.example.gov",
        "PATH": "/usr/bin:/bin",
    }
    result = subprocess.run(
        [sys.executable, "-m", "fogcontrol.manage", "check"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "copy-of-record key must be set" in result.stderr
    assert not (tmp_path / "record-keys.json").exists()


def test_a_production_server_does_not_start_with_defaults(tmp_path):
    """Starting Django with FOGCONTROL_ENV=production and no secret fails before serving anything."""
    env = {"FOGCONTROL_ENV": "production", "FOGCONTROL_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-m", "fogcontrol.manage", "check"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "Production settings refused" in result.stderr


def test_only_an_explicit_development_runs_development_settings():
    assert environment_from(None) == "development"
    assert environment_from("development") == "development"
    # A mistyped production is production, with its checks, never the development secret.
    assert environment_from("Production") == "production"
    assert environment_from(" production ") == "production"


@pytest.mark.parametrize("value", ["prod", "staging", "Develop", ""])
def test_an_unknown_environment_is_refused_by_name(value):
    with pytest.raises(ImproperlyConfigured, match="FOGCONTROL_ENV"):
        environment_from(value)


def test_a_mistyped_production_server_does_not_start_with_defaults(tmp_path):
    """FOGCONTROL_ENV=Production (capital P) ran development settings with the public secret."""
    env = {"FOGCONTROL_ENV": "Production", "FOGCONTROL_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-m", "fogcontrol.manage", "check"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "Production settings refused" in result.stderr


def test_env_bool_names_the_bad_value(monkeypatch):
    monkeypatch.setenv("FOGCONTROL_DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="FOGCONTROL_DEBUG"):
        env_bool("FOGCONTROL_DEBUG", default=False)


def test_database_url_for_postgresql():
    config = database_from_url("postgres://postgres@127.0.0.1:5432/fogcontrol")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "fogcontrol"


def test_sqlite_url_keeps_wal_and_full_sync(tmp_path):
    config = database_from_url(f"sqlite:///{tmp_path}/town.sqlite3")
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]
    assert "synchronous=FULL" in config["OPTIONS"]["init_command"]


def test_email_url_smtp():
    config = email_settings("smtp://fog%40town.gov:s3cret@mail.town.gov:587?tls=1")
    assert config["EMAIL_HOST"] == "mail.town.gov"
    assert config["EMAIL_PORT"] == 587
    assert config["EMAIL_HOST_USER"] == "fog@town.gov"
    assert config["EMAIL_USE_TLS"] is True


def test_email_url_rejects_unknown_scheme():
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        email_settings("pigeon://coop")


@pytest.mark.django_db
def test_embedded_database_runs_wal_with_full_sync(tmp_path):
    """The embedded default opens SQLite in WAL mode with synchronous=FULL."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    import sqlite3

    from fogcontrol.envconfig import sqlite_database

    config = sqlite_database(tmp_path / "check.sqlite3")
    db = sqlite3.connect(config["NAME"])
    db.executescript(config["OPTIONS"]["init_command"])
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    db.close()


def test_cache_url_unset_keeps_counts_in_the_process():
    assert cache_settings(None)["default"]["BACKEND"].endswith("LocMemCache")


def test_cache_url_refuses_what_is_not_redis():
    with pytest.raises(ImproperlyConfigured, match="redis://"):
        cache_settings("memcached://127.0.0.1:11211")


def test_a_shared_redis_cache_counts_one_limit_across_processes():
    """Two processes (two cache clients) see one password-reset count when FOGCONTROL_CACHE_URL
    names a Redis; with the default each would count on its own."""
    from django.core.cache.backends.redis import RedisCache

    redis = pytest.importorskip("redis")
    url = "redis://127.0.0.1:6379/13"
    try:
        redis.Redis.from_url(url).ping()
    except redis.exceptions.ConnectionError:
        if os.environ.get("CI"):
            raise
        pytest.skip("no Redis on 127.0.0.1:6379")
    config = cache_settings(url)["default"]
    first, second = (RedisCache(config["LOCATION"], {}) for _ in range(2))
    key = "fogcontrol:test:shared-count"
    first.delete(key)
    first.add(key, 0)
    first.incr(key)
    second.incr(key)
    assert first.get(key) == second.get(key) == 2
    first.delete(key)
