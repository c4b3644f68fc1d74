# Tischblock: `make run` serves the app on the local network, `make test` runs every test layer.

SHELL := /bin/bash
.DEFAULT_GOAL := run

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
FLASK := $(BIN)/flask --app app
RUNTIME_STAMP := $(VENV)/.installed-runtime
DEV_STAMP := $(VENV)/.installed-dev
NPM_STAMP := node_modules/.installed
HTMX := node_modules/htmx.org/dist
WORKBOX_MODULES := core routing strategies precaching expiration
VENDOR := static/vendor/htmx.min.js static/vendor/hx-sse.js $(foreach m,$(WORKBOX_MODULES),static/vendor/workbox/workbox-$(m).prod.js)
ICONS := $(foreach size,192 512,static/generated/icons/tischblock-$(size).png) static/generated/icons/tischblock-maskable-512.png
# Installs Debian packages (as root, or through sudo). Another apt run holding its locks (an unattended upgrade,
# a second checkout's set-up) is waited for: apt-get itself waits for dpkg's lock but not for the package lists'.
apt_install = if [ "$$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi; \
	for wait in 0 10 20 30 60; do \
		sleep $$wait; \
		$$sudo apt-get -o DPkg::Lock::Timeout=600 update && $$sudo apt-get -o DPkg::Lock::Timeout=600 install -y $(1) && exit 0; \
	done; exit 1

CATALOGS := $(patsubst %.po,%.mo,$(wildcard translations/*/LC_MESSAGES/messages.po))

.PHONY: run build test messages chromium postgresql caddy redis-server curl rsvg-convert icu faq-eval bench

run: build
	$(FLASK) db upgrade
	$(BIN)/python -m serving

# Everything a server needs to run the app, without starting it: a host's install and its upgrades (docs/deploy.md).
build: $(RUNTIME_STAMP) $(VENDOR) $(ICONS) $(CATALOGS) rsvg-convert

# The tests run on every core (pytest-xdist); each run ends with its ten slowest tests.
# --dist by measurement, the whole suite on 2 cores shared with other work (pytest's own wall time, December 2026):
# loadfile 1220 s (load average 15-20), worksteal 966 s (load average 9-13). The load differed, so the gap is mostly
# noise; worksteal won and no test needs its file on one worker. loadscope groups as loadfile does here (no test classes).
test: $(DEV_STAMP) $(VENDOR) $(ICONS) $(CATALOGS) chromium postgresql caddy redis-server curl rsvg-convert
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest -n auto --dist worksteal --durations=10

$(RUNTIME_STAMP): requirements.txt | icu
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(DEV_STAMP): $(RUNTIME_STAMP) requirements-dev.txt
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

static/vendor/htmx.min.js: $(NPM_STAMP)
	mkdir -p static/vendor
	cp $(HTMX)/htmx.min.js $@

static/vendor/hx-sse.js: $(NPM_STAMP)
	mkdir -p static/vendor
	cp $(HTMX)/ext/hx-sse.js $@

# Workbox for the service worker: its prebuilt modules, loaded by static/sw.js with importScripts.
static/vendor/workbox/workbox-%.prod.js: $(NPM_STAMP)
	mkdir -p static/vendor/workbox
	cp node_modules/workbox-$*/build/workbox-$*.prod.js $@

# The app icons as PNG, drawn from the SVGs (the home screen and the splash screen want PNG).
static/generated/icons/tischblock-%.png: static/icons/tischblock.svg | rsvg-convert
	mkdir -p $(@D)
	rsvg-convert --width $* --height $* --output $@ $<

static/generated/icons/tischblock-maskable-%.png: static/icons/tischblock-maskable.svg | rsvg-convert
	mkdir -p $(@D)
	rsvg-convert --width $* --height $* --output $@ $<

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po $(RUNTIME_STAMP)
	$(BIN)/pybabel compile -d translations -l $*

# Refresh the catalogs after changing texts in templates or code.
messages: $(RUNTIME_STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k _l -k N_ --sort-by-file --no-wrap --project Tischblock -o translations/messages.pot .
	$(BIN)/pybabel update -i translations/messages.pot -d translations --no-wrap

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		$(call apt_install,chromium); \
	fi

# PyICU (Unicode's confusables skeleton for player names, UTS #39) is built against the system's ICU.
icu:
	@if ! pkg-config --exists icu-i18n 2>/dev/null || ! command -v g++ >/dev/null; then \
		$(call apt_install,libicu-dev pkg-config g++); \
	fi

# librsvg draws the app icons at set-up and a game's result card (views/result.py) while serving;
# the card's text needs a font it knows.
rsvg-convert:
	@if ! command -v rsvg-convert >/dev/null || [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then \
		$(call apt_install,librsvg2-bin fonts-dejavu-core); \
	fi

# The system tests (tests/system) run the app against a throwaway PostgreSQL 15 cluster.
postgresql:
	@if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then \
		$(call apt_install,postgresql); \
	fi

# The production stack's system test (tests/system/test_https_stack.py) runs its own Caddy and Redis.
caddy:
	@if ! command -v caddy >/dev/null; then \
		$(call apt_install,caddy); \
	fi

redis-server:
	@if ! command -v redis-server >/dev/null; then \
		$(call apt_install,redis-server); \
	fi

# The stack's system test uploads over HTTP/2 and checks health as docs/deploy.md tells a host to: with curl.
curl:
	@if ! command -v curl >/dev/null; then \
		$(call apt_install,curl); \
	fi

# Open sheets as a host serves them (1,000 to 10,000 on SQLite, PostgreSQL and two servers on one PostgreSQL),
# two Chromium phones, tap cost as the database and a game grow, the CPU one tap costs (store, render, answer), the FAQ search latency, and `score` on
# 10 MB records, and the statistics page of a 1,000-game table: every figure against a floor of the same run, every goal
# said met or missed and gathered into the table of current figures in docs/performance.md. About 25 minutes.
bench: $(DEV_STAMP) $(VENDOR) $(ICONS) $(CATALOGS) chromium postgresql
	@started=$$(date +%s); figures=$$(mktemp); export TISCHBLOCK_BENCH_GOALS=$$figures; \
	$(BIN)/python bench/load.py && \
	$(BIN)/python bench/live.py && \
	$(BIN)/python bench/growth.py && \
	$(BIN)/python bench/tap.py && \
	$(BIN)/python bench/faq.py --latency && \
	$(BIN)/python bench/records.py && \
	$(BIN)/python bench/table_statistics.py && \
	$(BIN)/python bench/goals.py $$figures docs/performance.md && \
	echo "make bench took $$(( ($$(date +%s) - started) / 60 )) min $$(( ($$(date +%s) - started) % 60 )) s"; \
	status=$$?; rm -f $$figures; exit $$status

# The FAQ's quality, measured, not tested (docs/faq.md): top 1 and top 3 per game and language on the tuning questions
# (each asked of an index taught without it) and on every held-out set (tests/faq/heldout-*.toml), "no answer" on the
# off-topic set, the phone's search against the server's on all of them; then each paraphrase asked of an index built
# without it (five folds). `make test` keeps only a fast sample (tests/faq/test_engine.py).
faq-eval: $(DEV_STAMP)
	$(BIN)/python bench/faq.py --eval && $(BIN)/python bench/faq.py --folds 5
