"""Reading a photo file in bounded time and memory: for the replay camera and ``goblin-companion scan``.

A path may name anything: a device that never ends (``/dev/zero``), a FIFO that blocks, a folder, a
huge file, or a small file whose header announces 7000x7000 pixels (147 MB once decoded, more while
OpenCV works). :func:`read_image_file` refuses what is not a regular file, reads at most ``max_bytes``
bytes, and reads the width and height from the header *before* decoding, refusing more than
``max_pixels`` pixels and any format whose size it cannot tell.

Images are BGR uint8 arrays of shape (H, W, 3).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Final, Literal

import cv2
import numpy as np

from hardware.errors import HardwareError

Image = np.ndarray[Any, np.dtype[np.uint8]]

#: Files larger than this are refused unread (a 12 MP JPEG is 3-8 MB; a 12 MP PNG can reach ~40 MB).
MAX_FILE_BYTES: Final = 64 * 1024 * 1024
#: Decoded pixels at most: 16.8 MP (4096x4096) is 48 MB as BGR. The Pi cameras give 12 MP; a phone, 12 MP
#: by default, but 48-200 MP in its "high resolution" mode (an 8000x6000 JPEG): see ``shrink``.
MAX_PIXELS: Final = 4096 * 4096
#: How a JPEG of more than ``max_pixels`` pixels is decoded when asked to shrink it: libjpeg decodes at a
#: half, a quarter or an eighth of the size in its transform, so the full picture never exists in memory
#: (OpenCV's ``IMREAD_REDUCED_COLOR_*``). Other formats have no such decoding and are refused instead.
REDUCED: Final = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


class ImageFileError(HardwareError, ValueError):
    """A photo file that cannot be read: not a regular file, too large, not an image, unreadable."""


class ImageTooLarge(ImageFileError):
    """A photo with more bytes or pixels than allowed (a web upload answers it 413, not 400)."""


Order = Literal["little", "big"]


def _u16(data: bytes, at: int, order: Order) -> int:
    return int.from_bytes(data[at:at + 2], order)


def _u32(data: bytes, at: int, order: Order) -> int:
    return int.from_bytes(data[at:at + 4], order)


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01, 0xFF) or 0xD0 <= marker <= 0xD7:
            i += 1 if marker == 0xFF else 2
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a start of frame
            return _u16(data, i + 7, "big"), _u16(data, i + 5, "big")
        i += 2 + _u16(data, i + 2, "big")
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order: Order = "little" if data[:2] == b"II" else "big"
    ifd = _u32(data, 4, order)
    if ifd + 2 > len(data):
        return None
    width = height = None
    for n in range(_u16(data, ifd, order)):
        entry = ifd + 2 + 12 * n
        if entry + 12 > len(data):
            break
        tag, kind = _u16(data, entry, order), _u16(data, entry + 2, order)
        value = _u16(data, entry + 8, order) if kind == 3 else _u32(data, entry + 8, order)
        if tag == 256:
            width = value
        elif tag == 257:
            height = value
    return None if width is None or height is None else (width, height)


def _pnm_size(data: bytes) -> tuple[int, int] | None:
    fields: list[int] = []
    for line in data[2:4096].split(b"\n"):
        for word in line.split(b"#", 1)[0].split():
            if not word.isdigit():
                return None
            fields.append(int(word))
            if len(fields) == 2:
                return fields[0], fields[1]
    return None


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the header of a JPEG, PNG, BMP, WebP, TIFF or PNM/PGM/PPM file, without
    decoding any pixel; None when the format is none of these or the header is cut short."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return _u32(data, 16, "big"), _u32(data, 20, "big")
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    if data[:2] == b"BM" and len(data) >= 26:
        return abs(int.from_bytes(data[18:22], "little", signed=True)), abs(
            int.from_bytes(data[22:26], "little", signed=True))
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8 ":
            return _u16(data, 26, "little") & 0x3FFF, _u16(data, 28, "little") & 0x3FFF
        if chunk == b"VP8L":
            bits = _u32(data, 21, "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8X":
            return (int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1)
        return None
    if data[:4] in (b"II*\x00", b"MM\x00*") and len(data) >= 8:
        return _tiff_size(data)
    if len(data) >= 3 and data[:1] == b"P" and data[1:2] in b"123456" and data[2:3].isspace():
        return _pnm_size(data)
    return None


def read_file_bytes(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; :class:`ImageFileError` for anything else
    (a device such as ``/dev/zero``, a FIFO, a folder, a larger file), read no further than the cap."""
    name = str(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            mode = info.st_mode
            kind = ("a folder" if stat.S_ISDIR(mode) else
                    "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
                    "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else
                    "not a regular file")
            raise ImageFileError(f"{name!r} is {kind}, not a photo file")
        if info.st_size > max_bytes:
            raise ImageFileError(f"{name!r} is too large ({info.st_size} bytes; at most {max_bytes})")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):  # swapped since the stat
                raise ImageFileError(f"{name!r} is not a regular file")
            data = file.read(max_bytes + 1)
    except OSError as error:
        raise ImageFileError(f"cannot read {name!r}: {error.strerror or error}") from None
    if len(data) > max_bytes:
        raise ImageFileError(f"{name!r} is too large (more than {max_bytes} bytes)")
    return data


