"""The recorded corpus of command lines (``corpus.json``): each game's commands with their exact output.

``python3 -m tests.cli_corpus.record`` runs the commands below and writes ``corpus.json``; the test
``test_corpus.py`` runs them again and asks for the same exit status, stdout and stderr, byte for byte.
Re-record only when an output is meant to change (and say so in the commit).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

from companion.cli import main

CORPUS = Path(__file__).with_name("corpus.json")
POSITION = "Lobo: 2 2 6 9 13 | SdP: 2 4 5 13 18"
SKIRMISH = {"bands": [
    {"name": "Elfi", "models": ["Lorien|T3|A3|S4|P20|eroe2|capitano", "Arciere|T4|A5|S5|P8"]},
    {"name": "Orchi", "models": ["Grum|A3|S4|P20|eroe1|possente", "Orco|A4|S5|P6"]}]}


def run(argv: list[str], stdin: str = "") -> dict[str, Any]:
    """``goblin-companion ARGV < STDIN`` in this process: exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"  # argparse wraps --help to the terminal's width: one width for all
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as done:  # argparse's --help
                code = done.code if isinstance(done.code, int) else 2
    finally:
        sys.stdin = saved
        if columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = columns
    return {"argv": argv, "stdin": stdin, "code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def commands() -> list[tuple[list[str], str]]:
    """The corpus' commands; states come from earlier answers, so they are realistic."""
    cmds: list[tuple[list[str], str]] = []

    def state_of(argv: list[str], stdin: str = "") -> Any:
        cmds.append((argv, stdin))
        return json.loads(run(argv, stdin)["stdout"])["state"]

    # Button Goblin
    cmds.append((["button-goblin", "analyze", "--position", POSITION], ""))
    cmds.append((["button-goblin", "apply", "--position", POSITION],
                 json.dumps({"attack": {"type": "skill", "attackers": [0, 1, 3], "targets": [3]}})))
    passing = json.dumps({"attack": {"type": "pass"}})
    cmds.append((["button-goblin", "apply", "--position", POSITION], passing))
    cmds.append((["button-goblin", "analyze", "--position", "Lobo: 2 | SdP"], ""))
    # Dadoteck
    dado = state_of(["dadoteck", "new", "Anna", "Bruno", "Carla", "--speedup"])
    events = ["roll 0 20", {"type": "roll", "player": "Bruno", "value": 20}, "roll 1 13", "roll 2 7",
              "movement-die 16", "roll 0 9", "roll 1 9", "roll 2 4", "roll 1 2", "roll 0 5"]
    dado = state_of(["dadoteck", "apply"], json.dumps({"state": dado, "events": events}))
    cmds.append((["dadoteck", "show"], json.dumps({"state": dado})))
    cmds.append((["dadoteck", "apply", "--state", json.dumps(dado), "--event", "roll 0 13"], ""))
    cmds.append((["dadoteck", "apply", "--state", json.dumps(dado), "--event", "roll 2 5"], ""))
    cmds.append((["dadoteck", "apply", "--state", json.dumps(dado), "--event", "fly 3"], ""))
    # GobCon
    gob = state_of(["gobcon", "new", "Anna", "Bruno", "Carla", "--target", "9"])
    catan = {"type": "card", "player": 0, "kind": "acquisti", "name": "Catan", "gp": 2, "category": "board"}
    events = [catan,
              {"type": "partita", "name": "Risiko", "category": "board", "payoff": "K+3 G+1 B+0 D-1"},
              {"type": "declare", "player": "Bruno", "join": True}]
    gob = state_of(["gobcon", "apply"], json.dumps({"state": gob, "events": events}))
    cmds.append((["gobcon", "show"], json.dumps({"state": gob})))
    more = [{"type": "declare", "player": "Carla", "join": False}, {"type": "roll", "player": 0, "pips": 1},
            {"type": "roll", "player": 1, "face": "king"}, {"type": "end-turn"}]
    cmds.append((["gobcon", "apply"], json.dumps({"state": gob, "events": more})))
    seven = {"type": "roll", "player": 1, "pips": 7}
    cmds.append((["gobcon", "apply"], json.dumps({"state": gob, "event": seven})))
    # Goblins: Epic Death
    gobl = state_of(["goblins", "new", json.dumps({"players": ["Arnaldo", "Bea"]})])
    events = [{"type": "play_hero", "hero": "Cavalleria|4|0"}, {"type": "adjust", "player": 0, "troops": 1},
              {"type": "face", "terrain": "Ladro di 1° livello|wood|5|2|-"}]
    cmds.append((["goblins", "apply", json.dumps({"state": gobl, "events": events})], ""))
    cmds.append((["goblins", "combat", json.dumps({"army": {"name": "Dante", "troops": 4, "machines": [
        "Ariete|ram|3|1|1", "Cannone|cannon|5|2|2"]}, "terrain": "Lego-Las|walls|10|3|-"})], ""))
    cmds.append((["goblins", "brawl", json.dumps({"attacker": {"name": "A", "troops": 3, "machines": [
        "Ariete|ram|3|1|1"]}, "defender": {"name": "B", "troops": 4}})], ""))
    # Skirmish rules
    sk = state_of(["skirmish", "new", json.dumps(SKIRMISH)])
    events = [{"type": "roll", "dice": [2, 5]}, {"type": "roll", "dice": [6, 1]},
              {"type": "choose_first", "band": 0}, {"type": "play_card", "card": "tiro2"},
              {"type": "shoot", "target": 1, "shooters": [
                  {"model": 0, "distance": 12}, {"model": 1, "distance": 20, "moved": 8, "cover": True}]}]
    cmds.append((["skirmish", "apply", json.dumps({"state": sk, "events": events})], ""))
    cmds.append((["skirmish", "test", json.dumps({"kind": "tiro", "characteristic": 4, "modifiers": [
        {"label": "cover", "value": -1}], "heroism": 1})], ""))
    cmds.append((["skirmish", "assault", json.dumps({"attacker": "Lupo|A4|S5|P10|cavalleria|possente",
                                                     "target": "Orco|A4|S5|P6", "distance": 6})], ""))
    # any game through the rules protocol
    cmds.append((["rules", "dadoteck", "new", '{"players": ["Anna", "Bruno"]}'], ""))
    declare = "declare player=2 join=false"
    cmds.append((["rules", "gobcon", "apply", "--state", json.dumps(gob), "--event", declare], ""))
    # ---- added before the five command lines were folded into one (issue 17): every documented
    # command and its usual errors, so the fold is checked byte for byte
    position_json = json.dumps({"players": [
        {"name": "Lobo", "dice": [{"sides": 4, "value": 2}, {"sides": 6, "value": 2}]},
        {"name": "SdP", "dice": [{"sides": 8, "value": 5}]}]})
    cmds.append((["button-goblin", "analyze"], position_json))
    cmds.append((["button-goblin", "apply"], json.dumps({"position": json.loads(position_json),
                                                          "attack": {"type": "pass"}})))
    cmds.append((["button-goblin", "apply", "--position", POSITION], "{not json"))
    cmds.append((["button-goblin", "apply", "--position", POSITION], json.dumps({"attack": {}, "x": 1})))
    cmds.append((["button-goblin", "launch"], ""))
    cmds.append((["button-goblin", "analyze", "--speed"], ""))
    cmds.append((["button-goblin", "--help"], ""))
    cmds.append((["dadoteck", "new", "Anna", "Bruno"], ""))
    cmds.append((["dadoteck", "apply", "--state", json.dumps(dado), "--event",
                  json.dumps({"type": "roll", "player": "Anna", "value": 13})], ""))
    cmds.append((["dadoteck", "apply", "-"], json.dumps({"state": dado, "event": "roll 0 13"})))
    cmds.append((["dadoteck", "apply", "--state", json.dumps(dado)], ""))
    cmds.append((["dadoteck", "apply"], json.dumps({"state": dado, "events": []})))
    cmds.append((["dadoteck", "show", json.dumps(dado)], ""))
    cmds.append((["dadoteck", "show"], "{"))
    cmds.append((["dadoteck", "new", "Anna"], ""))
    cmds.append((["dadoteck"], ""))
    cmds.append((["dadoteck", "--help"], ""))
    cmds.append((["dadoteck", "apply", "--help"], ""))
    cmds.append((["gobcon", "new", "Anna", "Bruno", "--no-target", "--timed", "--deck-end", "--first", "1"],
                 ""))
    cmds.append((["gobcon", "new", "Anna", "Bruno", "--target", "x"], ""))
    cmds.append((["gobcon", "apply", "--state", json.dumps(gob), "--event",
                  json.dumps({"type": "declare", "player": 2, "join": True})], ""))
    cmds.append((["gobcon", "apply", "--state", json.dumps(gob), "--event", "declare player=2 join=true"],
                 ""))
    cmds.append((["gobcon", "show", json.dumps(gob)], ""))
    cmds.append((["gobcon", "frobnicate"], ""))
    cmds.append((["gobcon", "--help"], ""))
    cmds.append((["gobcon", "new", "--help"], ""))
    cmds.append((["goblins", "new", json.dumps({"players": ["A", "B", "C"], "centre": 2, "troops": 7})], ""))
    cmds.append((["goblins", "apply", "-"], json.dumps({"state": gobl, "event": {"type": "reinforce",
                                                                                  "goblins": 2}})))
    cmds.append((["goblins", "legal", json.dumps({"state": gobl})], ""))
    cmds.append((["goblins", "apply", json.dumps({"state": gobl, "event": {"type": "toss", "alive": 1,
                                                                             "dead": 0}})], ""))
    cmds.append((["goblins", "apply", json.dumps({"state": gobl})], ""))
    cmds.append((["goblins", "new", json.dumps({"players": ["A", "B"], "troops": -1})], ""))
    cmds.append((["goblins", "combat", "{"], ""))
    cmds.append((["goblins", "legal", "[]"], ""))
    cmds.append((["goblins"], ""))
    cmds.append((["goblins", "fight"], ""))
    cmds.append((["goblins", "--help"], ""))
    cmds.append((["skirmish", "new", json.dumps({**SKIRMISH, "time_limit_min": None})], ""))
    cmds.append((["skirmish", "legal", json.dumps({"state": sk})], ""))
    cmds.append((["skirmish", "apply", "-"],
                 json.dumps({"state": sk, "event": {"type": "roll", "dice": [3, 4]}})))
    cmds.append((["skirmish", "apply", json.dumps({"state": sk, "event": {"type": "end_card"}})], ""))
    cmds.append((["skirmish", "shoot", json.dumps({"band": SKIRMISH["bands"][0], "target": "Orco|A4|S5|P6",
                                                    "card": "tiro2", "shooters": [
                                                        {"model": 0, "distance": 12},
                                                        {"model": 1, "distance": 20, "cover": True}]})], ""))
    cmds.append((["skirmish", "shoot", json.dumps({"band": SKIRMISH["bands"][0], "target": "Orco|A4|S5|P6",
                                                    "shooters": [{"model": 1, "distance": 12, "moved": 9}]})],
                 ""))
    cmds.append((["skirmish", "new", json.dumps({"bands": []})], ""))
    cmds.append((["skirmish", "test", "[1]"], ""))
    cmds.append((["skirmish", "apply", "a", "b"], ""))
    cmds.append((["skirmish"], ""))
    cmds.append((["skirmish", "--help"], ""))
    cmds.append((["rules", "dadoteck", "show", json.dumps({"state": dado})], ""))
    cmds.append((["rules", "dadoteck", "apply"], json.dumps({"state": dado, "events": ["roll 0 13",
                                                                                       "square 13"]})))
    cmds.append((["rules", "skirmish", "new", json.dumps(SKIRMISH)], ""))
    cmds.append((["rules", "goblins", "show", json.dumps(gobl)], ""))
    cmds.append((["rules", "button-goblin", "new", json.dumps({"position": POSITION})], ""))
    cmds.append((["rules", "chess", "new", "{}"], ""))
    cmds.append((["rules", "gobcon", "apply", "--state", json.dumps(gob), "--event", "fly"], ""))
    cmds.append((["rules"], ""))
    cmds.append((["rules", "--help"], ""))
    cmds.append((["nonsense"], ""))
    # ---- added before Button Goblin's command line ran through gamecli (issue 17): its flags, fire,
    # passes, advise and their errors
    fire = "> Lobo: d8=5 d12=7[FU] | SdP: d4=2 d20=8"
    skill = {"type": "skill", "attackers": [0], "targets": [1]}
    bg = ["button-goblin"]
    cmds.append((list(bg), ""))
    cmds.append(([*bg, "-h"], ""))
    inline = "--position=> Lobo: d0=0[NU] d8=5 d12=7[FU] {d20=13} | SdP: d4=2 d20=18[VA]"
    cmds.append(([*bg, "analyze", inline], ""))
    cmds.append(([*bg, "analyze", "--position", fire], ""))
    cmds.append(([*bg, "analyze", "--position", "> Lübo: d(10,10)=14 d6=3[FO]! | SdP: 3 ; passes 2"], ""))
    cmds.append(([*bg, "analyze", "--position"], ""))
    cmds.append(([*bg, "analyze"], ""))
    cmds.append(([*bg, "analyze"], "\ufeff" + json.dumps({"players": []})))
    cmds.append(([*bg, "apply", "--position", fire], json.dumps({"attack": {**skill, "fire": 3}})))
    cmds.append(([*bg, "apply", "--position", fire], json.dumps({"attack": {**skill, "fire": [
        {"die": 1, "to": 4}]}})))
    cmds.append(([*bg, "apply", "--position", fire], json.dumps({"attack": {**skill, "fire": 4}})))
    cmds.append(([*bg, "apply", "--position", POSITION], json.dumps({"attack": {
        "type": "power", "attackers": [4], "targets": [3], "fire": 0}})))
    cmds.append(([*bg, "apply", "--position", fire], json.dumps({"position": {}, "attack": {
        "type": "pass"}})))
    cmds.append(([*bg, "apply"], json.dumps({"attack": {"type": "pass"}})))
    cmds.append(([*bg, "apply"], json.dumps([1])))
    cmds.append(([*bg, "apply", "--position", fire], json.dumps({"attack": {"type": "pass", "x": 1}})))
    cmds.append(([*bg, "apply", "--position", "> Lobo: 2 | SdP: 3 ; passes 1"], passing))
    cmds.append(([*bg, "apply", "--position", "> Lobo: 2 | SdP: 3 ; passes 2"], passing))
    cmds.append(([*bg, "advise", "--position", "> Lobo: d4=2 d8=5 | SdP: d6=4 d20=18[VA]",
                   "--simulations", "20", "--seed=3"], ""))
    cmds.append(([*bg, "advise"], json.dumps({"to_move": 0, "players": [
        {"name": "A", "dice": [{"sides": 6, "value": 3}]},
        {"name": "B", "dice": [{"sides": 4, "value": 2}]}]})))
    cmds.append(([*bg, "advise", "--position", "Lobo: 2 | SdP: 3"], ""))
    cmds.append(([*bg, "advise", "--position", fire, "--simulations", "999999"], ""))
    cmds.append(([*bg, "advise", "--bogus"], ""))
    cmds.append(([*bg, "advise", "--seed"], ""))
    cmds.append(([*bg, "advise", "--seed", "x"], ""))
    cmds.append(([*bg, "advise", "--help"], ""))
    round_ = state_of(["rules", "button-goblin", "new", json.dumps({"position": fire})])
    cmds.append((["rules", "button-goblin", "apply", "--state", json.dumps(round_), "--event",
                  "skill attackers=[0] targets=[1] fire=3"], ""))
    cmds.append((["rules", "button-goblin", "show", json.dumps(
        {"to_move": 0, "players": [{"name": "A", "dice": [{"sides": 6, "value": 3}]},
                                   {"name": "B", "dice": [{"sides": 4, "value": 2}]}], "passes": 1})], ""))
    # ---- added with Button Goblin's whole match through the protocol (issue 17): a match from the
    # flow's setup, its swing, roll and attack events, and their errors
    players = {"players": [{"name": "Anna", "button": "Jones"},
                           {"name": "Bruno", "button": "Alisa", "ve": "VA"}]}
    match = state_of(["rules", "button-goblin", "new", json.dumps(players)])
    match = state_of(["rules", "button-goblin", "apply", "--state", json.dumps(match), "--event",
                      'swing player=0 sizes={"X":8}'])
    values = {"p0.1": 3, "p0.2": 2, "p0.3": 9, "p0.4": 6,
              "p1.0": 4, "p1.1": 3, "p1.2": 7, "p1.3": 11, "p1.4": 15}
    match = state_of(["rules", "button-goblin", "apply"], json.dumps({"state": match, "events": [
        'swing player="Bruno" sizes={"X":20}', {"type": "roll", "values": values}]}))
    cmds.append((["rules", "button-goblin", "show", json.dumps({"state": match})], ""))
    cmds.append((["rules", "button-goblin", "apply", "--state", json.dumps(match), "--event",
                  "power attackers=[1] targets=[1]"], ""))
    cmds.append((["rules", "button-goblin", "apply", "--state", json.dumps(match), "--event",
                  'roll values={"p0.1":3}'], ""))
    cmds.append((["rules", "button-goblin", "apply", "--state", json.dumps({**match, "round": 4}),
                  "--event", "pass"], ""))
    cmds.append((["rules", "button-goblin", "new", json.dumps({"players": [{"button": "Alisa"},
                                                                          {"button": "Jones"}]})], ""))
    return cmds


def record() -> list[dict[str, Any]]:
    return [run(argv, stdin) for argv, stdin in commands()]


if __name__ == "__main__":
    entries = record()
    CORPUS.write_text(json.dumps(entries, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(entries)} commands recorded in {CORPUS}")
