"""The roster: the 76 buttons of the rulebook, their recipes, and the recipe notation.

A recipe is written as the rulebook prints it: ``0 [NU], X, X, W [FU], Y [VA]``, ``(10,10) [GE]``,
``6 [VO, OM]``, ``1000 [DS]``. ``X``, ``W`` and ``Y`` are swing dice (4..20 sides, chosen before a
round; every X of a button shares one size). ``VE`` appears on two roster dice (Antonio, Alisa) but is
never defined by the rulebook: such buttons are flagged and the players say what VE means.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, NoReturn

from companion.button_goblin.core import SKILLS, Die, read_number
from companion.errors import InvalidInput
from companion.messages import Message

SWING_LETTERS: Final = ("X", "W", "Y")
SWING_MIN: Final = 4
SWING_MAX: Final = 20
UNDEFINED_SKILL: Final = "VE"
VeMeaning = Literal["VA", "VO", "none"]
VE_MEANINGS: Final[tuple[str, ...]] = ("VA", "VO", "none")


@dataclass(frozen=True)
class DieSpec:
    """One die of a recipe: fixed sizes (``(8,)``, ``(10, 10)``) or a swing letter, and skills."""

    sides: tuple[int, ...] | None
    swing: str | None
    skills: tuple[str, ...] = ()

    def format(self) -> str:
        if self.swing is not None:
            text = self.swing
        elif self.sides is not None and len(self.sides) == 2:
            text = f"({self.sides[0]},{self.sides[1]})"
        else:
            text = str(self.sides[0]) if self.sides else "?"
        return text + (f" [{', '.join(self.skills)}]" if self.skills else "")

    def __repr__(self) -> str:
        return f"DieSpec.parse({self.format()!r})"

    @classmethod
    def parse(cls, text: str) -> DieSpec:
        specs = parse_recipe(text)
        if len(specs) != 1:
            raise InvalidInput(f"one die expected, not {text!r}")
        return specs[0]


_SPEC_RE = re.compile(
    r"\s*(?:(?P<swing>[XWY])|(?P<size>\d+)|\(\s*(?P<a>\d+)\s*,\s*(?P<b>\d+)\s*\))\s*(?:\[(?P<skills>[^\]]*)\])?\s*"
)


def _error(text: str, start: int, end: int, why: str) -> InvalidInput:
    while start < end and text[start].isspace():
        start += 1
    token = text[start:end].strip() or text[start:].strip() or "(end)"
    return InvalidInput(f"{why}: {token!r} at column {start + 1} of {text!r}")


def parse_recipe(text: str) -> tuple[DieSpec, ...]:
    """A recipe in roster notation; errors quote the bad token and its column."""
    specs: list[DieSpec] = []
    pos = 0
    while True:
        comma = _next_comma(text, pos)
        chunk = text[pos:comma]
        if not chunk.strip():
            return _missing(text, comma)
        unclosed = _unclosed(text, pos, comma)
        if unclosed is not None:
            raise _error(text, unclosed, comma, f"unclosed {text[unclosed]!r}")
        match = _SPEC_RE.fullmatch(chunk)
        if match is None:
            raise _error(text, pos, comma, "bad die")
        skills: list[str] = []
        if match["skills"] is not None:
            offset = pos + match.start("skills")
            for part in match["skills"].split(","):
                code = part.strip()
                if not code:
                    start = offset + len(part)  # the ',' or ']' that closes the empty skill
                    raise _error(text, start, start + 1, "empty skill")
                if code not in SKILLS and code != UNDEFINED_SKILL:
                    start = offset + part.find(code)
                    raise _error(text, start, start + len(code), "unknown skill")
                skills.append(code)
                offset += len(part) + 1
        if match["swing"]:
            spec = DieSpec(None, match["swing"], tuple(skills))
        elif match["size"] is not None:
            spec = DieSpec((read_number(match["size"], chunk),), None, tuple(skills))
        else:
            pair = (read_number(match["a"], chunk), read_number(match["b"], chunk))
            spec = DieSpec(pair, None, tuple(skills))
        twin = spec.sides is not None and len(spec.sides) == 2
        if twin and spec.sides is not None and spec.sides[0] != spec.sides[1]:
            raise _error(text, pos, comma, "a twin (GE) is two equal dice")
        if twin != ("GE" in skills):
            raise _error(text, pos, comma, "a twin die is written (N,N) [GE], and GE only on twins")
        specs.append(spec)
        if comma >= len(text):
            return tuple(specs)
        pos = comma + 1


def _missing(text: str, comma: int) -> NoReturn:
    token = text[comma] if comma < len(text) else "(end)"
    raise InvalidInput(f"missing die: {token!r} at column {comma + 1} of {text!r}")


def _unclosed(text: str, start: int, end: int) -> int | None:
    """Index of the first '(' or '[' in ``text[start:end]`` that is never closed there, else None."""
    stack: list[int] = []
    for i in range(start, end):
        if text[i] in "([":
            stack.append(i)
        elif text[i] in ")]" and stack:
            stack.pop()
    return stack[0] if stack else None


def _next_comma(text: str, pos: int) -> int:
    depth = 0
    for i in range(pos, len(text)):
        c = text[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            return i
    return len(text)


@dataclass(frozen=True)
class Button:
    """A Button Goblin fighter: a name and the recipe of its dice."""

    name: str
    recipe: tuple[DieSpec, ...]

    @property
    def swing_letters(self) -> tuple[str, ...]:
        """The swing letters this button uses, in X, W, Y order."""
        used = {s.swing for s in self.recipe if s.swing}
        return tuple(letter for letter in SWING_LETTERS if letter in used)

    @property
    def needs_ve(self) -> bool:
        """True when a die carries the undefined VE code and the players must say what it means."""
        return any(UNDEFINED_SKILL in s.skills for s in self.recipe)

    def format(self) -> str:
        return ", ".join(s.format() for s in self.recipe)

    def __repr__(self) -> str:
        return f"Button({self.name!r}, parse_recipe({self.format()!r}))"

    def dice(self, swing: Mapping[str, int] | None = None, ve: str | None = None) -> tuple[Die, ...]:
        """The button's dice, not yet rolled, for the chosen swing sizes and VE meaning."""
        swing = dict(swing or {})
        check_swing(self, swing)
        if self.needs_ve and ve not in VE_MEANINGS:
            raise InvalidInput(f"{self.name} has a VE die; say what VE means: VA, VO or none (got {ve!r})")
        out = []
        for spec in self.recipe:
            sides = spec.sides if spec.swing is None else (swing[spec.swing],)
            skills = []
            for code in spec.skills:
                if code == UNDEFINED_SKILL:
                    if ve != "none":
                        skills.append(str(ve))
                elif code != "GE":
                    skills.append(code)
            out.append(Die(sides, None, tuple(skills)))
        return tuple(out)


