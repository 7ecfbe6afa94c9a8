"""``goblin-companion scan`` in bounded time and memory: it refuses what is not a regular file
(``/dev/zero``, a FIFO, a folder), caps the bytes it reads, and reads a photo's size from its header
before decoding it (a 7000x7000 photo took 335 MB): a JPEG over the cap (a phone's 48 MP photo) is
decoded at a half, a quarter or an eighth of its size, any other format over it is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from hardware.imagefile import (
    MAX_PIXELS,
    ImageFileError,
    header_size,
    read_file_bytes,
    read_image_file,
    read_photo_file,
)

ROOT = Path(__file__).resolve().parents[1]


#: The command in a child process that says its own peak memory (VmHWM: this process only, unlike
#: ru_maxrss, which a child inherits from the parent it was forked from).
CHILD = ("import sys\nfrom companion.cli import main\nstatus = main(['scan', '--json', *sys.argv[1:]])\n"
         "peak = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:')).split()[1]\n"
         "print('peak_kb', peak, file=sys.stderr)\nsys.exit(status)\n")


def scan(*files: str) -> tuple[int, list[dict[str, object]], float]:
    """Run the real command in a child process: exit status, its JSON lines, its peak memory in MB."""
    child = subprocess.run([sys.executable, "-c", CHILD, *files], cwd=ROOT, capture_output=True, text=True,
                           timeout=60)  # a read that never ends fails the test, not the suite
    peak = next(line for line in child.stderr.splitlines() if line.startswith("peak_kb "))
    lines = [json.loads(line) for line in child.stdout.splitlines()]
    return child.returncode, lines, int(peak.split()[1]) / 1024


def big_jpeg(path: Path, side: int) -> None:
    """A real JPEG (or PNG, by ``path``'s suffix) of side x side pixels, written by a child process so
    this one stays small."""
    code = (f"import cv2, numpy as np; a = np.zeros(({side}, {side}), np.uint8); a[::50] = 255; "
            f"cv2.imwrite({str(path)!r}, a)")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_devices_fifos_and_folders_are_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jpg"
    os.mkfifo(fifo)  # opening it would block until a writer comes
    status, lines, _ = scan("/dev/zero", str(fifo), str(tmp_path))
    assert status == 2
    assert [line["error"] for line in lines] == [
        "'/dev/zero' is a device, not a photo file", f"{str(fifo)!r} is a FIFO, not a photo file",
        f"{str(tmp_path)!r} is a folder, not a photo file"]


def test_a_7000_by_7000_png_is_refused_from_its_header_in_little_memory(tmp_path: Path) -> None:
    photo = tmp_path / "huge.png"
    big_jpeg(photo, 7000)
    status, lines, peak = scan(str(photo))
    assert status == 2 and "7000x7000 pixels" in str(lines[0]["error"]), lines
    assert "at most 16777216" in str(lines[0]["error"])
    assert peak < 120, f"{peak:.0f} MB"  # measured 52 MB (335 MB before the cap)


def test_a_7000_by_7000_jpeg_is_read_at_half_its_size_in_bounded_memory(tmp_path: Path) -> None:
    photo = tmp_path / "huge.jpg"
    big_jpeg(photo, 7000)
    status, lines, peak = scan(str(photo))
    assert status == 0, lines
    assert (lines[0]["width"], lines[0]["height"], lines[0]["read_at"]) == (7000, 7000, [3500, 3500])
    assert peak < 250, f"{peak:.0f} MB"  # measured 129 MB (the 4096x4096 photo below: 152)


def test_a_jpeg_even_an_eighth_of_which_is_over_the_cap_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "x.jpg"
    big_jpeg(data, 100)
    with pytest.raises(ImageFileError, match=r"100x100 pixels; at most 150, e.g. 4096x4096; a JPEG up to 96"):
        read_photo_file(data, max_pixels=150)   # an eighth is 13x13 = 169
    image, size = read_photo_file(data, max_pixels=169)
    assert image.shape[:2] == (13, 13) and size == (100, 100)


def test_a_photo_at_the_cap_is_still_read(tmp_path: Path) -> None:
    photo = tmp_path / "big.jpg"
    big_jpeg(photo, 4096)
    status, lines, peak = scan(str(photo))
    assert status == 0 and (lines[0]["width"], lines[0]["height"]) == (4096, 4096), lines
    assert peak < 250, f"{peak:.0f} MB"  # measured 148 MB


def test_the_bytes_read_are_capped_whatever_the_size_says(tmp_path: Path) -> None:
    path = tmp_path / "a.png"
    path.write_bytes(b"x" * 1000)
    with pytest.raises(ImageFileError, match="too large"):
        read_file_bytes(path, max_bytes=999)
    assert len(read_file_bytes(path, max_bytes=1000)) == 1000


@pytest.mark.parametrize("ext", [".jpg", ".png", ".bmp", ".webp", ".tiff", ".ppm"])
def test_the_header_tells_the_size_of_every_format_replays_read(tmp_path: Path, ext: str) -> None:
    image = np.zeros((30, 70, 3), np.uint8)
    image[:, :10] = 200
    ok, encoded = cv2.imencode(ext, image)
    assert ok
    assert header_size(encoded.tobytes()) == (70, 30)
    path = tmp_path / f"p{ext}"
    path.write_bytes(encoded.tobytes())
    assert read_image_file(path).shape == (30, 70, 3)
    with pytest.raises(ImageFileError, match=r"70x30 pixels; at most 2000"):
        read_image_file(path, max_pixels=2000)


def test_a_file_whose_size_cannot_be_told_is_refused_with_the_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "odd.jpg"
    odd.write_bytes(b"GIF89a" + b"\x00" * 100)
    assert main(["scan", "--json", str(odd)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert "no JPEG, PNG, BMP, WebP, TIFF or PNM header telling its size" in error
    assert MAX_PIXELS == 4096 * 4096
