"""Settings for the club site, all from the environment.

Defaults suit a club member's laptop: SQLite in the project folder, tasks run eagerly (no broker),
e-mails on the console. Production sets at least ``DJANGO_SECRET_KEY`` and
``DJANGO_ALLOWED_HOSTS``; ``DATABASE_URL`` switches to PostgreSQL, ``CELERY_BROKER_URL`` to
Redis or RabbitMQ.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        # A production site must never run on a key from the repository.
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is required when DJANGO_DEBUG is off.")
    SECRET_KEY = "insecure-key-for-local-development-only"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # The site's shell (home, guide, privacy, offline, media, health, errors). First, so that
    # its runserver (static files, and a word when SITE_URL is elsewhere) is the one run.
    "front",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # /sitemap.xml (front/sitemaps.py).
    "django.contrib.sitemaps",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    # Swagger UI's files from the package, served by the site itself (no CDN).
    "drf_spectacular_sidecar",
    # Its system checks refuse django-csp's pre-4.0 settings, which it would silently ignore.
    "csp",
    # The plumbing: the outbox's and the throttle's tables.
    "infra",
    "club",
    "games",
    "scoring",
    "api",
    # The club's own public site: pages, news, contact, photos, hall of fame.
    "clubsite",
    # manage.py bench: the benchmarks and load tests, outside the club's apps.
    "benchmarks",
]

MIDDLEWARE = [
    "config.middleware.KeptCopyLeavesCookies",
    "django.middleware.security.SecurityMiddleware",
    # Links written while a request is answered go where it came to (infra/site_address.py).
    "config.middleware.SiteOrigin",
    # Static files compressed and with hashed names, served by the web process itself.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    # Before every middleware that reads the database: a request whose connection was dropped
    # is answered again, and 503 (not 500) while the database is unreachable.
    "config.middleware.DatabaseDropRetried",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.NotAllowedPage",
    "config.middleware.LoginStampHeader",
    "config.middleware.NulInQueryRefused",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.login_stamp_context",
                "config.context_processors.guide_link",
                "config.context_processors.page_address",
                "club.names.name_reader_context",
            ],
            # Django's ``date`` filter with « 1er » for the first of the month in French.
            "builtins": ["club.templatetags.dates"],
        },
    },
    # The long tables Django's template language is measured too slow for (a 40-player
    # night's poules: hundreds of deals, thousands of cells), named with ``using="jinja2"``.
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "config.jinja2_environment.environment"},
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)
    if os.environ.get("DATABASE_URL")
    else {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}
}
# A connection kept between requests (CONN_MAX_AGE) may have been dropped meanwhile: PostgreSQL
# restarted, a failover, an idle connection cut. Each request's first query asks the connection
# first and opens a new one if it is dead (a dead one answered 500 to the thread's next
# request). One dropped in the middle of a request is config.middleware.DatabaseDropRetried's.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# SQLite holds a real club night (the Quick start's laptop, four phones saving at once): WAL lets
# the pages read while a deal is written, IMMEDIATE takes the write lock when a transaction
# starts (not half-way, where SQLite can only answer "database is locked"), and a writer waits
# up to 20 s for the one before it instead of failing.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Published pages keep their costly parts in the cache (club/published.py). Each web worker has
# its own memory by default; with several workers, a shared Redis serves them all.
_CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")
# The cache is never a dependency: a Redis that does not answer is a miss (infra/cache.py),
# found out within a short timeout rather than waited for.
CACHES = {
    "default": (
        {
            "BACKEND": "infra.cache.FailSafeRedisCache",
            "LOCATION": _CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if _CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "club"}
    )
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The club is French-speaking (Belgium): French first, English and Dutch on request.
LANGUAGE_CODE = "fr-be"
# Each language named in itself, never translated: a reader looks for his own language's
# name ("Nederlands", not "Dutch"); the choices add each option's lang (club.language).
LANGUAGES = [("fr", "Français"), ("en", "English"), ("nl", "Nederlands")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Brussels"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("DJANGO_MEDIA_ROOT", BASE_DIR / "media"))
# Uploads (players' photos) are served by ``front.views.media``; behind nginx, set this to an
# ``internal`` location aliased to MEDIA_ROOT (e.g. ``/protected-media/``) and Django only
# answers with ``X-Accel-Redirect``, nginx sends the file.
MEDIA_ACCEL_REDIRECT = os.environ.get("DJANGO_MEDIA_ACCEL_REDIRECT", "")
# A club's photos (clubsite): apart from the other uploads, outside MEDIA_ROOT, since they are
# served only through their album's page, which asks who is looking.
PHOTOS_ROOT = Path(os.environ.get("DJANGO_PHOTOS_ROOT", BASE_DIR / "photos"))
# What a club's photos may take in all (the club's settings page shows where it stands).
CLUB_PHOTOS_MAX_BYTES = int(os.environ.get("CLUB_PHOTOS_MAX_MB", 2048)) * 1024 * 1024
# Uploads (logos, players' photos, a club's photos) on this host's disk, or, with several web
# hosts, in S3-compatible object storage shared by all (MinIO in deploy/compose.yaml; which to
# choose when: deploy/scaling.md). The bucket stays private: the site serves its files.
S3_BUCKET = os.environ.get("DJANGO_S3_BUCKET", "")
if S3_BUCKET:
    _S3 = {
        "bucket_name": S3_BUCKET,
        "endpoint_url": os.environ.get("DJANGO_S3_ENDPOINT_URL") or None,
        "access_key": os.environ.get("DJANGO_S3_ACCESS_KEY") or None,
        "secret_key": os.environ.get("DJANGO_S3_SECRET_KEY") or None,
        "region_name": os.environ.get("DJANGO_S3_REGION") or None,
        # MinIO and most S3-compatible stores address a bucket by path, not by host name.
        "addressing_style": "path",
        "file_overwrite": False,
        "default_acl": None,
        "querystring_auth": False,
    }
    _UPLOADS = {
        "BACKEND": "infra.storage.SiteServedS3Storage",
        "OPTIONS": {**_S3, "location": "media"},
    }
    _PHOTOS = {
        "BACKEND": "infra.storage.SiteServedS3Storage",
        "OPTIONS": {**_S3, "location": "photos"},
    }
else:
    _UPLOADS = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    _PHOTOS = {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": PHOTOS_ROOT, "base_url": "/photos-not-served/"},
    }
# collectstatic writes each file under a hashed name, compressed (gzip, brotli if installed):
# browsers keep them for a year. A developer's runserver serves them from static/ as they are.
STORAGES = {
    "default": _UPLOADS,
    "photos": _PHOTOS,
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

AUTHENTICATION_BACKENDS = ["club.backends.EmailOrUsernameBackend"]
# Django's database sessions, each read by a query compiled once (club/backends.py).
SESSION_ENGINE = "club.backends"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# E-mail: the console unless an SMTP host is configured.
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "club@localhost")
# The site's address for links written by work no request asked for (beat's reminders, a
# command): a page's links, and the e-mails and feeds a request asks for, use that request's
# own address (infra/site_address.py).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Who may open a club from the home page (club/services/signup.py): "open" — at once, once the
# secretary's address is confirmed; "approval" — the operator (the superusers) approves each in
# Django's admin; "closed" — a polite page. Production waits for the operator (strangers' clubs
# do not appear on his site unseen); a laptop running the Quick start (DJANGO_DEBUG=1) is open.
CLUB_SIGNUP = os.environ.get("DJANGO_CLUB_SIGNUP") or ("open" if DEBUG else "approval")
if CLUB_SIGNUP not in {"open", "approval", "closed"}:
    raise ImproperlyConfigured(
        f"DJANGO_CLUB_SIGNUP is open, approval or closed, not {CLUB_SIGNUP!r}."
    )

# Celery: eager (in-process) unless a broker is configured, so a laptop needs no service.
CELERY_TASK_ALWAYS_EAGER = not os.environ.get("CELERY_BROKER_URL")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TIMEZONE = TIME_ZONE
# A task is acknowledged once done, and put back when its worker dies mid-task: it runs again
# (every task is safe to run twice). One task reserved at a time per worker process.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Our tasks take seconds: a message not acknowledged after 15 minutes (its worker vanished
# with the machine) is handed to another worker, not after Redis's default hour.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 15 * 60}
CELERY_TASK_TIME_LIMIT = 10 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 9 * 60
# A broker that is down is told at once: the request that queued the work has committed it
# (``infra.outbox``) and must not wait; beat queues it again later.
CELERY_BROKER_CONNECTION_TIMEOUT = 3
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 1,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A deployment may share its broker: its own queue name keeps its tasks apart.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
# Celery beat looks for pending work every PENDING_REQUEUE_SECONDS: work never handed to the
# broker (it was down) goes at the next look; work handed over but not done after
# PENDING_RESEND_SECONDS (its worker died, the message was lost) is handed again at the look
# after that, so within PENDING_RESEND_SECONDS + PENDING_REQUEUE_SECONDS.
PENDING_REQUEUE_SECONDS = int(os.environ.get("PENDING_REQUEUE_SECONDS", 60))
PENDING_RESEND_SECONDS = int(os.environ.get("PENDING_RESEND_SECONDS", 5 * 60))
CELERY_BEAT_SCHEDULE = {
    "pending-work-requeue": {
        "task": "club.tasks.pending_work_requeue",
        "schedule": float(PENDING_REQUEUE_SECONDS),
    },
    # The calendar's reminders due today go to the outbox, once per night (games.calendar).
    "calendar-reminders": {
        "task": "games.tasks.calendar_reminders_queue",
        "schedule": 15 * 60.0,
    },
    # Sign-ups never confirmed and answered join requests, deleted when their time is up.
    "signup-purge": {"task": "club.tasks.signup_purge", "schedule": 24 * 60 * 60.0},
    # Closed clubs whose time is up are deleted with their data (club.services.closing).
    "closed-clubs-purge": {
        "task": "club.member_tasks.closed_clubs_purge_task",
        "schedule": 24 * 60 * 60.0,
    },
    # Photo files no row names any more (a purged club's albums), deleted (clubsite).
    "photo-files-sweep": {"task": "clubsite.tasks.photo_files_sweep", "schedule": 24 * 60 * 60.0},
    # A visitor's message to a club, deleted once kept long enough (clubsite.contact).
    "contact-messages-purge": {
        "task": "clubsite.tasks.contact_messages_purge",
        "schedule": 24 * 60 * 60.0,
    },
}
# How long a closed club's data is kept before it is deleted (the privacy page says so).
CLUB_CLOSED_KEEP_DAYS = int(os.environ.get("CLUB_CLOSED_KEEP_DAYS", 90))
# The largest night file (or list of them) the API's import reads: a 40-player night is about
# 100 kB, a season of them a few MB.
API_IMPORT_MAX_BYTES = int(os.environ.get("API_IMPORT_MAX_BYTES", 10 * 1024 * 1024))
# /healthz turns red when the oldest pending work waits longer than this.
HEALTH_PENDING_MAX_AGE = int(os.environ.get("HEALTH_PENDING_MAX_AGE", 15 * 60))

# How many reverse proxies of our own stand in front of the site, each appending the address it
# saw to X-Forwarded-For (deploy/nginx.conf: 1; deploy/compose.yaml's TLS proxy and balancer:
# 2). The client is the Nth address from the right (infra/client_address.py), counted by every
# throttle; 0 (no proxy): the connection's own address, a client's X-Forwarded-For ignored.
# Too high a count lets a client pick its address; too low counts every visitor as the proxy.
# API_NUM_PROXIES is its former name, still read when the new one is not set.
_proxies = os.environ.get("DJANGO_TRUSTED_PROXY_COUNT") or os.environ.get("API_NUM_PROXIES") or "0"
if not _proxies.strip().isdigit():
    raise ImproperlyConfigured(
        f"DJANGO_TRUSTED_PROXY_COUNT is a number of proxies (0 or more), not {_proxies!r}."
    )
TRUSTED_PROXY_COUNT = int(_proxies)

# The JSON API (api/, docs/api.md): the site's session for its own pages, a
# member's personal token for everything else. Each view says who may read or write, through
# club/permissions.py; the default refuses anybody not signed in.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.PersonalTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # One strict reader for every JSON body: size, nesting and text checked (api/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pages",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.PerToken", "api.throttles.Anonymous"],
    # Requests per minute; a club web site polling its ranking needs a few an hour.
    "DEFAULT_THROTTLE_RATES": {
        "token": os.environ.get("API_THROTTLE_TOKEN") or "600/min",
        "anon": os.environ.get("API_THROTTLE_ANON") or "120/min",
        # Refused keys (401) per address: guessing keys is slow, a typo is not punished.
        "failed_token": os.environ.get("API_THROTTLE_FAILED") or "10/min",
    },
    # The public is throttled per client address, the site's one (infra/client_address.py,
    # api/throttles.py); DRF's own reading of X-Forwarded-For is given the same count.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Club de whist API",
    "DESCRIPTION": (
        "Club nights, results and yearly rankings of the site's clubs, in the vocabulary of "
        "the club-night file (docs/night-format.md). Public where the site is public; a "
        "member's personal token (Authorization: Token cw_…) carries his roles."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.describe_path_parameters",
        "api.schema.document_token_refusals",
        "api.schema.nullable_enums_inlined",
    ],
    "ENUM_NAME_OVERRIDES": {
        "GameEnum": "club.models.GAME_CHOICES",
        "NightStatusEnum": "games.models.Tournament.Status",
        "PlannedNightStatusEnum": "games.calendar.models.PlannedNight.Status",
        "PublicNameEnum": "club.models.Player.PublicName",
        "LanguageEnum": "config.settings.LANGUAGES",
    },
}

# HTTPS. Each switch is the deployment's to turn on: a laptop serves plain HTTP, and HSTS
# cannot be taken back from browsers once they have seen it, so it starts at 0 seconds.
SECURE_SSL_REDIRECT = env_flag("DJANGO_SECURE_SSL_REDIRECT")
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS") or 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_flag("DJANGO_SECURE_HSTS_PRELOAD")
if env_flag("DJANGO_SECURE_PROXY_SSL_HEADER"):
    # Only behind a proxy that sets this header itself: a client could send it too.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Cookies travel over HTTPS only in production (unless DJANGO_SECURE_COOKIES=0), and always
# when the site redirects to HTTPS.
SESSION_COOKIE_SECURE = SECURE_SSL_REDIRECT or env_flag("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# The member's language (club/language.py, Django's set_language) travels as the session does;
# no script reads it. The CSRF cookie stays readable: the score sheet's script reads the token
# as it is when it sends (static/js/sheet.js), since a login in another tab changes it.
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
# A refused form in the site's layout and language, said in words (front/views/errors.py).
CSRF_FAILURE_VIEW = "front.views.errors.csrf_failure"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
# A load balancer asks /healthz over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Content-Security-Policy (django-csp): the site's own files only. No inline script, event
# handler or style attribute anywhere in the pages: behaviour comes from static/js/ (wired by
# data attributes) and looks from static/css/. Images may also be data: URLs (a small icon
# inlined in a stylesheet): an image cannot run script.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

# One line per event (a traceback is folded into its line), and an ordinary refusal (403, 404,
# 400) is logged as one line without the traceback Django attaches to it.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"no_client_error_traceback": {"()": "infra.logs.ClientErrorWithoutTraceback"}},
    "formatters": {
        "one_line": {
            "()": "infra.logs.OneLineFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
        }
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "one_line",
            "filters": ["no_client_error_traceback"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        # Django's own handler would print the traceback of every 403 a second time.
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.server": {"level": "INFO"},
    },
}
