"""A scratch root with stand-ins for the system commands install.sh calls, which log what they were asked."""

from __future__ import annotations

import os
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"

# Each stand-in appends "name args..." to $FAKE_LOG; state lives in $FAKE_STATE.
STUBS = {
    "apt-get": 'echo "apt-get $*" >>"$FAKE_LOG"',
    "systemctl": """echo "systemctl $*" >>"$FAKE_LOG"
case "$1" in
    is-active) [ -e "$FAKE_STATE/active" ] ;;
    enable) case " $* " in *" --now "*) touch "$FAKE_STATE/active" ;; esac ;;
esac""",
    "id": """case "$1" in
    -u) echo 0 ;;
    -nG) cat "$FAKE_STATE/groups-$2" 2>/dev/null ;;
    *) [ -e "$FAKE_STATE/user-$1" ] ;;
esac""",
    "getent": '[ "$1" = group ] && [ -e "$FAKE_STATE/group-$2" ]',
    "groupadd": 'echo "groupadd $*" >>"$FAKE_LOG"; touch "$FAKE_STATE/group-${*: -1}"',
    "useradd": 'echo "useradd $*" >>"$FAKE_LOG"; touch "$FAKE_STATE/user-${*: -1}"',
    "usermod": 'echo "usermod $*" >>"$FAKE_LOG"',
    # The real install(1), without -o/-g: the scratch root has no user "goblin".
    "install": """args=()
while [ $# -gt 0 ]; do
    case "$1" in -o|-g) shift 2 ;; *) args+=("$1"); shift ;; esac
done
exec /usr/bin/install "${args[@]}\"""",
    # The system Python: reports numpy's version, makes a venv whose python logs and succeeds.
    "system-python": """echo "system-python $*" >>"$FAKE_LOG"
if [ "$1" = -c ]; then echo "$FAKE_NUMPY"; exit 0; fi
if [ "$1 $2" = "-m venv" ]; then
    for a in "$@"; do last=$a; done
    mkdir -p "$last/bin"
    printf '#!/usr/bin/env bash\\necho "venv-python $*" >>"$FAKE_LOG"\\n'\\
'case "$1" in *check_mdwe.py) exit "${FAKE_MDWE_STATUS:-0}" ;; esac\\n' >"$last/bin/python"
    chmod +x "$last/bin/python"
fi""",
}


@dataclass
class Sandbox:
    root: Path
    state: Path
    log: Path
    env: dict[str, str]

    def run(self, **env: str) -> subprocess.CompletedProcess[str]:
        self.log.write_text("")
        return subprocess.run(
            ["bash", str(INSTALL)], env={**self.env, **env}, capture_output=True, text=True, timeout=60
        )

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines()


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    bin_dir, state, root = tmp_path / "bin", tmp_path / "state", tmp_path / "root"
    for folder in (bin_dir, state, root):
        folder.mkdir()
    for name, body in STUBS.items():
        stub = bin_dir / name
        stub.write_text("#!/usr/bin/env bash\n" + body + "\n")
        stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
    (state / "group-video").touch()
    env = {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "FAKE_LOG": str(tmp_path / "calls.log"),
        "FAKE_STATE": str(state),
        "FAKE_NUMPY": "1.24.2",
        "GOBLIN_INSTALL_ROOT": str(root),
        "GOBLIN_SYSTEM_PYTHON": str(bin_dir / "system-python"),
    }
    return Sandbox(root, state, tmp_path / "calls.log", env)
