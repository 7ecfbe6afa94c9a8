import pytest

from vision.data import photos_dir


@pytest.fixture(scope="session")
def photos():
    root = photos_dir()
    assert root is not None, "the shared dice-photos folder is part of the test data (see vision/data.py)"
    return root
