"""Vision III's reading of one view: the learned finder places the objects, the learned face reader says
what each is; Vision II reads numeral dice and the pip counter of Vision I gives a second opinion that can
only lower a d6's confidence, never raise it.

Images are BGR uint8 arrays of shape (H, W, 3); they are never modified. The work per frame is bounded by
the frame's size and by counts, never by what the frame shows: at most ``finder.MAX_OBJECTS`` objects,
``MAX_POLY`` numeral dice read by Vision II and ``MAX_SECOND_OPINIONS`` pip counts (``MAX_TIMED_OPINIONS``
by the clock); objects beyond those counts are returned with at most ``OVER_BUDGET`` confidence (the
players are asked). Counts bound the work on one machine; a caller that gives ``read_view`` the share of
the frame's time ``used`` (the live table and ``scan``: ``FRAME_SECONDS`` by the clock,
``vision.read_table(clock=)``) also has what the frame's time left undone returned that way, on a slower
or busier machine than the counts were set on. The pip counter reads only the d6s the face reader is sure
of (``SURE``), least sure first: below ``SURE`` the players are asked anyway, so a count there could change
no answer.

"Sure" is the face reader's card's: every confidence is reported through its cross-fitted bar
(``_reported``, ``KEPT_BELOW``), so that a die reported at 0.8 or more is as right as the card promises.

Vision IV: numeral dice get their type from the learned type reader (``vision.types``) and their value
from Vision II among that type's faces. (A second look by the type reader at doubtful pip d6s, to catch a
d10 whose numeral the face reader took for pips, was tried and left out: on the Lurig wood videos it
turned 1 photo in 100 right, on matteop65 it turned 1.3 dice in 100 wrong; the type reader never saw a
pip die.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.faces import (
    CLASSES,
    PIPS,
    STEP,
    FaceReading,
    crop,
    moved_up,
    read_faces,
    reader_id,
    sure_from,
    taught_cosine,
)
from vision.finder import FIRST_KEPT, Found, find_objects, model_card
from vision.pips import Face, find_pips, group_faces
from vision.types import SIDES, no_die, read_types

if TYPE_CHECKING:
    from vision.teach import Calibration

#: an object the face reader gives at least this probability of "none" is not reported
NONE_DROP = 0.5
#: two dice found closer than this share of the smaller one's side are one die (``_one_per_place``), where
#: one lies more below the other than beside it: a camera in front of the table sees a die's front face
#: under its top...
SAME_PLACE = 0.7
#: ...and closer than this where they lie more beside each other: two dice against each other, each boxed a
#: little towards the other (aws left out: 7 dice more found, one phantom more; seventieth session)
SAME_PLACE_ACROSS = 0.6
#: an object at most this share of another's side, its centre in the other's box, is one object with it; a
#: box holding two or more such objects, believed (``HELD_BELIEF``) and apart, is around a group of dice
#: (``_one_per_place``; ``vision.finder.HELD_SIDE`` does the same for what the finder holds strongly)
HELD_SIDE = 0.6
HELD_BELIEF = 0.5
#: an emblem or numeral object whose box reaches this share of its side out of the frame is not reported
CUT = 0.15
#: an object none of whose die classes reaches this probability is not reported (nothing identifiable)...
WEAKEST = 0.35
#: ...unless the finder found it at least this strongly (``vision.finder.FIRST_KEPT``: more likely than not a
#: die) and the frame's edge does not cut it (``CUT``): then it is a pip d6 of the value the face reader
#: leans to, at that value's probability (under ``WEAKEST``: always asked). A die the finder is sure of and
#: the face reader cannot read (oblique, a lone pip on a coloured body, a die filling a small crop) is put
#: to the players, not dropped: left out, chase 89.3 -> 95.3% found, nell 96.9 -> 98.2, aws 89.3 -> 90.3,
#: for 0.05 phantoms a photo more on matteop65 (a cable tag at the frame's edge), none sure
FOUND_ASKED = FIRST_KEPT
#: a frame in which nothing is reported is read once more as one die filling it (``_filling_die``: a crop of
#: one die, or a phone's photo of one die, where the finder found only its pips). Left out (seventy-second
#: session): chase 96.06 / 86.74 -> 99.28 / 89.96% found / right, none sure; aws, nell, matteop65 and the
#: Lurig and burks types the same to the die (docs/vision.md)
FILLING = True
#: ...the frame brought down to this long side (px) first, by area, where it is longer
FILLING_SIDE = 256
#: ...and where every die reported is a pip d6 under this confidence, which the whole read then replaces (the
#: pips of one die read as small dice; ``None``: only where nothing is reported). Left out: chase 89.96 ->
#: 90.32% right, phantoms 0.014 -> 0.004 a photo; enlarged 4 times 86.02 -> 87.81; every other fold, the
#: types and the empty windows (benchmarks/empty_windows.py) the same (seventy-second session, docs/vision.md)
FILLING_UNDER: float | None = WEAKEST
#: a candidate whose one-turn reading gives "none" at least this probability is not read at four turns
SCREEN = 0.9
#: on a table that taught no token, a reading is a token only from this probability (``_token_read``; the
#: drawn tokens of the teach tests read 0.91-0.96). 0.85 rather than ``SURE`` (seventy-second session):
#: chosen on the four folds' first halves by dice found (0.85 and 0.9 alike: aws +1); on the second halves
#: aws +1 found and right, nothing else moved (docs/vision.md)
TOKEN_SURE = 0.85
#: a d6 value the pip counter reads otherwise is capped here (the players are asked)
DISAGREE = 0.6
#: a d6 value the pip counter cannot read at all is never sure: capped here (set after the leave-one-out
#: aws table showed sure phantoms on carpet, which have no pip layout; see docs/vision.md)
UNCONFIRMED = 0.75
#: a die the finder found under ``vision.finder.FIRST_KEPT`` (less likely than not an object) is never sure:
#: capped here, whatever the face reader and the pip counter say (twenty-seventh session: on a cloth of red
#: dots, each two by two of dots found at 0.29-0.38 was read a "4" at up to 0.96 and the counter counted its
#: four dots, 10 sure phantoms a frame; nothing there is a die's body, which only the finder judges).
#: Left out it asks aws 81, nell 36 and chase 12 readings that were sure, one of them wrong (docs/vision.md)
WEAKLY_FOUND = UNCONFIRMED
#: an emblem nobody taught is reported as a d6 with no value, at this confidence
EMBLEM_ASKED = 0.3
#: ... unless the pip counter reads a pip face at its centre and that value is the face reader's likeliest
#: d6 value: then it is that value, asked at this at most. The face reader trained without chase called its
#: casino dice's "1" (one pip ringed by the casino's name) an emblem; with the count, left out: chase 77.78
#: -> 79.93% right, nell 88.97 -> 89.3, aws 83.63 -> 83.68, matteop65 unchanged, no reading made sure
#: (docs/vision.md). Shaped on chase's errors. Both must agree because an emblem asked is right when it is
#: one (a maker's logo in place of the 6 must not be filled in as the "1" its round middle counts as)
EMBLEM_COUNTED = 0.5
#: emblems counted, and sure numeral d6s checked for a pip face, at most per frame (the pip counter costs
#: up to ~5 ms a crop). A die Vision II reads as a numeral d6, sure, is capped at ``DISAGREE`` (asked) where
#: the pip counter reads a pip face at its centre: the face reader called a casino "1" ringed by the
#: casino's name a numeral and Vision II read a sure "6" there (chase left out, twenty-fourth session); a
#: pip layout under a numeral reading is evidence against it, so the players are asked
MAX_EMBLEMS_COUNTED = 8
#: an object the face reader calls an emblem, with "numeral" at least this likely, is shown to the type
#: reader; held a die other than a d6 at ``EMBLEM_TYPED`` or more it is read as a polyhedral die, at most
#: ``EMBLEM_TYPED_MOST`` sure (``_emblems_typed``). The face reader learnt d6 faces: a barrel d4 or a d10
#: seen from above was its emblem (forty-seventh session, renders 818181 and 717171: 3 of 24 misses)
EMBLEM_NUMERAL = 0.25
EMBLEM_TYPED = 0.9
EMBLEM_TYPED_MOST = 0.75
#: an emblem nobody taught is asked only when its side is within this factor of the median side of the
#: frame's sure d6s (dice of one set are one size; the aws carpet's flecks read as emblems were 0.43 of the
#: dice, see ``_emblems_die_sized``)
EMBLEM_SIZE = 1.5
#: a numeral die under this share of the median side of the frame's sure d6s is not reported: polyhedral
#: dice are the size of a d6 or larger (d4 to d20 of a set: 0.8-1.4 of its d6); left out, 232 of the aws
#: carpet's 295 numeral phantoms were under it, 9 of 59 real dice read as numerals
NUMERAL_LEAST = 0.5
#: a pip die not sure under this share of the median side of the frame's sure pip dice (sure after the
#: pip counter's second opinion) is not reported (``_flecks_dropped``): the dice of one table differ less
#: than threefold in size (12 and 20 mm dice, near and far in an oblique photo), and the sure die may itself
#: be a box around two dice side by side (nell, left out: a 132 px "2" over dice of 32-54 px, so a third
#: dropped four real dice there). The weave of a cloth around one big die was read as tiny "4"s and "6"s
PIP_LEAST = 1 / 5
#: objects read by Vision II at most per frame (about 12 ms each on one core)
MAX_POLY = 30
#: pip second opinions at most per frame (each 5-10 ms of one core on a crowded crop). 24 kept the worst
#: frame tried (``vision_eval.py --time-only``, nested) at 0.85 s median, 0.99 s p95 once emblems were counted
#: too (seventeenth session): too near the 1 s bound. 16: 0.68 / 0.74 s; left out, only "sure right" moved
#: (aws 99.06 -> 99.04%, nell 99.31 -> 99.30: a few more sure values in crowded frames left unchecked and
#: asked); see docs/vision.md
MAX_SECOND_OPINIONS = 16
#: ... and at most this many when the frame is read by the clock (``read_view(used=)``: the live table and
#: ``scan``), whose time bounds them too. Since a sure pip face's reading costs one network pass, not eight
#: (``vision.faces.PIP_ONE_TURN``), a crowded frame has the time: the 84-dice aws frame read by the clock
#: reports 26 sure dice in 556 ms (by counts alone 12 in 477 ms), and the nested worst frame by the clock
#: stays at 0.79 s median, 0.85 s p95; without a clock 32 took that frame to 0.93 s median, too near the
#: 1 s bound for counts alone. Left out (read with 32 checks, fifty-fifth session): aws 9 and nell 25 more
#: dice sure, no more sure mistakes (96 checks added one on aws); docs/vision.md
MAX_TIMED_OPINIONS = 32
#: confidence cap of what the budget left unchecked
OVER_BUDGET = 0.5
#: a frame's reading by the clock, when the caller gives one (``vision.read_table(clock=)``): past this many
#: seconds the work that can be left undone is (pip second opinions, the type reader, Vision II's reads;
#: the face readers stop earlier, ``FACES_SHARE``), and what it would have read is returned with at most
#: ``OVER_BUDGET`` confidence. The counts above kept the nested worst frame at 0.87 s median on the
#: forty-eighth session's machine at one moment and 1.0-1.1 s at another (the finder's forward pass 10 ->
#: 14 ms): on a busy or slower machine counts alone break the issue's 1 s. After this, a frame still does
#: the piece of work in progress (a pip count or a Vision II read: 5-12 ms here) and the rules (under 30 ms
#: for 150 objects)
FRAME_SECONDS = 0.85
#: ... of which the face reader's turned looks and other readers may take this share: the rest is kept for
#: the pip counter's second opinions and Vision II, which make dice sure. Without it a slow machine spent a
#: crowded frame's whole time reading faces and reported no die sure (the 84-dice aws frame by a clock
#: running twice as fast: 0 sure of 80, 13 here). Chosen before measuring, as the share of a crowded
#: frame's time the pip checks and Vision II take here (0.3-0.4)
FACES_SHARE = 0.6
#: the finder's forward pass on a 512x384 look (``slowness``), one OpenCV thread, on the machine
#: ``FRAME_SECONDS`` and the counts were last measured on: median of 9, 10.2-11.5 ms in five runs
#: (2026-12-04, forty-ninth session)
REFERENCE_FORWARD_MS = 10.3
#: a board up to this many times slower reads a frame in ``FRAME_SECONDS`` (``frame_seconds``): that machine's
#: own speed moved 1.4 times within an hour, and that is not a slower board
SLOWER_FROM = 1.5
#: a slower board gets ``FRAME_SECONDS`` times its slowness, at most this many times (3.4 s): on a Pi several
#: times slower a frame of ten polyhedral dice (0.15-0.18 s here) would otherwise come back as questions
SLOWER_MOST = 4.0
#: candidates read at every quarter turn at most per frame (``read_faces``'s ``most``; the least likely
#: "none" first); the others keep their one-turn screen reading, capped at ``OVER_BUDGET`` (asked). Each is
#: four to eight crops through a network (0.75 ms each here): 150 candidates (``finder.MAX_OBJECTS``) took
#: the nested worst frame to 0.93-1.0 s median on the twenty-first session's slower machine; 96 is above
#: every labelled photo's dice (aws: 84 at most) and takes that frame to about 0.8 s (docs/vision.md)
MAX_TURNED = 96
#: faces whose centre lies within this share of the die's side from its centre are the die's own (0.5: inside
#: its box). A die seen obliquely from the front shows its top above the side facing the camera, and the face
#: reader reads the larger, often the side (left out, aws's phone photos: a "1" on top read as the 5 in front
#: at 1.00). So a value whose pip face has a face of another value above it inside the box is not confirmed
#: (asked). Chosen after looking at aws's mistakes, against "any second face" (the same lies caught on aws,
#: 97 sure readings asked there and 103 on matteop65, against 38 and 9): docs/vision.md. Seen from straight
#: above, a die in the lower half of the frame shows its inner side above its top: asked, never a lie
TWO_FACES = 0.5
#: ... and the face the counter reads must not lie lower in the box than this share of the die's side below
#: its centre. A die seen from the front shows its top in the box's upper part and its front face in the lower
#: part (a cube seen from 30-60 degrees above the table: the top's centre 0.32-0.18 of the box's height above
#: the box's centre, the front face's 0.18-0.32 below); when the counter does not separate the foreshortened
#: top's pips (no face above to trip ``TWO_FACES``) it counted the front face, and confirmed the reader's
#: same mistake. 0.1 (thirty-third session) leaves room for the finder's box being off centre: no sure right
#: die of matteop65 (overhead) was further below, 3 of chase's 67 were; left out, it asks 3 of aws's 4 wrong
#: and sure pip dice (docs/vision.md says what was looked at)
TOP_BELOW = 0.1
#: the pip counter reads a square crop this many times the die's side, scaled to ``PIP_WORK`` px
PIP_CROP = 1.3
PIP_WORK = 192
#: Vision II reads a square crop this many times the found box's long side. The finder boxes a real die
#: at about 0.85 of its outline (Lurig), and Vision II's network, trained on renders, reads the top numeral
#: best when the crop is near the die's outline: 0.9 read 40 of 52 hand-labelled Lurig values where 1.1
#: read 29, burks 97.7% where 1.1 read 94.2%, renders 95.5% where 1.1 read 93.8% (docs/vision-poly.md)
POLY_CROP = 0.9
#: a taught face or token wins when the embedding's cosine to a taught one is at least the face reader's
#: ``taught_cosine`` (its card), or this for a card without one; a taught face overrules the reader's own
#: d6 value only where the reader is not sure (under ``SURE``)
TAUGHT_COSINE = 0.8
SURE = 0.8
#: the shipped models: the finder, the face reader and the type reader (``vision/models/<name>.onnx``)
MODELS = ("finder", "faces", "types")

#: a die found under this share of the median side of the frame's dice is never sure (``_specks_asked``): on
#: nell-byler left out, 9 sure phantoms (punched holes and specks read as a sure "1", 10 px among 40 px
#: dice) were all under 0.4 of it, and no sure die read right was under 0.45 there or on matteop65 (nor
#: under 0.6 on aws, looked at after the choice)
SPECK = 0.4
SPECK_CAP = 0.5
#: nor is a die under this many pixels across (the smallest die the finder is asked to find, issue 15): at
#: 16 px a die's pips are 2-3 px, and a lone dark or light dot of the tray (a terrazzo hole, a punched hole)
#: is read and counted as a "1" as surely as a die (aws left out: 5 sure phantoms of 10-14 px; nell 3).
#: Chosen from the issue's number, measured after (docs/vision.md)
SMALLEST_SURE = 16
#: in a frame where some die is found (``vision.finder.FIRST_KEPT``) and reported (this) more likely than not,
#: an object that neither the finder nor the face reader holds more likely than not is not reported
#: (``_unbelieved_dropped``): left out, aws 1.78 -> 0.47 phantoms a photo for 1.3 points of found dice,
#: matteop65 0.27 -> 0.19, nell 0.6 points of found dice (docs/vision.md)
BELIEVED = 0.5

#: a die read at the face reader's card's ``sure_from`` (``vision.faces.sure_from``; the face reader says
#: what every object is) is reported at ``SURE``; between this and ``sure_from`` and between ``sure_from``
#: and 1 the confidence is mapped linearly, under this it is kept (``_reported``), after every rule of
#: ``read_view``, but for taught faces (their confidence is a cosine, ``Calibration.nearest``).
#: Each left-out reader's card holds a bar fitted on the other sets' left-out readings (twenty-sixth session,
#: ``benchmarks/sure_study.py``, which scores every die reported): readings at 0.80-0.90 were right 88-97% of
#: the time on every d6 set, so "sure" from 0.8 was not 99.5% right
KEPT_BELOW = 0.5

#: in a frame where the finder holds nothing at ``vision.finder.FIRST_KEPT`` or more (nothing more likely
#: than not a die) at most this many dice are reported, the likeliest, each asked (``WEAKLY_FOUND``): an
#: empty cloth of black dots at pip scale was read as 140 "4"s to ask about by the sixty-eighth session's
#: finder, which finds every two by two of its dots weakly (0.22-0.36); a frame the camera sees that badly
#: asks a few things and the players add the rest (*Correggi*)
NONE_STRONG_MOST = 6

#: the face reader's classes that are a pip d6's value
D6_VALUES = CLASSES[PIPS]

#: a pip d6 in the frame's upper ``TOP_READ_ROWS`` is read again at the square moved up this share of its
#: box's height, and its value is that reading's where it reads a pip value too (``read_tops``). A die
#: photographed from in front of the table is boxed with its front face under its top (the top's centre
#: 0.18-0.32 of the box's height above the box's centre: ``TOP_BELOW``), and the reader, whose quarter turns
#: are averaged, reads the larger face. In the frame's upper half a camera in front and one straight over
#: the table both see a die's top above its box's centre; in the lower half the second sees its side there,
#: so only the upper half is read again. What an object is stays the centre's reading: a polyhedral die's
#: moved square reads "none" (sixty-ninth session, docs/vision.md)
TOP_READ = 0.2
TOP_READ_ROWS = 0.5
#: the top reading reads only what the centre reading reports (``_dropped``): on the aws fold it had made
#: five phantoms of objects the centre dropped, four of them one spot of marble the frame's edge cuts
#: (seventieth session)
TOP_KEEPS_DROPPED = True

FoundDie = tuple[tuple[int, int, int, int], int | None, int | None, float, bool]
FoundToken = tuple[tuple[int, int, int, int], str | None, float]


def pip_square(frame: np.ndarray, f: Found) -> np.ndarray:
    """The square the pip counter reads around ``f``: ``PIP_CROP`` times its side, at ``PIP_WORK`` px."""
    return crop(frame, f, scale=PIP_CROP, size=PIP_WORK)


def pip_count(frame: np.ndarray, f: Found) -> int | None:
    """The pip counter's reading of the face at the centre of ``f``, or ``None`` when it sees none there, or
    when it sees, inside the die's box, a face of another value above that one: a die seen obliquely shows its
    top and the side facing the camera, and the top is the upper one (``TWO_FACES``); nor when the face lies
    lower in the box than a top does (``TOP_BELOW``)."""
    square = pip_square(frame, f)
    faces = [x for x in group_faces(find_pips(square), square) if x.value is not None]
    if not faces:
        return None
    c = PIP_WORK / 2

    def off(x: Face) -> float:
        return max(abs(x.centre[0] - c), abs(x.centre[1] - c))

    best = min(faces, key=lambda x: (x.centre[0] - c) ** 2 + (x.centre[1] - c) ** 2)
    if off(best) > PIP_WORK / PIP_CROP / 4 or best.centre[1] - c > PIP_WORK / PIP_CROP * TOP_BELOW:
        return None
    inside = PIP_WORK / PIP_CROP * TWO_FACES
    if any(x.value != best.value and off(x) <= inside and x.centre[1] < best.centre[1] for x in faces):
        return None     # another face of the die lies above the one read: it may be the top (TWO_FACES)
    return best.value


def adapted(readings: list[FaceReading], calibration: Calibration | None, model: str) -> list[FaceReading]:
    """``readings`` as the table's head reads them (``goblin-companion tune``, ``vision.tune``), when the
    calibration has one fitted on ``model``; unchanged otherwise (no head, or one fitted on another
    reader: its weights mean nothing to this reader's embedding)."""
    head = None if calibration is None else calibration.head
    if head is None or not readings or head.reader != reader_id(model):
        return readings
    p = head.adapt(np.stack([r.probabilities for r in readings]), np.stack([r.embedding for r in readings]))
    return [replace(r, probabilities=p[i]) for i, r in enumerate(readings)]


def _unsure_d4_turned(square: np.ndarray, p_type: np.ndarray) -> int:
    """The type reader's choice (an index of ``SIDES``), unless it is a d4 it is not sure of (under ``SURE``)
    whose outline is a cube's (``vision.poly.silhouette.Silhouette.cube_like``: no tetrahedron's outline
    fills its rectangle so): then its second choice, which the caller asks (``DISAGREE``). The Lurig wooden
    table's numeral d6s with a flagged "1" were typed d4 at 0.44-0.81 by the reader that never saw them; a
    real d4 whose shadowed mask looks square keeps its type when the reader is sure (docs/vision-poly.md)."""
    order = np.argsort(p_type)[::-1]
    first = int(order[0])
    if SIDES[first] != 4 or float(p_type[first]) >= SURE:
        return first
    from vision.poly.numeral import read_numeral_and_die
    from vision.poly.silhouette import silhouette

    return int(order[1]) if silhouette(read_numeral_and_die(square)[1]).cube_like else first


#: a numeral object's box is checked against the die's outline in a square this many times the box: the
#: finder sometimes boxes one face or the numeral of a large die (a barrel d4's face, a d6's "1": renders
#: at 0.4-0.6 of the die, docs/vision-poly.md), and the type and value are then read off a flat face
OUTLINE_LOOK = 3.2
#: ... and is replaced by the outline's box when that is at least this many times the finder's long side
OUTLINE_GROWS = 1.35
#: only when the finder's box grown this much lies on the die nearly all round (``OUTLINE_ON_DIE`` of its
#: edge), or on two opposite sides (``_cut_across``: a long die boxed at its middle): the box cut the die.
#: A box the finder drew round a whole die has tray under that edge (real Lurig photos: at most 0.61,
#: where a shadow or glare made the outline 1.4-2 times the box)
OUTLINE_EDGE = 1.15
OUTLINE_ON_DIE = 0.85
#: a die typed d4 is read at its outline whenever that is this many times the finder's box or more, but
#: not past ``D4_MOST`` times (a shadow or a neighbour run into), the edge test left out: a tetrahedron's
#: corners stick out of the box the finder draws round its middle, and a box's edge crosses a triangle
#: partly (``_outline_found(cut=False)``). The finder boxes tetrahedral d4s at 0.7-0.8 of their size and
#: the value, printed at the corners, was read off a crop that cut them (renders 818181: 3 of 10 misses)
D4_GROWS = 1.15
D4_MOST = 1.8
#: the outline is looked for at this many pixels a side
OUTLINE_WORK = 96


def _poly_square(frame: np.ndarray, f: Found) -> np.ndarray:
    """The square Vision II reads a numeral die from."""
    return crop(frame, f, scale=POLY_CROP, size=max(32, min(256, round(POLY_CROP * f.side))))


def _outline_found(frame: np.ndarray, f: Found, others: list[Found], *, cut: bool = True) -> Found:
    """``f``, or the box of the die's outline round it when ``f`` cut the die (``OUTLINE_ON_DIE``), the
    outline is much larger (``OUTLINE_GROWS``) and holds no other object's centre (``others``: a neighbour
    the outline ran into is no part of this die). ``cut=False`` (a d4): the edge test left out, and the
    outline ``D4_GROWS`` to ``D4_MOST`` times the box."""
    from vision.poly.numeral import die_mask

    k = OUTLINE_LOOK * f.side / OUTLINE_WORK            # frame pixels per mask pixel
    mask = die_mask(crop(frame, f, scale=OUTLINE_LOOK, size=OUTLINE_WORK))
    c = OUTLINE_WORK // 2
    if not mask[c, c] or mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any():
        return f   # no outline round the box's centre, or one that runs out of the square
    rw, rh = round(OUTLINE_EDGE * f.w / 2 / k), round(OUTLINE_EDGE * f.h / 2 / k)
    edge = cv2.rectangle(np.zeros_like(mask), (c - rw, c - rh), (c + rw, c + rh), 1, 1) > 0
    if cut and float(np.mean(mask[edge] > 0)) < OUTLINE_ON_DIE \
            and not _cut_across(mask, c, (rw, rh), (round(f.w / 2 / k), round(f.h / 2 / k))):
        return f
    ys, xs = np.nonzero(mask)
    w, h = (xs.max() - xs.min() + 1) * k, (ys.max() - ys.min() + 1) * k
    grows = OUTLINE_GROWS if cut else D4_GROWS
    if max(w, h) < grows * f.side or (not cut and max(w, h) > D4_MOST * f.side):
        return f
    cx = f.cx + ((xs.max() + xs.min() + 1) / 2 - c) * k
    cy = f.cy + ((ys.max() + ys.min() + 1) / 2 - c) * k
    if any(o is not f and abs(o.cx - cx) < w / 2 and abs(o.cy - cy) < h / 2 for o in others):
        return f
    return Found(cx, cy, w, h, f.score)


def _cut_across(mask: np.ndarray, c: int, grown: tuple[int, int], half: tuple[int, int]) -> bool:
    """Whether the box cut a long die across (a barrel d4 lying down, boxed at its middle): the box's left
    and right edges, moved out to the grown box's (half sides ``grown``, about ``c``), lie on the die along
    the box's own height (half sides ``half``), ``OUTLINE_ON_DIE`` of each; or its top and bottom edges
    along its width. The box's other two edges then lie on the tray, which the test all round refuses. A
    shadow or a neighbour the mask ran into lies on one side only."""
    (gw, gh), (hw, hh) = grown, half
    last = mask.shape[0] - 1

    def on(side: np.ndarray) -> bool:
        return bool(side.size) and float(np.mean(side > 0)) >= OUTLINE_ON_DIE

    ys, xs = slice(max(0, c - hh), min(last, c + hh) + 1), slice(max(0, c - hw), min(last, c + hw) + 1)
    return ((on(mask[ys, max(0, c - gw)]) and on(mask[ys, min(last, c + gw)]))
            or (on(mask[max(0, c - gh), xs]) and on(mask[min(last, c + gh), xs])))


def slowness(clock: Callable[[], float], *, model: str = "finder", looks: int = 9) -> float:
    """How many times slower than the reference machine (``REFERENCE_FORWARD_MS``) this one reads now: the
    median time by ``clock`` (seconds) of ``looks`` forward passes of the finder on a blank 512x384 look,
    after one that loads it, with OpenCV's threads as the caller has set them (the live table reads so)."""
    from vision.finder import _net, model_path

    net = _net(str(model_path(model)))
    blank = np.zeros((1, 3, 384, 512), np.float32)
    times = []
    for _ in range(1 + max(1, looks)):
        start = clock()
        net.setInput(blank)
        net.forward()
        times.append(clock() - start)
    return float(np.median(times[1:])) * 1000.0 / REFERENCE_FORWARD_MS


def frame_seconds(slow: float) -> float:
    """The time a frame gets on a board ``slow`` times slower than the reference (``slowness``):
    ``FRAME_SECONDS`` up to ``SLOWER_FROM``, then ``FRAME_SECONDS`` times ``slow``, at most ``SLOWER_MOST``
    times."""
    if not slow >= 0:   # nan too
        raise ValueError(f"a board's slowness is a number of times, not {slow!r}")
    return FRAME_SECONDS * (1.0 if slow < SLOWER_FROM else min(slow, SLOWER_MOST))


def load(models: tuple[str, ...] = MODELS) -> None:
    """Load every network ``read_view`` reads with (the finder's, the face readers', the type reader's and
    Vision II's), each once per thread as they keep: a frame's time (``FRAME_SECONDS``) is for reading it,
    and the first frame of a session, or ``scan``'s first photo, would otherwise spend it loading files
    (0.25 s here, more on a Pi). A missing file is the error it is on reading."""
    from vision.faces import members
    from vision.finder import CROP_ENGINE, _net, model_path

    _net(str(model_path(models[0])))
    for name in (*members(models[1]), *models[2:]):
        _net(str(model_path(name)), engine=CROP_ENGINE)
    try:
        from vision import poly
        from vision.poly import numeral
    except ImportError:
        return
    poly._net()
    numeral._model()


def read_view(frame: np.ndarray, calibration: Calibration | None = None, *,
              models: tuple[str, ...] = MODELS, percentile: bool = True,
              used: Callable[[], float] | None = None,
              filling: bool = True) -> tuple[list[FoundDie], list[FoundToken]]:
    """Dice as (box, sides, value, confidence, percentile) and tokens as (box, face, confidence), boxes
    (x, y, w, h) in ``frame`` pixels: ``raw_view``'s, each die's confidence reported through its bar
    (``_reported``): a polyhedral reading's the type reader's card's ``sure_from``, any other the face
    reader's (``bars``); a taught face's is kept (a cosine to what the players taught). ``filling``: see
    ``raw_view``."""
    raw = raw_view(frame, calibration, models=models, percentile=percentile, used=used, filling=filling)
    bar, poly_bar = bars(models)
    return [(b, s, v, c if b in raw.taught else _reported(c, poly_bar if b in raw.polyhedral else bar), pc)
            for b, s, v, c, pc in raw.dice], raw.tokens


def bars(models: tuple[str, ...]) -> tuple[float, float]:
    """The confidences reported as ``SURE``: the face reader's card's ``sure_from``, and the type reader's
    for polyhedral readings (their confidence is the type's times the value's, not the face reader's:
    fifty-ninth session), which is the face reader's where the type reader's card names none or there is no
    type reader (Vision II reads the type)."""
    bar = sure_from(models[1], SURE)
    if len(models) < 3 or "sure_from" not in model_card(models[2]):
        return bar, bar
    return bar, sure_from(models[2], SURE)


@dataclass(frozen=True)
class RawView:
    """What ``raw_view`` read: dice and tokens at the readers' own confidences after every rule, before the
    bars (``read_view``); the boxes of taught faces and of polyhedral readings (the type reader and
    ``vision.poly``) among the dice."""
    dice: list[FoundDie]
    tokens: list[FoundToken]
    taught: frozenset[tuple[int, int, int, int]]
    polyhedral: frozenset[tuple[int, int, int, int]]


def raw_view(frame: np.ndarray, calibration: Calibration | None = None, *,
             models: tuple[str, ...] = MODELS, percentile: bool = True,
             used: Callable[[], float] | None = None, filling: bool = True) -> RawView:
    """The dice and tokens of ``frame`` as ``read_view`` reports them, at the readers' own confidences.
    ``models``: the finder's, the face reader's and (optional) the type reader's names; without a type
    reader, ``vision.poly`` reads the type too (Vision II).
    ``percentile=False``: no percentile d10 on the table (``vision.read_table``).
    ``used``: the share of the frame's time spent so far (``FRAME_SECONDS``); asked before each piece of work
    that can be left undone (the face reader's turned reads past ``FACES_SHARE``, its screen and the rest past
    1), whose objects are then returned with at most ``OVER_BUDGET`` confidence; objects the screen never
    looked at (past its first ``vision.faces.STEP``), when found strongly, with no type and no value. While
    the time lasts the reading is that of a call without it.
    ``filling``: whether a frame with nothing reported may be one die filling it (``FILLING``); not a tray's
    part of a frame (``vision.read_table(tray=)``), whose dice are a tray's size smaller."""
    faces_late = None if used is None else (lambda: used() >= FACES_SHARE)

    def spent() -> bool:
        return used is not None and used() >= 1.0

    found = find_objects(frame, model=models[0])
    # the screen's one look gives every object its reading, and may take the whole time (on a slow board a
    # frame of 150 candidates): what it leaves unseen is reported with no value at all
    readings = read_faces(frame, found, model=models[1], screen=SCREEN, most=MAX_TURNED, stop=faces_late,
                          screen_stop=None if used is None else spent)
    if not spent():
        readings = read_tops(frame, found, readings, models[1], calibration, faces_late)
    readings = adapted(readings, calibration, models[1])
    taught_tokens = calibration is not None and calibration.has("token")
    labels = [_label(r, token=_token_read(r, taught_tokens)) if r.seen else "unseen" for r in readings]
    sure_sides = [f.side for f, r in zip(found, readings, strict=True) if _sure_d6(r)]
    least = NUMERAL_LEAST * float(np.median(sure_sides)) if sure_sides else 0.0
    numerals = [i for i, r in enumerate(readings)
                if r.p("none") < NONE_DROP and labels[i] == "numeral" and found[i].side >= least][:MAX_POLY]
    # emblems the type reader holds polyhedral dice are read as numeral dice, with the types it read (none
    # once the frame's time is spent: Vision II would not read them)
    typed = _emblems_typed(frame, found, readings, labels, least, 0 if spent() else MAX_POLY - len(numerals),
                           models)
    typed_emblems = set(typed)
    for i in typed_emblems:
        labels[i] = "numeral"
    numerals += sorted(typed_emblems)
    polyhedral = set(numerals)
    boxes = [_outline_found(frame, f, found) if i in polyhedral else f for i, f in enumerate(found)]
    # the type reader reads again only what it has not read at the box now used
    to_type = [] if spent() else [i for i in numerals if i not in typed or boxes[i] is not found[i]]
    found = boxes
    types: dict[int, np.ndarray | None] = {**typed, **dict(zip(
        to_type, read_types(frame, [found[i] for i in to_type], model=models[2])
        if len(models) > 2 else [None] * len(to_type), strict=True))}
    dice: list[FoundDie] = []
    tokens: list[FoundToken] = []
    from vision.table import _poly_reader  # one loader of Vision II (table imports this module)

    poly = _poly_reader(percentile)
    polys = counts = 0   # pip counts spent on emblems and numeral d6s (``MAX_EMBLEMS_COUNTED``)
    checked = _second_opinions(readings, MAX_SECOND_OPINIONS if used is None else MAX_TIMED_OPINIONS)
    near = taught_cosine(models[1], TAUGHT_COSINE)
    asked: set[int] = set()     # indexes in ``dice`` of emblems nobody taught
    # boxes of taught faces: their confidence is a cosine (one die a place, so a box names one die)
    taught_boxes: set[tuple[int, int, int, int]] = set()
    # boxes of polyhedral readings (type times value): reported through their own bar (``bars``)
    poly_boxes: set[tuple[int, int, int, int]] = set()
    # each box's finder score, and the face reader's probability of "emblem" where it names one
    beliefs: dict[tuple[int, int, int, int], tuple[float, float]] = {}
    for i, (f, r) in enumerate(zip(found, readings, strict=True)):
        if not r.seen:
            # the frame's time ran out before the face reader looked at it: an object found strongly is
            # reported unread (no type, no value), for the players to say what it is
            if f.score >= FOUND_ASKED and not _cut(f, frame.shape):
                box = f.box(frame.shape)
                beliefs[box] = max(beliefs.get(box, (0.0, 0.0)), (f.score, 0.0))
                dice.append((box, None, None, min(OVER_BUDGET, f.score) * 0.2, False))
            continue
        if r.p("none") >= NONE_DROP:
            continue
        box = f.box(frame.shape)
        label = labels[i]
        beliefs[box] = max(beliefs.get(box, (0.0, 0.0)), (f.score, r.p(label) if label == "emblem" else 0.0))
        if r.p(label) < WEAKEST and i not in typed_emblems:
            if f.score < FOUND_ASKED or _cut(f, frame.shape):
                continue
            # found strongly, read weakly: a die of the value the reader leans to, asked (``FOUND_ASKED``)
            best = max(D6_VALUES, key=r.p)
            dice.append((box, 6, int(best), r.p(best), False))
            continue
        if label in ("emblem", "numeral") and _cut(f, frame.shape):
            continue   # print or a die cut by the frame's edge: nothing a player could confirm
        taught = None if calibration is None else calibration.nearest(r.embedding, threshold=near)
        if taught is not None and taught[0] == "token":
            tokens.append((box, taught[1], taught[2]))
            continue
        if taught is not None and (label in ("emblem", "numeral", "token") or r.p(label) < SURE):
            taught_boxes.add(box)
            dice.append((box, 6, int(taught[1]), min(taught[2], 1.0 - r.p("none")), False))
            continue
        if label == "token":
            old = _patch_taught(calibration, frame, f, "token")
            tokens.append((box, *old) if old else (box, None, min(0.3, r.p("token"))))
            continue
        if label == "emblem":
            old = _patch_taught(calibration, frame, f, "face")
            if old is not None and old[0] is not None and old[0].isdigit():
                taught_boxes.add(box)
                dice.append((box, 6, int(old[0]), min(old[1], 1.0 - r.p("none")), False))
                continue
            counted = pip_count(frame, f) if counts < MAX_EMBLEMS_COUNTED and not spent() else None
            counts += 1
            if counted is not None and str(counted) == max(D6_VALUES, key=r.p):
                # a pip face under the print (a casino die's ringed "1"): asked
                dice.append((box, 6, counted, min(EMBLEM_COUNTED, r.p("emblem")), False))
            else:
                asked.add(len(dice))
                dice.append((box, 6, None, min(EMBLEM_ASKED, r.p("emblem")), False))
            continue
        if label == "numeral":
            if f.side < least:
                continue   # far smaller than the frame's sure d6s: no polyhedral die is
            p_type = types.get(i)
            if p_type is not None and float(no_die(p_type)) >= NONE_DROP:
                continue   # the type reader holds it no die (a printed label, a key): not reported, not read
            polys += 1
            if poly is None or polys > MAX_POLY or spent():
                dice.append((box, None, None, min(OVER_BUDGET, r.p("numeral")) * 0.2, False))
                continue
            square = _poly_square(frame, f)
            if p_type is None:
                got = poly(square)
                type_conf = float(got.sides_confidence)
            else:
                k = _unsure_d4_turned(square, p_type)
                if SIDES[k] == 4:
                    g = _outline_found(frame, f, found, cut=False)
                    if g is not f:
                        square = _poly_square(frame, g)
                got = poly(square, sides=SIDES[k])
                type_conf = float(p_type[k])
                if k != int(np.argmax(p_type)):
                    type_conf = min(type_conf, DISAGREE)
            # the type and the value must both be right: their product (``PolyReading.confidence``), not the
            # smaller, which let a die typed at 0.85 and valued at 0.9 be sure (Lurig values left out,
            # finder8: 4 wrong and sure of 57 sure with the smaller, 2 of 54 with the product)
            both = type_conf * float(got.value_confidence)
            pip = _pip_likelier(r, r.p("numeral") * both)
            if pip is not None:
                dice.append((box, 6, int(pip), r.p(pip), False))
                continue
            # an emblem the type reader holds a polyhedral die (``_emblems_typed``): the face reader's belief
            # that it is a marked face, not pips, and never sure
            conf = min(both, r.p("numeral") + r.p("emblem"), EMBLEM_TYPED_MOST) if i in typed_emblems \
                else min(both, r.p("numeral"))
            if got.sides == 6 and conf >= SURE and counts < MAX_EMBLEMS_COUNTED:
                counts += 1
                if spent():
                    conf = min(conf, OVER_BUDGET)
                elif pip_count(frame, f) is not None:
                    conf = min(conf, DISAGREE)   # pips under the numeral: asked (MAX_EMBLEMS_COUNTED)
            poly_boxes.add(box)
            dice.append((box, int(got.sides), int(got.value), conf, bool(got.percentile)))
            continue
        value = int(label)
        conf = r.p(label)
        if conf >= SURE:
            if i not in checked or spent():
                conf = min(conf, OVER_BUDGET)
            else:
                counted = pip_count(frame, f)
                if counted is not None and counted != value:
                    conf = min(conf, DISAGREE)
                elif counted is None:
                    conf = min(conf, UNCONFIRMED)
        dice.append((box, 6, value, conf, False))
    unread = {found[i].box(frame.shape) for i, r in enumerate(readings) if not r.whole}
    if unread:   # past ``MAX_TURNED``: read at one turn only, never sure
        dice = [(b, s, v, min(c, OVER_BUDGET) if b in unread else c, pc) for b, s, v, c, pc in dice]
        tokens = [(b, face, min(c, OVER_BUDGET) if b in unread else c) for b, face, c in tokens]
    # both size rules measure against the pip dice sure in the end, after the pip counter (_flecks_dropped);
    # when the counter doubted every one, the face reader's sure dice still say how big the dice are
    dice = _flecks_dropped(_emblems_die_sized(dice, asked, _sure_pip_sides(dice) or sure_sides))
    dice = _unbelieved_dropped(_specks_asked(_one_per_place(dice)), beliefs)
    # a die the finder holds less likely than not to be an object is never sure (``WEAKLY_FOUND``)
    dice = [(b, s, v, c if b in taught_boxes or beliefs[b][0] >= FIRST_KEPT else min(c, WEAKLY_FOUND), pc)
            for b, s, v, c, pc in dice]
    if all(f.score < FIRST_KEPT for f in found):
        dice = _likeliest_kept(dice)
    marked = poly_boxes | taught_boxes    # polyhedral readings and taught faces: never pips read as dice
    if FILLING and filling and not tokens and not spent() and _only_weak_pips(dice, marked):
        dice = _filling_die(frame, calibration, models[1]) or dice
    # every rule above was measured on the readers' own confidences; only what ``read_view`` reports moves
    return RawView(dice, tokens, frozenset(taught_boxes), frozenset(poly_boxes))


def read_tops(frame: np.ndarray, found: list[Found], readings: list[FaceReading], model: str,
              calibration: Calibration | None, stop: Callable[[], bool] | None) -> list[FaceReading]:
    """``readings`` with the value of each pip d6 in the frame's upper ``TOP_READ_ROWS`` read at its top:
    the square moved up ``TOP_READ`` of its box's height (``vision.faces.moved_up``: not a box that fills
    the frame, framed at its top), where that square reads a pip value too. The moved squares are read at
    every turn by every reader (a one-look reading of a moved square, kept where it read a value at
    ``vision.faces.PIP_ONE_TURN``, changed three dice of aws's 84-dice photo), at most ``MAX_TURNED`` of
    them, ``STEP`` at a time while ``stop`` (the frame's time) says False. The embedding, and every reading
    whose moved square reads no pip value, stay the centre's, as do those of objects the centre's reading
    drops (``_dropped``: the top gives a value, the centre says whether there is a die). ``readings`` are the
    reader's own, before the table's head (``adapted``); a table whose head was fitted on centre squares
    (``TableHead.top_read`` 0, every head ``tune`` fitted before the sixty-ninth session) reads at the
    centre."""
    head = None if calibration is None else calibration.head
    if not TOP_READ or (head is not None and head.reader == reader_id(model) and head.top_read != TOP_READ):
        return readings
    at = {i: box for i, (f, r) in enumerate(zip(found, readings, strict=True))
          if r.seen and PIPS.start <= int(np.argmax(r.probabilities)) < PIPS.stop
          and not (TOP_KEEPS_DROPPED and _dropped(f, r, frame.shape))
          and (box := moved_up(f, frame.shape, TOP_READ, TOP_READ_ROWS)) is not f}
    if not at:
        return readings
    again = list(at)[:MAX_TURNED]
    moved = [at[i] for i in again]
    out = list(readings)
    for k in range(0, len(moved), STEP):
        if stop is not None and stop():
            break       # the frame's time: the dice not reached keep their centre's reading
        tops = read_faces(frame, moved[k:k + STEP], model=model)     # every turn, every reader
        for i, top in zip(again[k:k + STEP], tops, strict=True):
            if PIPS.start <= int(np.argmax(top.probabilities)) < PIPS.stop:
                out[i] = replace(readings[i], probabilities=top.probabilities)
    return out


def _dropped(f: Found, r: FaceReading, shape: tuple[int, ...]) -> bool:
    """Whether ``raw_view`` drops the pip die ``r`` reads (its likeliest class a pip value, so "none" is
    under ``NONE_DROP``): its likeliest value under ``WEAKEST`` while the finder found it under
    ``FOUND_ASKED`` or the frame's edge cuts it."""
    return max(r.p(v) for v in D6_VALUES) < WEAKEST and (f.score < FOUND_ASKED or _cut(f, shape))


def _reported(p: float, bar: float) -> float:
    """The confidence reported for a die read at ``p`` (after every rule): ``bar`` (the face reader's
    ``sure_from``) becomes ``SURE``, ``KEPT_BELOW`` and 1 stay, linear between (monotone, never raised)."""
    if p <= KEPT_BELOW or bar <= SURE:
        return p
    if p < bar:
        return KEPT_BELOW + (p - KEPT_BELOW) * (SURE - KEPT_BELOW) / (bar - KEPT_BELOW)
    return SURE + (p - bar) * (1.0 - SURE) / (1.0 - bar)


def _emblems_typed(frame: np.ndarray, found: list[Found], readings: list[FaceReading], labels: list[str],
                   least: float, room: int, models: tuple[str, ...]) -> dict[int, np.ndarray]:
    """Type probabilities, by index, of the objects the face reader calls an emblem, "numeral" next (at
    least ``EMBLEM_NUMERAL``), that the type reader holds a die other than a d6 at ``EMBLEM_TYPED`` or more
    (read at the finder's box): a polyhedral die whose face the face reader (trained on d6 faces) took for
    a logo, to be read as a numeral die. At most ``room`` of them (``MAX_POLY`` with the numerals), and none
    without a type reader."""
    if len(models) < 3 or room <= 0:
        return {}
    emblems = [i for i, r in enumerate(readings)
               if labels[i] == "emblem" and r.p("none") < NONE_DROP and r.p("numeral") >= EMBLEM_NUMERAL
               and found[i].side >= least][:room]
    if not emblems:
        return {}
    p_types = read_types(frame, [found[i] for i in emblems], model=models[2])
    return {i: p for i, p in zip(emblems, p_types, strict=True)
            if SIDES[int(np.argmax(p))] != 6 and float(np.max(p)) >= EMBLEM_TYPED}


def _emblems_die_sized(dice: list[FoundDie], asked: set[int], sure_sides: list[float]) -> list[FoundDie]:
    """An emblem nobody taught is reported (to be asked) only when it is the size of a die: within
    ``EMBLEM_SIZE`` times the median side of the d6s the face reader read sure in the same frame, or
    when it read none sure. A printed face is one face of a die like the others; a fleck of carpet or a
    mark of the tray read as an emblem is any size (left out, the aws carpet's were 0.43 of the sure dice's
    side at the median, 24 of 508 within 1.5 times). ``sure_sides``: the pip dice sure after the pip
    counter (``read_view``), as ``_flecks_dropped`` counts them: the face reader alone called threads of a
    woven cloth sure "6"s of 10 px beside a 163 px die, and 28 emblems of their size stayed to be asked."""
    if not asked or not sure_sides:
        return dice
    median = float(np.median(sure_sides))
    return [d for i, d in enumerate(dice)
            if i not in asked or 1 / EMBLEM_SIZE <= _side(d) / median <= EMBLEM_SIZE]


def _second_opinions(readings: list[FaceReading], most: int) -> set[int]:
    """Which readings the pip counter checks: the d6 values read at ``SURE`` or more, least sure first
    (the face reader's wrong values lie mostly at its lower probabilities), ``most`` at most
    (``MAX_SECOND_OPINIONS``, or ``MAX_TIMED_OPINIONS`` by the clock). A value under ``SURE`` is put to
    the players whatever the counter says; checking it would change no answer, only spend time."""
    sure = [(r.p(_label(r)), i) for i, r in enumerate(readings) if _sure_d6(r) and r.whole]
    return {i for _, i in sorted(sure)[:most]}


def _sure_d6(r: FaceReading) -> bool:
    """The face reader reads a pip d6's value at ``SURE`` or more (and not "none")."""
    label = _label(r)
    return r.p("none") < NONE_DROP and label in D6_VALUES and r.p(label) >= SURE


def _cut(f: Found, shape: tuple[int, ...]) -> bool:
    """The object's box reaches out of the frame by more than ``CUT`` of its side."""
    h, w = shape[:2]
    out = max(f.w / 2 - f.cx, f.cx + f.w / 2 - w, f.h / 2 - f.cy, f.cy + f.h / 2 - h)
    return out > CUT * f.side


def _one_per_place(dice: list[FoundDie]) -> list[FoundDie]:
    """Two dice cannot lie at one place: of two objects found at one place, the more confident is kept.
    One place is centres closer than ``SAME_PLACE`` of the smaller side (a side face found beside its
    top; ``SAME_PLACE_ACROSS`` where they lie more across the frame than up and down), or the centre of
    one, at most ``HELD_SIDE`` of the other's side, inside the other's box (a pip or a face found inside a
    die; a box around a die and its shadow). Before that, a box holding two or more such objects that are
    believed and apart is dropped: it is around a group of dice (on nell-byler left out, a 143 px box over
    two 28 px dice was read as a "2").

    Until the nineteenth session the larger side measured "closer": a surer box bloated by a die's sides
    then swallowed the die touching it (nell-byler: 10 dice, aws: 19, left out)."""
    if not dice:
        return []
    box = np.array([d[0] for d in dice], np.float64).reshape(-1, 4)
    cx, cy = box[:, 0] + box[:, 2] / 2, box[:, 1] + box[:, 3] / 2
    side = np.maximum(box[:, 2], box[:, 3])
    # inside[d, k]: ``d`` is small beside ``k`` and its centre is in ``k``'s box
    inside = ((side[:, None] <= HELD_SIDE * side[None, :])
              & (np.abs(cx[:, None] - cx[None, :]) < box[None, :, 2] / 2)
              & (np.abs(cy[:, None] - cy[None, :]) < box[None, :, 3] / 2))
    dx, dy = cx[:, None] - cx[None, :], cy[:, None] - cy[None, :]
    same = np.where(np.abs(dx) >= np.abs(dy), SAME_PLACE_ACROSS, SAME_PLACE)
    apart = np.hypot(dx, dy) >= same * np.minimum(side[:, None], side[None, :])
    believed = np.array([d[3] >= HELD_BELIEF for d in dice])

    def holds_a_group(b: int) -> bool:
        """Two believed objects apart inside ``b``: the first of them, and any later one apart from it."""
        held = np.flatnonzero(believed & inside[:, b] & (np.arange(len(dice)) != b))
        return len(held) >= 2 and bool(apart[held[1:], held[0]].any())

    kept: list[int] = []
    for i in sorted((i for i in range(len(dice)) if not holds_a_group(i)), key=lambda i: -dice[i][3]):
        if apart[i, kept].all() and not inside[i, kept].any() and not inside[kept, i].any():
            kept.append(i)
    return [dice[i] for i in kept]


def _only_weak_pips(dice: list[FoundDie], marked: set[tuple[int, int, int, int]]) -> bool:
    """Whether ``dice`` may be the pips of one die filling the frame, read as small dice: none, or only pip
    d6s with a value under ``FILLING_UNDER``, none of them a polyhedral reading or a taught face
    (``marked``)."""
    if not dice:
        return True
    return FILLING_UNDER is not None and all(
        d[3] < FILLING_UNDER and d[1] == 6 and d[2] is not None and d[0] not in marked for d in dice)


def _filling_die(frame: np.ndarray, calibration: Calibration | None, model: str) -> list[FoundDie]:
    """The one die of a frame it fills (``FILLING``): the whole frame read as a found object's box, reported
    asked (at most ``UNCONFIRMED``) when the face reader's likeliest class but "none" is a pip value at
    ``WEAKEST`` or more and "none" is under ``NONE_DROP``; nothing otherwise."""
    h, w = frame.shape[:2]
    k = min(1.0, FILLING_SIDE / max(h, w))     # a large frame brought down by area first: no aliasing
    small = frame if k == 1.0 else cv2.resize(frame, (max(1, round(w * k)), max(1, round(h * k))),
                                               interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    whole = Found(sw / 2, sh / 2, float(sw), float(sh), 1.0)
    (r,) = adapted(read_faces(small, [whole], model=model), calibration, model)
    label = _label(r, token=False)
    if label not in D6_VALUES or r.p(label) < WEAKEST or r.p("none") >= NONE_DROP:
        return []
    return [((0, 0, w, h), 6, int(label), min(r.p(label), UNCONFIRMED), False)]


def _likeliest_kept(dice: list[FoundDie]) -> list[FoundDie]:
    """The ``NONE_STRONG_MOST`` most confident of ``dice``, in their order: what a frame the finder is sure of
    nothing in reports."""
    if len(dice) <= NONE_STRONG_MOST:
        return dice
    likeliest = set(sorted(range(len(dice)), key=lambda k: -dice[k][3])[:NONE_STRONG_MOST])
    return [d for k, d in enumerate(dice) if k in likeliest]


def _side(d: FoundDie) -> int:
    """The long side of a die's box."""
    return max(d[0][2], d[0][3])


def _sure_pip_sides(dice: list[FoundDie]) -> list[float]:
    """The long sides of the pip dice read sure in the end (after the pip counter)."""
    return [float(_side(d)) for d in dice if d[1] == 6 and d[2] is not None and d[3] >= SURE]


def _flecks_dropped(dice: list[FoundDie]) -> list[FoundDie]:
    """Pip dice not sure and under ``PIP_LEAST`` times the median side of the frame's sure pip dice are
    dropped. Sure means sure in the end, after the pip counter: with a finder trained on natural trays the
    face reader alone called ten threads of a woven cloth sure "6"s (left out, aws IMG_20191112_111809), the
    pip counter confirmed none."""
    sides = _sure_pip_sides(dice)
    if not sides:
        return dice
    least = PIP_LEAST * float(np.median(sides))
    return [d for d in dice if d[1] != 6 or d[2] is None or d[3] >= SURE or _side(d) >= least]


def _specks_asked(dice: list[FoundDie]) -> list[FoundDie]:
    """A die found under ``SPECK`` times the median side of the frame's dice (three or more), or under
    ``SMALLEST_SURE`` px, is never sure: capped at ``SPECK_CAP``, for the players to confirm. The pip counter
    confirms a lone dot as a "1", so a speck of the tray or a punched hole could be read as a sure 1."""
    least = float(SMALLEST_SURE)
    if len(dice) >= 3:
        least = max(least, SPECK * float(np.median([_side(d) for d in dice])))
    return [(d[0], d[1], d[2], min(d[3], SPECK_CAP), d[4]) if _side(d) < least else d for d in dice]


def _unbelieved_dropped(dice: list[FoundDie], beliefs: dict[tuple[int, int, int, int], tuple[float, float]]
                        ) -> list[FoundDie]:
    """Objects that neither stage holds more likely than not to be a die read right (found under
    ``FIRST_KEPT`` and reported under ``BELIEVED``) are dropped where the frame shows a die both stages
    believe. On a granite or terrazzo floor the finder finds die-sized blotches at 0.2-0.4 and the face
    reader reads them weakly: they were three phantoms in four of aws's, left out. Where no die is
    believed (one die seen badly, a die filling a small crop, an empty tray) only the likeliest of them
    (the finder's best) is kept, to be asked: an empty terrazzo floor was read as seventeen dice to ask
    about. ``beliefs``: by box, the finder's score and the face reader's probability of "emblem" where it
    names one: an untaught emblem is reported at ``EMBLEM_ASKED`` however surely it is one, so that
    probability, not its confidence, says whether the reader believes it."""
    marks = []      # (die, found more likely than not, reported more likely than not), each judged once
    for d in dice:
        score, emblem = beliefs.get(d[0], (1.0, 1.0))
        marks.append((d, score >= FIRST_KEPT, max(emblem, d[3]) >= BELIEVED))
    doubted = [d for d, found, read in marks if not (found or read)]
    if doubted and not any(found and read for _, found, read in marks):
        doubted.remove(max(doubted, key=lambda d: beliefs.get(d[0], (1.0, 1.0))))   # the likeliest is asked
    gone = {id(d) for d in doubted}
    return [d for d in dice if id(d) not in gone]


def _patch_taught(calibration: Calibration | None, frame: np.ndarray, f: Found, kind: str
                  ) -> tuple[str | None, float] | None:
    """A calibration taught before Vision III (examples with no embedding, ``calibration.json`` files of
    earlier versions) reads by its own patch comparison; ``None`` when it taught nothing of ``kind`` that
    way."""
    if calibration is None or not calibration.has(kind):  # type: ignore[arg-type]
        return None
    if any(e.embedding is not None for e in calibration.examples if e.kind == kind):
        return None   # taught from found objects: ``nearest`` decides
    got: tuple[str | None, float] = calibration.classify(crop(frame, f, scale=1.0, size=64),
                                                         kind=kind)  # type: ignore[arg-type]
    return got


def _pip_likelier(r: FaceReading, numeral: float) -> str | None:
    """The face reader's likeliest pip value when it is likelier than the numeral reading, whose probability
    ``numeral`` is that of "numeral" times the type's times the value's; else ``None``. Called only where
    "numeral" is the likelier class, so the pip value's probability is at most 0.5: a die read so is
    asked. (Left out, 24 of nell's dice, most of them dark with red pips and white veins, were read
    "numeral" at 0.37-0.65 with a pip value at 0.15-0.42, and Vision II's value on a pip face is a guess;
    no number here was fitted: docs/vision.md.)"""
    pip = max(D6_VALUES, key=r.p)
    return pip if r.p(pip) > numeral else None


def _token_read(r: FaceReading, taught: bool) -> bool:
    """Whether "token" is a class of ``r``: where the table taught tokens (``taught``), or where the face
    reader is sure of it (``TOKEN_SURE``). On a table that taught none, an unsure "token" is a die, most
    often a lone pip on a coloured body (aws, left out: 25 dice lost as tokens at 0.26-0.93, 20 of them
    under 0.8; the drawn tokens of the teach tests read 0.91-0.96), and the die's own classes decide."""
    return taught or r.p("token") >= TOKEN_SURE


def _label(r: FaceReading, *, token: bool = True) -> str:
    """The most likely class other than "none" (and other than "token", unless ``token``)."""
    p = r.probabilities.copy()
    p[CLASSES.index("none")] = -1.0
    if not token:
        p[CLASSES.index("token")] = -1.0
    return CLASSES[int(np.argmax(p))]


__all__ = ["pip_count", "read_view"]
