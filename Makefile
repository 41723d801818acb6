# The two commands of the README: `make run` plays, `make test` tests.
# Both build the local virtual environment first; nothing is installed by hand.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench clean system-tools micropython pi-check

# Everything: the screen, the Pi's libraries (those that install off a Pi) and the tests.
# A change to pyproject.toml (a dependency added) makes the stamp stale and reinstalls.
# setuptools announces every editable install with a notice it raises as a warning (its
# class is InformationOnly); PYTHONWARNINGS hides that notice and nothing else.
$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	PYTHONWARNINGS='ignore:Editable installation' $(PY) -m pip install --quiet -e '.[screen,pi,test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/tabletop simulate

# The tests check the systemd unit with systemd-analyze; Debian ships it in `systemd`.
system-tools:
	@command -v systemd-analyze >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing systemd (for systemd-analyze)"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq systemd >/dev/null; }

# The firmware's checks under real MicroPython (its WebAssembly port) need node and npm;
# without them those tests are skipped and say so.
MICROPYTHON := $(VENV)/micropython/node_modules/@micropython/micropython-webassembly-pyscript
micropython: $(STAMP)
	@if [ -e $(MICROPYTHON)/micropython.mjs ]; then :; \
	elif command -v npm >/dev/null && command -v node >/dev/null; then \
	  echo "installing MicroPython's WebAssembly port (for the firmware's checks)"; \
	  npm install --silent --no-audit --no-fund --prefix $(VENV)/micropython \
	    @micropython/micropython-webassembly-pyscript@1.27.0 >/dev/null \
	  || echo "npm could not install it: the firmware's checks under MicroPython will be skipped"; \
	else echo "no node and npm: the firmware's checks under MicroPython will be skipped"; fi

test: $(STAMP) system-tools micropython
	$(PY) -m pytest

# install.sh on an emulated Pi: an arm64 Debian bookworm root (debootstrap, run by qemu),
# cached in /var/cache/tabletop-pi-check (not in the checkout: a root has device files),
# then the checks that need no Pi (scripts/pi_check.py). Needs root and minutes, so it is
# not part of `make test`. PI_CHECK=--fresh installs into a clean copy of the root
# instead of over the last run's install.
pi-check:
	$$( [ "$$(id -u)" = 0 ] || echo sudo ) python3 scripts/pi_check.py $(PI_CHECK)

bench: $(STAMP)
	for b in bench/*.py; do $(PY) -m bench.$$(basename $$b .py) || exit 1; done

clean:
	rm -rf $(VENV)
