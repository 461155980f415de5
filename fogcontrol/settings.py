"""Django settings, read from the environment.

FOGCONTROL_ENV=production turns on the production checks (secret, DEBUG, hosts) and the
HTTPS cookie settings. Everything else has a safe development default, so a fresh clone runs
with `make run` and nothing set.
"""

import datetime as dt
import importlib.util
import os
from pathlib import Path

from csp.constants import NONE, SELF

from fogcontrol.envconfig import (
    DEVELOPMENT_SECRET_KEY,
    cache_settings,
    check_production,
    check_storage_installed,
    database_from_url,
    email_settings,
    env_bool,
    env_list,
    environment_from,
    file_storage,
    sqlite_database,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("FOGCONTROL_DATA_DIR", BASE_DIR / "data"))

PRODUCTION = environment_from(os.environ.get("FOGCONTROL_ENV")) == "production"
SECRET_KEY = os.environ.get("SECRET_KEY", DEVELOPMENT_SECRET_KEY)
DEBUG = env_bool("FOGCONTROL_DEBUG", default=not PRODUCTION)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The key of the copy-of-record chains lives outside the database (fogcontrol/core/record_keys.py):
# FOGCONTROL_RECORD_KEY, or this key file (created on first use in development only).
FOGCONTROL_PRODUCTION = PRODUCTION
FOGCONTROL_RECORD_KEY_FILE = Path(os.environ.get("FOGCONTROL_RECORD_KEY_FILE", DATA_DIR / "record-keys.json"))
if PRODUCTION:
    check_production(
        secret_key=SECRET_KEY,
        debug=DEBUG,
        allowed_hosts=ALLOWED_HOSTS,
        record_key_available=bool(os.environ.get("FOGCONTROL_RECORD_KEY", "").strip())
        or FOGCONTROL_RECORD_KEY_FILE.is_file(),
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "django_filters",
    "django_htmx",
    "csp",
    "template_partials",
    "django_tasks",
    "fogcontrol.worker",  # before django_tasks_db: its db_worker command replaces the package's
    "django_tasks_db",
    "fogcontrol.core",
    "fogcontrol.accounts",
    "fogcontrol.audit",
    "fogcontrol.program",
    "fogcontrol.registry",
    "fogcontrol.notices",
    "fogcontrol.permits",
    "fogcontrol.servicing",
    "fogcontrol.findings",
    "fogcontrol.records",
    "fogcontrol.billing",
    "fogcontrol.spills",
    "fogcontrol.dashboard",
    "fogcontrol.inspections",
    "fogcontrol.sampling",
    "fogcontrol.enforcement",
    "fogcontrol.reports",
    "fogcontrol.messaging",
    "fogcontrol.feeds",
    "fogcontrol.demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise, so static files keep their own caching: every answer with records is
    # `no-store`, with the Content-Security-Policy and Permissions-Policy (docs/security.md).
    "fogcontrol.core.middleware.SecurityHeadersMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in user's pages in their own language (fogcontrol/accounts/middleware.py).
    "fogcontrol.accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "fogcontrol.program.middleware.TownTimezoneMiddleware",
    # Sign out after the idle timeout, then hold a session that still owes its second factor to
    # the verification pages (fogcontrol/accounts/middleware.py).
    "fogcontrol.accounts.middleware.IdleTimeoutMiddleware",
    "fogcontrol.accounts.middleware.SecondFactorMiddleware",
    # Last: turns a locked-out sign-in into the lockout page (fogcontrol/accounts/lockout.py).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "fogcontrol.urls"
# Django's form renderer with the commonest widgets written without templates (same HTML, less CPU).
FORM_RENDERER = "fogcontrol.core.form_renderer.FormRenderer"
WSGI_APPLICATION = "fogcontrol.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "fogcontrol" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "fogcontrol.program.context_processors.town",
            ],
        },
    },
]

