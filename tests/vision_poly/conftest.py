from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = next((p for p in (ROOT.parent / "shared" / "dice-photos" / "burksbuilds__dicetower-dev",
                           Path("/work/shared/dice-photos/burksbuilds__dicetower-dev")) if p.exists()), None)


@pytest.fixture(scope="session")
def burksbuilds() -> Path:
    assert PHOTOS is not None, "shared/dice-photos/burksbuilds__dicetower-dev is missing"
    return PHOTOS
