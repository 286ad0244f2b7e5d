# Two commands matter: `make run` (the bot, or the console game when no token is set) and `make test`.
# `make soak` runs the long tests `make test` deselects (the 2,000-hand playouts: pytest -m soak).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python

.PHONY: install run play test soak lint bench clean postgres fonts chromium miniapp

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed fonts

run: install
	$(PY) -m bot

play: install
	$(PY) -m bot.console

lint: install
	$(PY) -m ruff check engine storage bot bench tests
	$(PY) -m mypy engine storage bot

# pytest-xdist: one worker per core (the 2-core target machine: two)
XDIST  := -n auto --dist worksteal
# Compiled modules cached in __pycache__ even where the environment sets PYTHONDONTWRITEBYTECODE: without the
# cache every xdist worker compiles (and pytest assertion-rewrites) every module anew, and each start of the
# bot in a test process compiles bot/, engine/ and storage/ again (4 s of CPU a worker, 0.2 s a bot start).
TESTENV := PYTHONDONTWRITEBYTECODE=

# The storage suite also runs on PostgreSQL: tests/pgcluster.py starts a throwaway server from the machine's
# binaries, which come from Debian's `postgresql` package, installed here once when missing.
postgres:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  echo "installing PostgreSQL (Debian's postgresql package) for the tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql; }

# The pictures draw players' names in any script (Chinese, Latin, Cyrillic) with a CJK font found through
# fontconfig (bot/pictures/fonts.py): Debian's fonts-wqy-microhei (1.6 MB; fonts-noto-cjk is 56 MB), installed
# here once when no font covering Chinese is found. Without one the pictures draw ASCII names only: where it
# cannot be installed (no apt-get, no sudo), `make run` goes on with a warning.
fonts:
	@fc-list ':lang=zh' file 2>/dev/null | grep -q . || { \
	  echo "installing a CJK font (Debian's fonts-wqy-microhei) for the names on the pictures"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  { $$SUDO apt-get update -qq && \
	    $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      fontconfig fonts-wqy-microhei; } || \
	  echo "warning: no CJK font installed (install one covering Chinese): pictures draw names in ASCII only"; }

# The Mini App's tests drive a real headless Chromium: Debian's chromium and chromium-driver, installed here once
# when missing (Playwright is told where it is and never downloads a browser).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Chromium (Debian's chromium and chromium-driver) for the Mini App's tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver; }

# The Mini App's page: bot/miniapp/web/app.ts type-checked and built to app.js (committed) with the pinned
# TypeScript of its package-lock.json; run after changing app.ts (tests/test_miniapp_page.py checks it was).
miniapp:
	cd bot/miniapp/web && npm ci --no-audit --no-fund --silent && npx tsc -p tsconfig.json && \
	  sha256sum app.ts | cut -c1-64 > app.ts.sha256

test: lint postgres chromium
	$(TESTENV) $(PY) -m pytest -q $(XDIST)

soak: install postgres chromium
	$(TESTENV) $(PY) -m pytest -q $(XDIST) -m soak

bench: install
	$(PY) bench/engine_bench.py
	$(PY) bench/wild_bench.py
	$(PY) bench/storage_bench.py
	$(PY) bench/bot_bench.py --quick
	$(PY) bench/ai_bench.py --quick
	$(PY) bench/picture_bench.py
	$(PY) bench/cluster_bench.py --quick

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
