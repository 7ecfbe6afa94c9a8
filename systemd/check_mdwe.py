"""Check that the companion's libraries work without writable-and-executable memory.

The unit sets ``MemoryDenyWriteExecute=yes``. This script turns the same rule on for itself (Linux's
``PR_SET_MDWE``, kernel 6.3 or later), then imports and exercises numpy, OpenCV, SQLite, Flask, waitress,
gpiozero and, where installed, picamera2. Exit status 0: fine (or the kernel cannot check); 1: something
needed W+X memory, so the service must run with ``MemoryDenyWriteExecute=no``. install.sh runs it with the
service's Python.
"""

from __future__ import annotations

import ctypes
import importlib
import mmap
import sys

PR_SET_MDWE = 65
PR_MDWE_REFUSE_EXEC_GAIN = 1


def main() -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
        print(f"check_mdwe: this kernel cannot refuse W+X memory (errno {ctypes.get_errno()}); not checked")
        return 0
    try:
        mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    except OSError:
        pass
    else:
        print("check_mdwe: W+X memory is still allowed; not checked")
        return 0
    try:
        import sqlite3

        import cv2
        import numpy as np

        for name in ("flask", "waitress", "gpiozero", "segno"):
            importlib.import_module(name)
        image = np.random.default_rng(0).integers(0, 256, (240, 320, 3), dtype=np.uint8)
        grey = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2GRAY)
        cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT, 1, 20)
        cv2.imdecode(cv2.imencode(".jpg", image)[1], cv2.IMREAD_COLOR)
        np.linalg.svd(np.eye(40) + 0.5)
        connection = sqlite3.connect(":memory:")
        connection.execute("create table t (x)")
        try:
            picamera2 = importlib.import_module("picamera2")
        except ImportError:
            print("check_mdwe: picamera2 not installed, not checked")
        else:
            picamera2.Picamera2.global_camera_info()
    except Exception as error:
        print(f"check_mdwe: fails without W+X memory: {type(error).__name__}: {error}")
        return 1
    print("check_mdwe: numpy, OpenCV, SQLite, Flask, waitress and gpiozero work without W+X memory")
    return 0


if __name__ == "__main__":
    sys.exit(main())
