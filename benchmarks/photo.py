"""A phone's photo through the table: what a photo costs the server, at the sizes a phone may send.

    python3 benchmarks/photo.py [--photo PATH] [--repeat 5]

For a real photo (default: burksbuilds' D20_A_5 from ``shared/dice-photos``) scaled to the page's 2048 px,
to a 12 MP phone photo sent as it is (4032x3024-like) and to the 4096x4096 cap, prints one JSON line each:
the JPEG's bytes, the header check (ms), the decode (ms, median), the reading by the table's vision
(``vision.read_table``, ms, median) and what a Dadoteck table proposes from it; then the whole
``PhotoDesk.submit`` (decode + worker reading + proposal) on a running VisionWorker with no camera. One
OpenCV thread, as on a loaded Pi core.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.config import Config  # noqa: E402
from companion.photos import PhotoDesk  # noqa: E402
from companion.serve import VisionWorker  # noqa: E402
from companion.session import TableSession  # noqa: E402
from companion.store import Store  # noqa: E402
from hardware.frames import FrameHolder  # noqa: E402
from hardware.imagefile import decode_image_bytes, header_size  # noqa: E402

DEFAULT = next((p / "burksbuilds__dicetower-dev" / "images" / "D20_A_5.jpg"
                for p in (ROOT.parent / "shared" / "dice-photos", Path("/work/shared/dice-photos"))
                if p.exists()), None)


def ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photo", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.photo is None or not args.photo.exists():
        print("benchmarks/photo.py: no photo (give --photo)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    import vision

    source = decode_image_bytes(args.photo.read_bytes())
    zones = vision.Zones.from_json(Config().zones)
    vision.read_table(source, zones=zones)  # load the models once
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "bench.sqlite3") as store:
        session = TableSession(store)
        worker = VisionWorker(session, FrameHolder(), config=Config()).start()
        desk = PhotoDesk(session, worker, per_minute=10_000)
        try:
            for name, long_side in (("page-2048", 2048), ("phone-12mp", 4032), ("cap-4096", 4096)):
                h, w = source.shape[:2]
                scale = long_side / max(h, w)
                frame = cv2.resize(source, (round(w * scale), round(h * scale)),
                                   interpolation=cv2.INTER_CUBIC)
                quality = 85 if long_side == 2048 else 92  # the page's JPEG; a phone camera's own
                encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
                data = np.asarray(encoded).tobytes()
                start = time.perf_counter()
                size = header_size(data)
                header = ms(start)
                decodes, reads, submits = [], [], []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    image = decode_image_bytes(data)
                    decodes.append(ms(start))
                    start = time.perf_counter()
                    reading = vision.read_table(image, zones=zones)
                    reads.append(ms(start))
                    session.new_game("dadoteck", {"players": ["Anna", "Bruno"]}, archive=True)
                    start = time.perf_counter()
                    answer = desk.submit(data, step=0)
                    submits.append(ms(start))
                proposal = answer["proposal"]["action"] if answer["proposal"] else None
                print(json.dumps({"size": name, "pixels": list(size or ()), "bytes": len(data),
                                  "header_ms": header, "decode_ms": statistics.median(decodes),
                                  "read_ms": statistics.median(reads),
                                  "submit_ms": statistics.median(submits),
                                  "dice": [(d.sides, d.value) for d in reading.dice], "proposal": proposal}),
                      flush=True)
        finally:
            worker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