DATA_DIR.mkdir(parents=True, exist_ok=True)
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": database_from_url(os.environ["DATABASE_URL"])}
else:
    DATABASES = {"default": sqlite_database(DATA_DIR / "fogcontrol.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
# Password guessing (django-axes; policy in fogcontrol/accounts/lockout.py and docs/security.md):
# a username is locked from one address after this many wrong passwords, for this many minutes.
AUTHENTICATION_BACKENDS = [
    "fogcontrol.accounts.lockout.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# How many reverse proxies of ours stand in front of the app. 0: the client's address is
# REMOTE_ADDR and X-Forwarded-For is ignored (a client can write anything there).
FOGCONTROL_TRUSTED_PROXIES = int(os.environ.get("FOGCONTROL_TRUSTED_PROXIES", 0))
AXES_FAILURE_LIMIT = int(os.environ.get("FOGCONTROL_LOGIN_FAILURE_LIMIT", 5))
AXES_COOLOFF_TIME = dt.timedelta(minutes=int(os.environ.get("FOGCONTROL_LOGIN_LOCKOUT_MINUTES", 15)))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "fogcontrol.accounts.lockout.client_ip"
AXES_LOCKOUT_CALLABLE = "fogcontrol.accounts.lockout.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429

# At least 12 characters, not on Django's list of 20,000 common passwords (ASVS 2.1.1, 2.1.7).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Sessions (fogcontrol/accounts/sessions.py, middleware.py; docs/security.md): signed out after
# this many minutes without a request, staff sooner than outside users.
FOGCONTROL_IDLE_MINUTES_STAFF = int(os.environ.get("FOGCONTROL_IDLE_MINUTES_STAFF", 30))
FOGCONTROL_IDLE_MINUTES = int(os.environ.get("FOGCONTROL_IDLE_MINUTES", 120))
# Staff signing a submission on a party's behalf must have given their password or a one-time
# code within this many minutes (fogcontrol/core/fresh_auth.py).
FOGCONTROL_FRESH_AUTH_MINUTES = int(os.environ.get("FOGCONTROL_FRESH_AUTH_MINUTES", 5))
# Second factor (django-otp): the name authenticator apps show beside the username.
OTP_TOTP_ISSUER = os.environ.get("FOGCONTROL_OTP_ISSUER", "FOG Control")
# Password reset links stay valid this long (seconds).
PASSWORD_RESET_TIMEOUT = int(os.environ.get("FOGCONTROL_PASSWORD_RESET_SECONDS", 3600))
# Password change and reset requests (fogcontrol/accounts/ratelimit.py): how many in the window.
FOGCONTROL_PASSWORD_RESET_LIMIT = int(os.environ.get("FOGCONTROL_PASSWORD_RESET_LIMIT", 5))
FOGCONTROL_PASSWORD_CHANGE_FAILURE_LIMIT = int(os.environ.get("FOGCONTROL_PASSWORD_CHANGE_FAILURE_LIMIT", 5))

# The pages of outside users (FSEs, property owners, haulers) in English and Spanish (docs/i18n.md):
# a signed-in user's own `preferred_language`, the browser's Accept-Language before sign-in.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
# The project's templates' catalogue; each app keeps its own in fogcontrol/<app>/locale/.
LOCALE_PATHS = [BASE_DIR / "fogcontrol" / "locale", BASE_DIR / "fogcontrol" / "rules" / "locale"]
# Dates and numbers as each language writes them (fogcontrol/formats/<lang>/formats.py).
FORMAT_MODULE_PATH = ["fogcontrol.formats"]
# The Town's time zone; the Town profile may name another, activated per request.
TIME_ZONE = os.environ.get("FOGCONTROL_TIME_ZONE", "America/Los_Angeles")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [
    BASE_DIR / "fogcontrol" / "static",
    # Leaflet's JS and CSS as our own static files (`leaflet/leaflet.js`, the map), from the
    # django-leaflet package; not installed as an app (its admin and forms need GeoDjango and GDAL).
    ("leaflet", Path(importlib.util.find_spec("leaflet").origin).parent / "static" / "leaflet"),
]
STATIC_ROOT = DATA_DIR / "static"
# WhiteNoise serves collected files from here; it must exist even before the first collectstatic.
STATIC_ROOT.mkdir(exist_ok=True)
MEDIA_ROOT = Path(os.environ.get("FOGCONTROL_MEDIA_DIR", DATA_DIR / "media"))
# Nothing is served from here (not even under DEBUG): uploads go out through access-checked views.
MEDIA_URL = "media/"
# Uploaded files and stored documents: the file system under MEDIA_ROOT, or an S3-compatible object
# store (FOGCONTROL_STORAGE=s3, the `s3` extra; envconfig.file_storage, docs/security.md). Code
# reaches files only through their FileField or `default_storage`, never by a path on disk.
STORAGES = {
    "default": file_storage(os.environ),
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
check_storage_installed(STORAGES["default"])
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
# Largest accepted upload (import files, scanned documents), bytes.
FOGCONTROL_MAX_UPLOAD_BYTES = int(os.environ.get("FOGCONTROL_MAX_UPLOAD_BYTES", 50 * 1024 * 1024))
# Inspection photos (a phone camera's JPEG) and drawn signatures: refused above these sizes, then
# re-encoded (fogcontrol/core/images.py).
FOGCONTROL_MAX_PHOTO_BYTES = int(os.environ.get("FOGCONTROL_MAX_PHOTO_BYTES", 15 * 1024 * 1024))
FOGCONTROL_MAX_SIGNATURE_BYTES = 512 * 1024
# What reading an uploaded import file may cost (fogcontrol/registry/imports/limits.py): an .xlsx
# member's and the whole workbook's decompressed size, a member's compression ratio, the rows of
# a sheet, the columns of a file, and the seconds spent reading a workbook while a person waits.
FOGCONTROL_XLSX_MAX_MEMBER_BYTES = int(os.environ.get("FOGCONTROL_XLSX_MAX_MEMBER_BYTES", 64 * 1024 * 1024))
FOGCONTROL_XLSX_MAX_UNZIPPED_BYTES = int(
    os.environ.get("FOGCONTROL_XLSX_MAX_UNZIPPED_BYTES", 256 * 1024 * 1024)
)
FOGCONTROL_XLSX_MAX_RATIO = float(os.environ.get("FOGCONTROL_XLSX_MAX_RATIO", 200))
FOGCONTROL_XLSX_MAX_ROWS = int(os.environ.get("FOGCONTROL_XLSX_MAX_ROWS", 250_000))
FOGCONTROL_UPLOAD_MAX_COLUMNS = int(os.environ.get("FOGCONTROL_UPLOAD_MAX_COLUMNS", 256))
FOGCONTROL_UPLOAD_READ_SECONDS = float(os.environ.get("FOGCONTROL_UPLOAD_READ_SECONDS", 8))

globals().update(email_settings(os.environ.get("EMAIL_URL"), DATA_DIR))
# Rate-limit counts: per process unless FOGCONTROL_CACHE_URL names a shared Redis (docs/deployment.md).
CACHES = cache_settings(os.environ.get("FOGCONTROL_CACHE_URL"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "fog-program@localhost")
# How long an invitation's link to set a password works (messaging).
FOGCONTROL_INVITATION_DAYS = int(os.environ.get("FOGCONTROL_INVITATION_DAYS", 7))

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Content-Security-Policy (django-csp; docs/security.md): scripts, styles, images, fonts and
# requests from our own origin only; no inline script, no `style="…"`, no eval, no plugins, no
# framing, forms post only to us. The API docs page adds `data:` images (Swagger UI's icons).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# The map's background tiles (docs/reports.md): none by default, so the map draws its points on a
# plain background and fetches nothing from the internet. A Town that wants a base map sets a tile URL
# template (`https://tiles.example.org/{z}/{x}/{y}.png`; `{s}` for subdomains) and its attribution;
# the map page alone then lets images come from that origin (its CSP `img-src`).
FOGCONTROL_MAP_TILE_URL = os.environ.get("FOGCONTROL_MAP_TILE_URL", "").strip()
FOGCONTROL_MAP_TILE_ATTRIBUTION = os.environ.get("FOGCONTROL_MAP_TILE_ATTRIBUTION", "").strip()
# The browser features no page uses, switched off (fogcontrol/core/middleware.py).
FOGCONTROL_PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), encrypted-media=(), "
    "fullscreen=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), "
    "payment=(), picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), "
    "serial=(), usb=(), xr-spatial-tracking=()"
)
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("FOGCONTROL_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("FOGCONTROL_HSTS_SUBDOMAINS", False)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "fogcontrol.core.api.pagination.StandardPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.SearchFilter",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "fogcontrol.core.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "fogcontrol.core.api.errors.exception_handler",
    "DEFAULT_VERSIONING_CLASS": None,
    # Throttles key on REMOTE_ADDR unless our own proxies are declared: never on a client's header.
    "NUM_PROXIES": FOGCONTROL_TRUSTED_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "fogcontrol API",
    "DESCRIPTION": "The Town's FOG Control Program (Chapter 10.02): registry, permits, servicing, rules.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # Served from the installed package: nothing is fetched from a CDN at run time.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Many records have a `kind` or a `status`: name each choice set after its record.
    "ENUM_NAME_OVERRIDES": {
        "FeedKindEnum": "fogcontrol.feeds.models.FeedToken.Kind",
        "DeviceKindEnum": "fogcontrol.registry.models.GreaseControlDevice.Kind",
        "ViolationKindEnum": "fogcontrol.enforcement.models.Violation.Kind",
        # The four kinds a penalty is capped for (P7), a subset of the violation kinds.
        "PenaltyKindEnum": "fogcontrol.enforcement.models.PenaltyOrder.Kind",
        "ReferralKindEnum": "fogcontrol.enforcement.models.Referral.Kind",
        "DeviceStatusEnum": "fogcontrol.registry.models.GreaseControlDevice.Status",
        "EstablishmentStatusEnum": "fogcontrol.registry.models.FoodServiceEstablishment.Status",
        "PermitStatusEnum": "fogcontrol.permits.models.permits.PermitStatus",
        "ApplicationStatusEnum": "fogcontrol.permits.models.applications.ApplicationStatus",
        "ApplicationKindEnum": "fogcontrol.permits.models.applications.ApplicationKind",
        "FixtureKindEnum": "fogcontrol.permits.models.applications.FixtureKind",
        "FeeKindEnum": "fogcontrol.permits.models.fees.FeeKind",
        "RemodelNoticeKindEnum": "fogcontrol.permits.models.permits.RemodelNotice.Kind",
        "ApplicationDocumentKindEnum": "fogcontrol.permits.models.applications.ApplicationDocument.Kind",
        "PermitOrderKindEnum": "fogcontrol.permits.models.orders.PermitOrder.Kind",
        "PermitOrderOutcomeEnum": "fogcontrol.permits.models.orders.PermitOrder.Outcome",
        "InspectionKindEnum": "fogcontrol.inspections.models.Inspection.Kind",
        "InspectionStatusEnum": "fogcontrol.inspections.models.Inspection.Status",
        "InspectionEntryEnum": "fogcontrol.inspections.models.Inspection.Entry",
        "FindingClosedHowEnum": "fogcontrol.findings.models.Finding.ClosedHow",
        "ServiceMethodEnum": "fogcontrol.notices.models.ServiceMethod",
        "LanguageEnum": "fogcontrol.core.languages.Language",
        "TrainingLanguageEnum": "fogcontrol.records.models.TrainingSession.Language",
        "InvitationRoleEnum": "fogcontrol.messaging.models.INVITABLE_ROLE_CHOICES",
        "ReminderKindEnum": "fogcontrol.messaging.filters.REMINDER_KINDS",
        "ComplianceChargeKindEnum": "fogcontrol.inspections.models.ComplianceCharge.Kind",
        "SampleKindEnum": "fogcontrol.sampling.models.Sample.Kind",
        "MonitoringFacilityKindEnum": "fogcontrol.sampling.models.MonitoringFacility.Kind",
        "AnalyteEnum": "fogcontrol.sampling.models.Analyte",
        "LabUnitEnum": "fogcontrol.sampling.models.Unit",
        # enforcement-b: complaints, penalty orders, suspension appeals.
        "ComplaintServiceMethodEnum": "fogcontrol.enforcement.api.serializers_orders.COMPLAINT_SERVICE_METHODS",
        "PenaltyServiceMethodEnum": "fogcontrol.enforcement.api.serializers_orders.PENALTY_SERVICE_METHODS",
        "ComplaintAppealEnum": "fogcontrol.enforcement.models.AdministrativeComplaint.Appeal",
        "SuspensionAppealStepEnum": "fogcontrol.enforcement.api.serializers_orders.SUSPENSION_APPEAL_STEPS",
        "PermitOrderAppealEnum": "fogcontrol.permits.models.orders.PermitOrder.Appeal",
        "PenaltyOrderStatusEnum": "fogcontrol.enforcement.models.PenaltyOrder.Status",
        "PaymentMethodEnum": "fogcontrol.billing.models.Payment.Method",
        "InvoiceStatusEnum": "fogcontrol.billing.models.Invoice.Status",
        "InvoiceKindEnum": "fogcontrol.billing.models.InvoiceKind",
        "LienStatusEnum": "fogcontrol.billing.models.Lien.Status",
        "SpillKindEnum": "fogcontrol.spills.models.Spill.Kind",
        "SpillSourceEnum": "fogcontrol.spills.models.Spill.Source",
        "SpillImportKindEnum": "fogcontrol.spills.models.SpillImport.Kind",
        "SpillImportStatusEnum": "fogcontrol.spills.models.SpillImport.Status",
        # A manifest flag's review, one at a time (servicing) or many at once (dashboard).
        "FlagReviewOutcomeEnum": "fogcontrol.dashboard.api.serializers.FLAG_REVIEW_OUTCOMES",
    },
}

# Background work: the database worker by default (`fogcontrol db_worker`); RQ on Redis when
# FOGCONTROL_TASKS=rq (needs the `redis` extra and REDIS_URL).
# The RQ worker: `fogcontrol rqworker --job-class django_tasks_rq.Job --worker-class
# fogcontrol.worker.rq_worker.HousekeepingWorker` (README, "Background work on Redis").
if os.environ.get("FOGCONTROL_TASKS") == "rq":
    INSTALLED_APPS += ["django_rq", "django_tasks_rq"]
    TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
    RQ_QUEUES = {"default": {"URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")}}
elif os.environ.get("FOGCONTROL_TASKS") == "immediate":
    TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
else:
    TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# Background work (fogcontrol/worker/, docs/architecture.md "How a nightly job flows"): a worker beats
# every FOGCONTROL_WORKER_BEAT_SECONDS; one silent for FOGCONTROL_WORKER_STALE_MINUTES is taken for
# dead and the jobs it left running are requeued by the next worker.
FOGCONTROL_WORKER_BEAT_SECONDS = float(os.environ.get("FOGCONTROL_WORKER_BEAT_SECONDS", 15))
FOGCONTROL_WORKER_STALE_MINUTES = float(os.environ.get("FOGCONTROL_WORKER_STALE_MINUTES", 5))
# On RQ, a job abandoned by a dead worker is requeued until it has been tried this many times in all
# (fogcontrol/core/queue_rq.py); the database queue puts such a job back each time.
FOGCONTROL_WORKER_MAX_ATTEMPTS = int(os.environ.get("FOGCONTROL_WORKER_MAX_ATTEMPTS", 3))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("FOGCONTROL_LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