def check_swing(button: Button, swing: Mapping[str, int]) -> None:
    """Raise ``InvalidInput`` unless ``swing`` gives every swing letter of the button a size 4..20."""
    for letter, size in swing.items():
        if letter not in button.swing_letters:
            raise InvalidInput(f"{button.name} has no swing die {letter!r}")
        if not isinstance(size, int) or isinstance(size, bool) or not SWING_MIN <= size <= SWING_MAX:
            raise InvalidInput(f"swing {letter} must be {SWING_MIN}..{SWING_MAX} sides, not {size!r}")
    missing = [letter for letter in button.swing_letters if letter not in swing]
    if missing:
        raise InvalidInput(f"{button.name} needs a size for swing {', '.join(missing)}")


ROSTER_TEXT: Final = """\
Lobo	0 [NU], X, X, W [FU], Y [VA]
SdP	0 [NU], X, X, W [FU], Y [VA]
The Goblin	0 [NU], X, X, W [FU], Y [VA]
Cippacometa	4, 4, 10, 20 [FG], X
Favar	6, 8, 20 [VA], 20 [VA], X
Raven	4 [FU], 6 [FU], 6, 12, X
Gjmbob	4, 6 [FO], 8, 12, 20 [FG]
Manu	4, 6, (10,10) [GE], 12, X
Madness	20, 20, 20, 20, 20, 20
Darule	6 [VA], 8 [VA], 10, 12 [VA], X
Gwaihira	4, 6, 10 [VA], 20, X
Fair	8 [VA], 12, 20, 20, X
Genma1	4, 6, 8 [FU], 20, X
Sydeon	6, 10, 12 [FO], 20, X
Fenomeno	4, 10, 10, 12, X [VO]
Luperto	4, 8, 10, 20, 20
Virginio	10 [VA], 12 [VA], 12 [VA], X [VA]
Flaminia	6, 8, 12, X, X [VA]
Antonio	8, 6, 10, 12 [VE], 20
Jelerak	2 [VO], 4 [VO], 8, 12, 12
Elisa	6 [VO, OM], 12 [VO, OM], 12, 20, X
Mikimush	6, 8 [OM], 10, 12, X
Katchoo	10, 20 [VO], 20, 20, X
SimoneC	8, (10, 10) [GE], 12, 20, X
Lalla	6, 8, 12, X
Falcon	4, 6, 8, X, X
Fairy	4, 10, 20, 20, X
Dera	8, 10 [VO], 12 [OM], 20, X
Jones	1, 6, 10, 20, X
De Sangre	8, 8, 12 [VO], 20, X
Prin	8, 8, X, X, X
Daredevil	4, 12, 20, X, X
Zugman	2, 2, 8, 12, X
DomenicoDG	4, 4, 4 [FO], 12 [FO], 20
Schoppenhoffen	4 [VO], 8, 12, 20 [VO], 20
Morpheus	4, 4, 12, X, X
Sargon	4 [FO], 8, 12, 20 [FG], X
Scavezzacollo	20, 20, 20, (12,12) [GE]
Dominex	6, 12, X, X, X
Fireandice	6, 8, 8 [VA], 20, X [FO]
Racca	1000 [DS], 10, 10, 10, 10
Athafil	6 [FO], 10, 10 [FO], 12, 20
Noctua Cojuntas	4, 10 [OM], 12, 12, X
Rporrini	2, 4, 10, X, X
Chicca	4, 6, 8, 10, X
Paola	4, 4, 20, 20, X
PatrickMS	6, 12, X, X, X
Laurina	8, 8, 10, 20, X
Leia	6, 6 [FO], 8, 12 [FO], 12
Kalby	6, 10, 10, 12, X
Diper	4, 10, 20, 20, X
Zollone	6, 8, 8, 12, X
Wildmech	6, 8, 12, 12, X
Juda	6, 10, 10, 12, X
Balder	6, 8, 10 [OM], 12, X
Perigastus	6, 6, 10, 20, X [OM]
Psyduck	4, 8, 12, 20, X
Redarrow	4, 6, 6, 20, X
Odrij	4, 4, 6 [FO], 12 [FO], 20
Robo	4 [OM], 4, 12, 20, X
Alisa	4 [VE], 4, 8, 12, X
Paolamb	2, 2, 2, 2, X
Ferrinik	4, 6, 6, 12, X
Ajv	4, 10, 12 [FO], 20, X
Capitano	1, 6, 10, 20, X
Dio	8, 10, 10, 10, X
Ugoslave	4, 10, 12, 20, 20 [VA]
Drugo	6, 8, 10 [VO], 12, 12
Lupigi	6, 8, 8, 20, X
RandallMcMurphy	6, 12, 20, 20, X
Superfage	4, 8, 12, 20, X
Stef	4, 6, 6, 20, X
Greatdwarf	6, 12, 20, 20, X
Adriano	6, 10, 12 [FO], 20, X [VA]
Cirunz	2, 2, 6, 8, X
Jamil	4, 4, 12, 20, X
"""
"""The roster exactly as the rulebook prints it: name, a tab, the recipe."""


def parse_roster(text: str) -> tuple[Button, ...]:
    """Buttons from ``name<TAB>recipe`` lines; errors name the line."""
    buttons = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        name, tab, recipe = line.partition("\t")
        if not tab:
            raise InvalidInput(f"roster line {number} has no tab between name and dice: {line!r}")
        try:
            buttons.append(Button(name.strip(), parse_recipe(recipe)))
        except InvalidInput as error:
            raise InvalidInput(f"roster line {number} ({name.strip()}): {error}") from None
    return tuple(buttons)


ROSTER: Final[tuple[Button, ...]] = parse_roster(ROSTER_TEXT)
BUTTONS: Final[Mapping[str, Button]] = {b.name: b for b in ROSTER}


def find_button(name: str) -> Button:
    """The roster button called ``name`` (case and spacing are forgiven)."""
    if name in BUTTONS:
        return BUTTONS[name]
    wanted = "".join(name.split()).casefold()
    for button in ROSTER:
        if "".join(button.name.split()).casefold() == wanted:
            return button
    raise InvalidInput(Message("error.input.no_button", f"no button called {name[:40]!r} in the roster",
                               {"value": repr(name[:40])}))
