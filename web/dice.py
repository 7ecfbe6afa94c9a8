"""The players' own dice: the page "I vostri dadi" (``/dice``) and its API (``/api/dice...``).

Views call one ``companion.dice.DiceBook`` method each (the book over the session's own event log). The
GETs are for anyone at the table; every POST is a control action (the table PIN when one is set).

=================================  ==========================================================================
``GET /api/dice``                  every named die with its fairness, the unattributed rolls, the colours
``GET /api/dice/<id>``             one die
``GET /api/dice.csv[?die=<id>]``   every roll that counts, of one die or all, as CSV (a download)
``POST /api/dice``                 name a die: ``{"name", "sides", "colour"?, "at_table"?}``
``POST /api/dice/<id>/update``     ``{"name"?, "colour"?, "at_table"?}``
``POST /api/dice/<id>/remove``     forget a die; its rolls are kept, waiting for a die
``POST /api/dice/<id>/rolls``      rolls entered by hand: ``{"values": [..]}`` or ``{"counts": [..]}``
``POST /api/dice/<id>/undo-entry`` take back the last hand entry of that die
``POST /api/dice/assign``          ``{"rolls": [roll ids], "die": id or null}``
``POST /api/dice/<id>/teach``      teach the die's look from the camera (the die alone on the tray)
``POST /api/dice/<id>/forget-look`` forget what the camera was taught of it
=================================  ==========================================================================

An unknown die is 404 ``unknown-die``; malformed input 400 ``invalid-input`` with a ``dice.error.*`` key the
page translates; a refusal (a name taken, the table full, a roll of other sides; teaching with no
picture, ``no-picture``, or no die of those sides in it, ``nothing-to-teach``) 409.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from companion.dice import COLOURS, MAX_DICE, MAX_DIE_NAME, MAX_ENTRY, DiceBook, UnknownDie
from companion.errors import InvalidInput
from web.api import control, number_arg, table

bp = Blueprint("dice", __name__)

EXTENSION = "goblin.dice"
"""``app.extensions[EXTENSION]`` holds the ``DiceBook`` (made over the session's store when not given)."""


def book() -> DiceBook:
    found = current_app.extensions.get(EXTENSION)
    if found is None:
        found = current_app.extensions[EXTENSION] = DiceBook(table().store)
    assert isinstance(found, DiceBook)
    return found


@bp.errorhandler(UnknownDie)
def unknown_die(error: UnknownDie) -> tuple[Response, int]:
    from companion.messages import error_message

    said = error_message(error)
    extra = {} if said is None else {"key": said.key, "params": said.to_json()["params"]}
    return jsonify({"error": "unknown-die", "detail": str(error), **extra}), 404


@bp.get("/dice")
def dice_page() -> str:
    from web.pages import _page

    return _page("dice", colours=COLOURS, max_name=MAX_DIE_NAME, max_dice=MAX_DICE, max_entry=MAX_ENTRY)


@bp.get("/api/dice")
def report() -> Response:
    return jsonify({**book().report(), "waiting": book().unattributed(), "colours": list(COLOURS),
                    "max_dice": MAX_DICE, "max_name": MAX_DIE_NAME, "max_entry": MAX_ENTRY,
                    "can_teach": book().can_teach})


@bp.get("/api/dice/<int:die_id>")
def one(die_id: int) -> Response:
    return jsonify(book().die_report(die_id))


@bp.get("/api/dice.csv")
def export_csv() -> Response:
    die = number_arg("die", lambda raw: InvalidInput(
        f"?die= takes a die's number (see /api/dice), not {raw!r}"))
    unknown = set(request.args) - {"die", "lang"}
    if unknown:
        shown = ", ".join(sorted(unknown))[:80]
        raise InvalidInput(f"the CSV export takes ?die=<number> or nothing, not {shown}")
    lines = book().csv(die)  # an unknown die is refused here, before the first byte
    name = "goblin-dice.csv" if die is None else f"goblin-die-{die}.csv"
    response = Response(stream_with_context(lines), mimetype="text/csv")
    response.headers["Content-Disposition"] = f"attachment; filename={name}"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/dice")
@control
def name_die(data: dict[str, Any]) -> Response:
    return jsonify(book().name_die(data.get("name"), data.get("sides"), data.get("colour", ""),
                                   at_table=data.get("at_table", True)))


@bp.post("/api/dice/<int:die_id>/update")
@control
def update(data: dict[str, Any], die_id: int) -> Response:
    return jsonify(book().update_die(die_id, name=data.get("name"), colour=data.get("colour"),
                                     at_table=data.get("at_table")))


@bp.post("/api/dice/<int:die_id>/remove")
@control
def remove(data: dict[str, Any], die_id: int) -> Response:
    return jsonify(book().remove_die(die_id))


@bp.post("/api/dice/<int:die_id>/rolls")
@control
def rolls(data: dict[str, Any], die_id: int) -> Response:
    return jsonify(book().enter_rolls(die_id, values=data.get("values"), counts=data.get("counts")))


@bp.post("/api/dice/<int:die_id>/undo-entry")
@control
def undo_entry(data: dict[str, Any], die_id: int) -> Response:
    return jsonify(book().undo_entry(die_id))


@bp.post("/api/dice/assign")
@control
def assign(data: dict[str, Any]) -> Response:
    return jsonify(book().assign(data.get("rolls"), data.get("die")))


@bp.post("/api/dice/<int:die_id>/teach")
@control
def teach(data: dict[str, Any], die_id: int) -> Response:
    return jsonify(book().teach_look(die_id))


@bp.post("/api/dice/<int:die_id>/forget-look")
@control
def forget_look(data: dict[str, Any], die_id: int) -> Response:
    return jsonify(book().forget_looks(die_id))
