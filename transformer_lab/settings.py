"""How every ``LAB_*`` environment variable is declared, parsed and read, and the library's own.

One form for the whole product. A package's settings are a frozen dataclass whose fields are
declared with :func:`setting`: the variable's name, its default, how it is parsed (with its
range) and one line that says what it sets. ``Settings.from_env`` reads them all at once; the
README's Settings table is generated from the same declarations (scripts/settings_table.py).

Each package declares its own variables beside its code (nanoGPT's ``GPTConfig`` lives with the
model): this module for the library, ``grader/paths.py``, ``gradebook/settings.py``,
``webapp/settings.py`` and ``webapp/serving/settings.py``; ``webapp.settings.AppSettings`` holds
them all. Those modules are the only product code that reads a ``LAB_*`` variable
(tests/test_settings_documented.py). This module lives in the lowest package so that the
grader, the gradebook and the web app can all use it; it imports nothing of theirs, nor torch.

A variable that is unset or blank takes its default; any other value that the parser refuses
raises ValueError naming the variable and the value it got.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

Env = Mapping[str, str]


@dataclass(frozen=True)
class Parser:
    """Text to a value: ``convert(name, text)`` raises ValueError naming ``name``. ``accepts``
    is the range in words (the README's column); ``strip`` False keeps surrounding blanks (a
    password, a path), and then only an empty value counts as unset."""

    convert: Callable[[str, str], Any]
    accepts: str
    strip: bool = True

    def __call__(self, name: str, text: str) -> Any:
        return self.convert(name, text)


def number(cast: Callable[[str], float] = int, minimum: float = 1) -> Parser:
    """A finite number of at least ``minimum``; ``cast`` is ``int`` (a whole number), ``float``,
    or any function from text to a number."""

    def convert(name: str, text: str) -> float:
        try:
            value = cast(text)
        except (ValueError, OverflowError):
            raise ValueError(f"{name} must be a number, got {text!r}") from None
        if not math.isfinite(value) or value < minimum:
            raise ValueError(f"{name} must be a number >= {minimum:g}, got {text!r}")
        return value

    kind = "a whole number" if cast is int else "a number"
    if minimum == -math.inf:
        accepts = kind
    elif 0 < minimum < 1e-6:
        accepts = f"{kind} > 0"
    else:
        accepts = f"{kind} ≥ {minimum:g}"
    return Parser(convert, accepts)


FLAG_WORDS = {"1": True, "on": True, "yes": True, "true": True,
              "0": False, "off": False, "no": False, "false": False}


def _flag(name: str, text: str) -> bool:
    if text.lower() not in FLAG_WORDS:
        raise ValueError(f"{name} must be 1 or 0 (on/off), got {text!r}")
    return FLAG_WORDS[text.lower()]


FLAG = Parser(_flag, "1 or 0 (on/off, yes/no, true/false)")


def choice(options: tuple[str, ...]) -> Parser:
    """One of ``options``, in any case."""

    def convert(name: str, text: str) -> str:
        if text.lower() not in options:
            raise ValueError(f"{name} must be one of {', '.join(options)}; got {text.lower()!r}")
        return text.lower()

    return Parser(convert, "one of " + ", ".join(f"`{o}`" for o in options))


def text(accepts: str = "text", *, strip: bool = True) -> Parser:
    """The text itself."""
    return Parser(lambda name, raw: raw, accepts, strip)


def is_one(accepts: str = "1 or 0") -> Parser:
    """True for exactly ``1``, False for anything else (the variable's old, lenient reading)."""
    return Parser(lambda name, raw: raw == "1", accepts)


PATH = Parser(lambda name, raw: Path(raw), "a folder", strip=False)


@dataclass(frozen=True)
class Var:
    """One environment variable: its name, one line of documentation, its parser, and how the
    README shows its default (``shown``). ``default_from`` computes the default from the
    environment when it depends on the host (a Space, say)."""

    name: str
    doc: str
    parse: Parser
    shown: str
    default_from: Callable[[Env], Any] | None = None

    def read(self, default: Any, env: Env | None = None) -> Any:
        """This variable's value in ``env`` (default ``os.environ``), or the default."""
        env = os.environ if env is None else env
        raw = env.get(self.name, "")
        if not (raw.strip() if self.parse.strip else raw):
            return self.default_from(env) if self.default_from else default
        return self.parse(self.name, raw.strip() if self.parse.strip else raw)


def _shown(default: Any) -> str:
    if isinstance(default, bool):
        return "1" if default else "0"
    if isinstance(default, float) and default.is_integer():
        return str(int(default))
    return str(default)


def setting(name: str, default: Any, doc: str, parse: Parser | None = None, *, shown: str | None = None,
            default_from: Callable[[Env], Any] | None = None) -> Any:
    """A dataclass field that reads ``$name``: ``x: int = setting("LAB_X", 3, "what it sets",
    number(int))``."""
    var = Var(name, doc, parse or text(), _shown(default) if shown is None else shown, default_from)
    return field(default=default, metadata={"var": var})


S = TypeVar("S", bound="Settings")


class Settings:
    """The base of each package's frozen settings dataclass: reads the fields made with
    :func:`setting` from the environment."""

    @classmethod
    def variables(cls) -> dict[str, Var]:
        """Field name -> the variable it reads, in declaration order."""
        return {f.name: f.metadata["var"] for f in fields(cls) if "var" in f.metadata}

    @classmethod
    def read(cls, field_name: str, env: Env | None = None) -> Any:
        """One field's value from the environment now (for code that reads it at use, as tests
        that set the variable expect); ``from_env`` reads them all."""
        default = next(f.default for f in fields(cls) if f.name == field_name)
        return cls.variables()[field_name].read(default, env)

    @classmethod
    def from_env(cls: type[S], env: Env | None = None) -> S:
        """Every field from the environment (``env`` defaults to ``os.environ``)."""
        return cls(**{name: cls.read(name, env) for name in cls.variables()})

    @classmethod
    def chosen(cls, field_name: str, env: Env | None = None) -> str | None:
        """The text a deployment set for one field's variable, None when it is unset or blank
        (for code that must tell a chosen value from the default)."""
        var = cls.variables()[field_name]
        raw = (os.environ if env is None else env).get(var.name, "")
        return (raw if raw.strip() else None) if var.parse.strip else (raw or None)

    @classmethod
    def write(cls, field_name: str, value: Any) -> None:
        """Set one field's variable in this process's environment, so later reads and the
        processes it starts see it (webapp.services.hidden_tests points LAB_HIDDEN_DIR at the
        hidden tests it fetched): the one way product code writes a ``LAB_*`` variable."""
        os.environ[cls.variables()[field_name].name] = str(value)


# --- the library's own variables -----------------------------------------------------------------

D2L_FRA_ENG_URL = "http://d2l-data.s3-accelerate.amazonaws.com/fra-eng.zip"
D2L_FRA_ENG_SHA1 = "94646ad1522d915e7b0f9296181140edcf86a4f5"


@dataclass(frozen=True)
class LibrarySettings(Settings):
    """The library's: where downloads go, where Tatoeba comes from, how many torch threads."""

    # None here: the home folder is looked up when the variable is read (HOME may change)
    cache_dir: Path | None = setting(
        "LAB_CACHE_DIR", None, "where downloads are kept",
        Parser(lambda name, raw: Path(raw).expanduser(), "a folder", strip=False),
        shown="`~/.cache/transformer_lab`",
        default_from=lambda env: Path.home() / ".cache" / "transformer_lab")
    tatoeba_url: str = setting("LAB_TATOEBA_URL", D2L_FRA_ENG_URL,
                               "where `tatoeba` downloads from (a mirror, a local file)",
                               text("a URL", strip=False), shown="D2L's fra-eng")
    tatoeba_sha1: str = setting("LAB_TATOEBA_SHA1", D2L_FRA_ENG_SHA1,
                                "the checksum that download must have",
                                text("40 hex digits", strip=False), shown="D2L's checksum")
    # None: the policy of transformer_lab/threads.py decides from the cores
    torch_threads: int | None = setting("LAB_TORCH_THREADS", None, "torch threads per process",
                                        number(int), shown="1 on 2 cores or fewer, else half")
