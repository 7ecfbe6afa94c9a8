"""Plain emblems (``tools/v3_data.render(plain_emblems=True)``, ``train_faces.py --plain-emblems``): the
emblems of the face reader's training renders never carry a letter drawn like a digit, so a numeral d6's
lone "5" is not learnt as an emblem. Training only."""

import sys

import numpy as np

from tests.vision3.training_tools import v3_data


def _letters(monkeypatch, plain):
    drawn = []
    real = v3_data.cv2.putText

    def record(img, text, *args, **kwargs):
        if sys._getframe(1).f_code.co_name == "_draw_object" and text.isalpha():   # not a token's print
            drawn.append(text)
        return real(img, text, *args, **kwargs)

    monkeypatch.setattr(v3_data.cv2, "putText", record)
    samples = [v3_data.render(seed, plain_emblems=plain) for seed in range(120)]
    monkeypatch.undo()
    return drawn, samples


def test_plain_emblems_draw_no_letter_that_looks_like_a_digit(monkeypatch):
    plain, plain_samples = _letters(monkeypatch, True)
    usual, usual_samples = _letters(monkeypatch, False)
    assert len(plain) == len(usual) > 20
    assert set(plain) <= set(v3_data.UNLIKE_DIGITS)
    assert set(usual) - set(v3_data.UNLIKE_DIGITS), "the usual renders draw digit-like letters too"
    # the same draws: the trays and their labels are the usual ones
    assert [s.objects for s in plain_samples] == [s.objects for s in usual_samples]
    changed = [not np.array_equal(a.image, b.image)
               for a, b in zip(plain_samples, usual_samples, strict=True)]
    assert any(changed)
