#!/usr/bin/env bash
# Install Goblin Companion as a service on Raspberry Pi OS (Bookworm or later), from this source tree.
#
#   sudo systemd/install.sh
#
# Safe to run again (after a `git pull`, say): every step skips or repeats harmlessly what is already
# done, and an existing /etc/goblin-companion/config.toml is never overwritten.
set -euo pipefail

APP=goblin-companion
SERVICE_USER=goblin
# Tests install under a scratch directory with stand-ins for apt-get, systemctl and friends.
ROOT=${GOBLIN_INSTALL_ROOT:-}
SYSTEM_PYTHON=${GOBLIN_SYSTEM_PYTHON:-/usr/bin/python3}
PREFIX=$ROOT/opt/$APP
VENV=$PREFIX/venv
CONFIG_DIR=$ROOT/etc/$APP
UNIT_DIR=$ROOT/etc/systemd/system
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { printf '%s: %s\n' "$APP" "$*"; }
die() { printf '%s: %s\n' "$APP" "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root: sudo $0"
[ -f "$SRC/pyproject.toml" ] || die "cannot find the source tree (no $SRC/pyproject.toml)"
command -v apt-get >/dev/null || die "this installer is for Raspberry Pi OS / Debian (apt-get not found)"

# 1. System packages. picamera2 and libcamera only come from Raspberry Pi OS's apt, built against the
#    system's numpy; lgpio is gpiozero's pin library for the Pi 5 and older Pis alike.
say "installing system packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends python3-picamera2 python3-lgpio python3-venv

# 2. A virtualenv that can also see the system's site-packages (picamera2, libcamera, lgpio).
if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    mkdir -p "$PREFIX"
    "$SYSTEM_PYTHON" -m venv --system-site-packages "$VENV"
fi

# 3. The project, with numpy pinned to the system's own version. picamera2 and its compiled helpers
#    (simplejpeg, libcamera's bindings) come from apt, built against that numpy; a newer numpy from pip
#    would shadow it in the venv and they would fail to import ("compiled using NumPy 1.x cannot be run
#    in NumPy 2"). With the pin, pip keeps the system numpy. OpenCV is pinned to a wheel built for that
#    numpy: 4.11.0.86 is the last release that supports numpy 1.x (Bookworm has 1.24); numpy 2 systems get
#    the release the project is developed with.
NUMPY_VERSION=$("$SYSTEM_PYTHON" -c 'import numpy; print(numpy.__version__)')
case "$NUMPY_VERSION" in
    1.*) OPENCV_VERSION=4.11.0.86 ;;
    *) OPENCV_VERSION=5.0.0.93 ;;
esac
say "installing $APP with numpy==$NUMPY_VERSION (system) and opencv-python-headless==$OPENCV_VERSION"
PIP=("$VENV/bin/python" -m pip install --quiet --disable-pip-version-check)
"${PIP[@]}" --upgrade "$SRC" "numpy==$NUMPY_VERSION" "opencv-python-headless==$OPENCV_VERSION"
# pip skips a local project whose version is already installed: reinstall it, so a re-run after
# `git pull` installs the new code even when the version number did not change.
"${PIP[@]}" --no-deps --force-reinstall "$SRC"
"$VENV/bin/python" -c 'import numpy, cv2, picamera2, gpiozero' \
    || die "the venv cannot import numpy, cv2, picamera2 and gpiozero together; see the error above"

# 4. The service's user: no login, no home of its own, in the camera and GPIO groups.
getent group gpio >/dev/null || groupadd --system gpio
getent group video >/dev/null || groupadd --system video
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    say "creating user $SERVICE_USER"
    useradd --system --user-group --no-create-home --home-dir "/var/lib/$APP" \
        --shell /usr/sbin/nologin --comment "Goblin Companion" "$SERVICE_USER"
fi
usermod --append --groups video,gpio "$SERVICE_USER"   # --append: harmless when already a member

# 5. The configuration file (defaults work without one; it holds the table PIN, so not world-readable).
install -d -m 0755 "$CONFIG_DIR"
if [ ! -e "$CONFIG_DIR/config.toml" ]; then
    install -m 0640 -o root -g "$SERVICE_USER" /dev/null "$CONFIG_DIR/config.toml"
    cat >"$CONFIG_DIR/config.toml" <<'TOML'
# Goblin Companion settings. Every setting has a default: this file may stay empty.
# After a change: sudo systemctl restart goblin-companion
TOML
fi

# 6. MemoryDenyWriteExecute=yes in the unit: check that this machine's numpy, OpenCV and picamera2 import
#    without writable-and-executable memory. If not, turn it off with a drop-in (and say so).
DROPIN_DIR=$UNIT_DIR/$APP.service.d
if "$VENV/bin/python" "$SRC/systemd/check_mdwe.py"; then
    rm -f "$DROPIN_DIR/50-allow-wx.conf"
else
    say "this machine needs writable-executable memory: turning MemoryDenyWriteExecute off"
    install -d "$DROPIN_DIR"
    printf '[Service]\nMemoryDenyWriteExecute=no\n' >"$DROPIN_DIR/50-allow-wx.conf"
fi

# 7. The unit; then start it now and at every boot.
install -d -m 0755 "$UNIT_DIR"
install -m 0644 "$SRC/systemd/$APP.service" "$UNIT_DIR/$APP.service"
systemctl daemon-reload
if systemctl is-active --quiet "$APP.service"; then
    systemctl enable "$APP.service"
    systemctl restart "$APP.service"   # pick up the new code and unit
else
    systemctl enable --now "$APP.service"
fi
say "running; follow it with: journalctl -fu $APP"