def decode_image_bytes(data: bytes, *, name: str = "the image", max_bytes: int = MAX_FILE_BYTES,
                       max_pixels: int = MAX_PIXELS) -> Image:
    """Decode an encoded photo (JPEG, PNG, BMP, WebP, TIFF, PNM) to BGR uint8 (H, W, 3), in bounded time
    and memory: the size is read from the header *before* any pixel is decoded.

    ``name`` is how messages call it (a path, "the photo"). Used for files (:func:`read_image_file`) and
    for photos a phone uploads (``companion.photos``).

    Raises
    ------
    ImageTooLarge
        More than ``max_bytes`` bytes, or a header announcing more than ``max_pixels`` pixels.
    ImageFileError
        Empty, a format whose size the header does not tell, or not decodable (corrupt, cut short).
    """
    return decode_photo_bytes(data, name=name, max_bytes=max_bytes, max_pixels=max_pixels, shrink=False)[0]


def decode_photo_bytes(data: bytes, *, name: str = "the image", max_bytes: int = MAX_FILE_BYTES,
                       max_pixels: int = MAX_PIXELS, shrink: bool = True) -> tuple[Image, tuple[int, int]]:
    """As :func:`decode_image_bytes`, and with ``shrink`` a JPEG of more than ``max_pixels`` pixels (a
    phone's 48 MP photo) is decoded at the largest of a half, a quarter or an eighth of its size that holds
    at most ``max_pixels`` (``REDUCED``) instead of refused. Returns the image and the photo's own (width,
    height), turned as the image is (EXIF orientation), so that what is found in the image can be said in
    the photo's pixels."""
    if len(data) > max_bytes:
        raise ImageTooLarge(f"{name} is too large ({len(data)} bytes; at most {max_bytes})")
    if not data:
        raise ImageFileError(f"{name} is empty")
    size = header_size(data)
    if size is None:
        raise ImageFileError(f"{name} is not an image OpenCV can decode safely: no JPEG, PNG, BMP, WebP, "
                             "TIFF or PNM header telling its size (corrupt, cut short or another format)")
    width, height = size
    if width == 0 or height == 0:
        raise ImageFileError(f"{name} says it is {width}x{height} pixels: corrupt")
    flags, factor = cv2.IMREAD_COLOR, 1
    if width * height > max_pixels:
        least = next((f for f in REDUCED if -(-width // f) * -(-height // f) <= max_pixels), None)
        if not shrink or data[:2] != b"\xff\xd8" or least is None:
            most = f"at most {max_pixels}, e.g. 4096x4096" + (
                f"; a JPEG up to {64 * max_pixels}" if shrink else "")
            raise ImageTooLarge(f"{name} is too large ({width}x{height} pixels; {most}): scale it down first")
        flags, factor = REDUCED[least], least
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
    if image is None or image.size == 0:
        raise ImageFileError(f"{name} is not an image OpenCV can decode (corrupt or another format)")
    if image.shape[0] * image.shape[1] > max_pixels:  # a header that lied
        raise ImageTooLarge(f"{name} is too large ({image.shape[1]}x{image.shape[0]} pixels)")
    shown = image.shape[:2]
    if shown == (-(-width // factor), -(-height // factor)) != (-(-height // factor), -(-width // factor)):
        width, height = height, width   # turned a quarter by its EXIF orientation, as a phone held upright
    elif shown != (-(-height // factor), -(-width // factor)):   # not the header's size either way
        width, height = shown[1] * factor, shown[0] * factor
    return np.asarray(image, dtype=np.uint8), (width, height)


def read_image_file(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES,
                    max_pixels: int = MAX_PIXELS) -> Image:
    """Decode the photo at ``path`` to BGR uint8 (H, W, 3), in bounded time and memory.

    Raises
    ------
    ImageFileError
        Saying why: not a regular file, more than ``max_bytes`` bytes, empty, a format whose size the
        header does not tell, more than ``max_pixels`` pixels (:class:`ImageTooLarge`), or not decodable.
    """
    return read_photo_file(path, max_bytes=max_bytes, max_pixels=max_pixels, shrink=False)[0]


def read_photo_file(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES, max_pixels: int = MAX_PIXELS,
                    shrink: bool = True) -> tuple[Image, tuple[int, int]]:
    """As :func:`read_image_file`, but a JPEG of more than ``max_pixels`` pixels is decoded smaller instead
    of refused (:func:`decode_photo_bytes`); returns the image and the photo's own (width, height)."""
    data = read_file_bytes(path, max_bytes=max_bytes)
    return decode_photo_bytes(data, name=repr(str(path)), max_bytes=max_bytes, max_pixels=max_pixels,
                              shrink=shrink)
