"""Lesson links: a playground tab's settings as a URL query, each value checked against its
control's own choices or range (no gradio).

A link reads ``?tab=train&task=reverse&pe=none&heads=2&hide=pe,heads&lock=1``:

- ``tab``: which playground tab opens; every other key names one control of that tab;
- ``hide``: controls left out of the page (comma-separated names of that tab's controls);
- ``lock``: ``1`` (or ``true``, ``yes``, ``on``) greys out every control still shown, or a
  comma-separated list of names (``0``, ``false``, ``no``, ``off``: none).

A query without any key of ours (a plain visit, Gradio's own ``?__theme=dark``) is no link.
Anything else that does not check out (an unknown tab or name, a value outside its control's
choices or range, a wrong type, an over-long value or query) makes the whole link invalid:
``decode`` raises LinkError and the page opens as usual, never half applied.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

MAX_QUERY_CHARS = 8000  # the whole query (decoded): three 16 × 16 matrices fit, a flood does not
MAX_KEYS = 40  # more keys than any tab has controls
MAX_NUMBER_CHARS = 32  # "0.15000000000000002" fits; a 10 000-digit number does not
META = ("tab", "hide", "lock")
TRUE_WORDS = ("1", "true", "yes", "on")  # lock=... meaning every shown control
FALSE_WORDS = ("", "0", "false", "no", "off")  # lock=... meaning none
# Keys that never make a lesson link: Gradio's (?__theme=dark, ?view=api), Spaces', and a
# class list's join link (?join=..., read by webapp.pages.sign_in on load).
FOREIGN_PREFIX = "_"
FOREIGN = frozenset({"view", "logs", "join"})


class LinkError(ValueError):
    """A lesson link that does not check out (the page opens with its defaults). ``key``: the
    query key that failed, when one did; ``tab``: the link's tab, when that one was valid."""

    def __init__(self, message: str, key: str | None = None, tab: str | None = None) -> None:
        super().__init__(message)
        self.key, self.tab = key, tab


@dataclass(frozen=True)
class Choice:
    """One of a fixed list of values (a radio, a dropdown)."""

    values: tuple[str, ...]

    def parse(self, raw: str) -> str:
        if raw not in self.values:
            raise LinkError(f"{raw[:40]!r} is not one of {', '.join(self.values)}")
        return raw

    def show(self, value: Any) -> str:
        return str(value)


@dataclass(frozen=True)
class Flag:
    """A tickbox: 1 or 0."""

    def parse(self, raw: str) -> bool:
        if raw not in ("1", "0", "true", "false"):
            raise LinkError(f"{raw[:40]!r} is not 1 or 0")
        return raw in ("1", "true")

    def show(self, value: Any) -> str:
        return "1" if value else "0"


@dataclass(frozen=True)
class Range:
    """A number in [low, high]; ``integer`` for whole numbers, ``step`` for a slider's grid."""

    low: float
    high: float
    step: float | None = None
    integer: bool = False

    def parse(self, raw: str) -> int | float:
        if len(raw) > MAX_NUMBER_CHARS or not re.fullmatch(r"[+-]?[0-9.eE+-]+", raw):
            raise LinkError(f"{raw[:40]!r} is not a number")
        try:
            number = float(raw)
        except ValueError:
            raise LinkError(f"{raw[:40]!r} is not a number") from None
        if not math.isfinite(number) or not self.low <= number <= self.high:
            raise LinkError(f"{number:g} lies outside {self.low:g} … {self.high:g}")
        if self.integer:
            if not number.is_integer():
                raise LinkError(f"{raw[:40]!r} is not a whole number")
            return int(number)
        if self.step:  # on the slider's grid (a slider cannot show 0.123 with step 0.05)
            k = (number - self.low) / self.step
            if abs(k - round(k)) > 1e-6:
                raise LinkError(f"{number:g} is not on the grid of step {self.step:g}")
            number = self.on_grid(number)
        return int(number) if self.integer else number

    def on_grid(self, number: float) -> float:
        """``number`` rounded to the step's decimals (0.15000000000000002 → 0.15)."""
        if not self.step:
            return number
        decimals = max(0, -math.floor(math.log10(self.step)) + 2)
        return round(number, decimals)

    def show(self, value: Any) -> str:
        number = float(value)
        if self.integer or number.is_integer():
            return str(int(round(number)))
        return repr(self.on_grid(number))


@dataclass(frozen=True)
class Text:
    """Free text of at most ``max_chars`` characters, each matching the class ``allowed``."""

    max_chars: int
    allowed: str = r"[0-9eE+\-.,;\s\[\]]"  # numbers, separators, brackets: a matrix or a list

    def parse(self, raw: str) -> str:
        if len(raw) > self.max_chars:
            raise LinkError(f"text longer than {self.max_chars} characters")
        if not raw.strip():  # Gradio drops tags from a query's values: "<b>" arrives as ""
            raise LinkError("empty text")
        if not re.fullmatch(f"(?:{self.allowed})*", raw):
            raise LinkError("text with characters its box does not take")
        return raw

    def show(self, value: Any) -> str:
        return "" if value is None else str(value)


Field = Choice | Flag | Range | Text
Spec = Mapping[str, Field]  # a tab's controls by their name in the link, in display order


@dataclass(frozen=True)
class Link:
    """What a valid link asks for: the tab, values for some of its controls, hidden and locked
    control names (both subsets of the tab's)."""

    tab: str
    values: dict[str, Any] = field(default_factory=dict)
    hide: tuple[str, ...] = ()
    lock: tuple[str, ...] = ()


def is_link(params: Mapping[str, str]) -> bool:
    """Whether a query means to be a lesson link (has any key that is not Gradio's or Spaces')."""
    return any(not key.startswith(FOREIGN_PREFIX) and key not in FOREIGN for key in params)


def _names(raw: str, spec: Spec, what: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(n.strip() for n in raw.split(",") if n.strip()))
    unknown = [n for n in names if n not in spec]
    if unknown:
        raise LinkError(f"{what} names unknown controls: {', '.join(n[:20] for n in unknown[:3])}")
    return names


def decode(params: Mapping[str, str], specs: Mapping[str, Spec]) -> Link | None:
    """The Link a page's query asks for, checked against ``specs`` (tab → its Spec); None when
    the query is no link at all. Raises LinkError for anything that does not check out."""
    if not is_link(params):
        return None
    ours = {k: v for k, v in params.items() if not k.startswith(FOREIGN_PREFIX) and k not in FOREIGN}
    if len(ours) > MAX_KEYS or sum(len(k) + len(v) + 2 for k, v in ours.items()) > MAX_QUERY_CHARS:
        raise LinkError("the link is too long")
    if any(not isinstance(v, str) for v in ours.values()):
        raise LinkError("a value is not text")
    tab = ours.get("tab")
    if tab not in specs:
        raise LinkError(f"unknown tab {str(tab)[:20]!r}")
    spec = specs[tab]
    values = {}
    for key, raw in ours.items():
        if key in META:
            continue
        if key not in spec:
            raise LinkError(f"unknown control {key[:20]!r} on tab {tab}", key[:20], tab)
        try:
            values[key] = spec[key].parse(raw)
        except LinkError as err:
            raise LinkError(f"{key}: {err}", key, tab) from None
    try:
        hide = _names(ours.get("hide", ""), spec, "hide")
    except LinkError as err:
        raise LinkError(str(err), "hide", tab) from None
    lock_raw = ours.get("lock", "")
    flag = lock_raw.strip().casefold()
    if flag in FALSE_WORDS:
        lock: tuple[str, ...] = ()
    elif flag in TRUE_WORDS:  # lock=true, lock=yes, lock=on read as lock=1 (issue 25)
        lock = tuple(n for n in spec if n not in hide)
    else:
        try:
            lock = _names(lock_raw, spec, "lock")
        except LinkError as err:
            raise LinkError(str(err), "lock", tab) from None
    return Link(tab, values, hide, lock)


def encode(tab: str, spec: Spec, values: Mapping[str, Any], hide: tuple[str, ...] = (),
           lock: tuple[str, ...] = ()) -> str:
    """The query (without '?') of a link to ``tab`` with ``values`` (every control named in
    ``spec``; the link stays exact if a default changes later). ``lock`` equal to every shown
    control is written ``lock=1``."""
    pairs = [("tab", tab)] + [(name, spec[name].show(values[name])) for name in spec if name in values]
    if hide:
        pairs.append(("hide", ",".join(hide)))
    shown = tuple(n for n in spec if n not in hide)
    if lock:
        pairs.append(("lock", "1" if set(lock) == set(shown) else ",".join(lock)))
    return urlencode(pairs)
