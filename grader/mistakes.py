"""One registry of mistakes: every mistake id, its bilingual title and its message, written once.

An exercise registers its own mistakes in ``hidden/<id>/mistakes.json`` (with a mutant where
one reproduces it: the entry's named ``edit`` of the reference, or a whole
``hidden/<id>/mistakes/<name>.py``); the contract mistakes every exercise uses (a wrong return
type, an input changed in place, a tensor for a bool) are registered once in
``grader/contract_mistakes.json``. An entry is::

    "<id>": {"title": {"en": "...", "zh": "..."}, "en": "<message>", "zh": "<message>",
             "edit": {"replace": "<text in reference.py>", "with": "<the slip>"}}

``edit`` (optional; a list of such pairs for a slip in two places) makes the mutant: the
reference with that one named edit, instead of a whole copy in ``mistakes/<id>.py``. The text
to replace must occur exactly once in the reference; ``mutant_source`` refuses otherwise.

The title is what the class view and the CSV show (never cut from the message); the message
is what the learner reads. ``problems`` lists every name a test, mutant or diagnoser uses that
is not registered, and every entry without both titles: ``check`` (CI's self-check) and the
test suite refuse an exercise with any.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol


class Exercise(Protocol):
    """What the registry reads of an exercise (grader/exercises.py's Exercise)."""

    id: str

    @property
    def hidden_dir(self) -> Path: ...

    def has_hidden(self) -> bool: ...

    def hidden_cases(self, seed: int) -> list: ...

CONTRACT_FILE = Path(__file__).with_name("contract_mistakes.json")
LANGS = ("en", "zh")
MAX_TITLE = {"en": 80, "zh": 40}


@dataclass(frozen=True)
class Entry:
    """A registered mistake: its id, title and message, each in English and Chinese."""

    id: str
    title: dict[str, str]
    message: dict[str, str]
    edit: tuple[tuple[str, str], ...] = ()  # (text in the reference, the slip) pairs


def _edits(value: Any, name: str) -> tuple[tuple[str, str], ...]:
    pairs = value if isinstance(value, list) else [value] if value is not None else []
    out = []
    for pair in pairs:
        if not (isinstance(pair, dict) and set(pair) == {"replace", "with"}
                and all(isinstance(pair[k], str) for k in pair) and pair["replace"]):
            raise ValueError(f"mistake {name!r}: an edit is {{\"replace\": text, \"with\": text}}")
        out.append((pair["replace"], pair["with"]))
    return tuple(out)


def _entries(table: dict[str, Any]) -> dict[str, Entry]:
    return {name: Entry(name, dict(v.get("title") or {}), {k: v[k] for k in LANGS if k in v},
                        _edits(v.get("edit"), name))
            for name, v in table.items()}


def mutant_source(entry: Entry, reference: str) -> str:
    """The reference with ``entry``'s named edit applied; ValueError when a text to replace is
    not in the reference exactly once (the edit would be ambiguous or stale)."""
    source = reference
    for old, new in entry.edit:
        count = source.count(old)
        if count != 1:
            raise ValueError(f"mistake {entry.id!r}: the edit's text {old!r} occurs {count} times "
                             "in reference.py (it must occur exactly once)")
        source = source.replace(old, new)
    if source == reference:
        raise ValueError(f"mistake {entry.id!r}: its edit changes nothing")
    return source


@lru_cache(maxsize=1)
def contract() -> dict[str, Entry]:
    """The contract mistakes every exercise may name."""
    return _entries(json.loads(CONTRACT_FILE.read_text(encoding="utf-8")))


def own(ex: Exercise) -> dict[str, Entry]:
    """The exercise's own entries (hidden/<id>/mistakes.json); none without the hidden tests."""
    path = ex.hidden_dir / "mistakes.json"
    if not path.is_file():
        return {}
    return _entries(json.loads(path.read_text(encoding="utf-8")))


def registry(ex: Exercise) -> dict[str, Entry]:
    """Every mistake ``ex`` may name: the contract's, then its own (which may word a contract
    mistake for itself)."""
    return {**contract(), **own(ex)}


def title_of(entries: dict[str, Entry], mistake: str, lang: str = "en") -> str:
    """A mistake id as a person reads it, in ``lang`` ("en" or "zh"): its registered title in
    ``entries``; for an id nobody registered, the id with spaces."""
    entry = entries.get(mistake)
    key = "zh" if lang == "zh" else "en"
    text = (entry.title.get(key) or entry.title.get("en") or "").strip() if entry else ""
    return text or mistake.replace("-", " ")


def named_by(value: Any) -> set[str]:
    """Every ``"mistake": name`` inside a case's authored steps (fail, explain, again texts)."""
    found: set[str] = set()
    if isinstance(value, dict):
        name = value.get("mistake")
        if isinstance(name, str):
            found.add(name)
        for v in value.values():
            found |= named_by(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= named_by(v)
    return found


def diagnoser_names(path: Path) -> set[str]:
    """The string constants a diagnoser returns (``return "name"``), read without running it."""
    if not path.is_file():
        return set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.value.value for node in ast.walk(tree)
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def problems(ex: Exercise, seed: int = 0) -> list[str]:
    """What is wrong with ``ex``'s mistakes: names used but not registered (by a test, a
    mutant file or the diagnoser), titles or messages missing, titles too long. (An entry
    without a mutant is one a test or the diagnoser names.)"""
    if not ex.has_hidden():
        return []
    known = registry(ex)
    out: list[str] = []
    for case in ex.hidden_cases(seed):
        for name in sorted(named_by(case.steps) - set(known)):
            out.append(f"{ex.id}: test {case.name!r} names the unregistered mistake {name!r}")
    folder = ex.hidden_dir / "mistakes"
    files = {p.stem for p in folder.glob("*.py")} if folder.is_dir() else set()
    for name in sorted(files - set(known)):
        out.append(f"{ex.id}: mutant mistakes/{name}.py is not registered in mistakes.json")
    reference = (ex.hidden_dir / "reference.py").read_text(encoding="utf-8")
    for entry in own(ex).values():
        if entry.edit and entry.id in files:
            out.append(f"{ex.id}: mistake {entry.id!r} has both an edit and mistakes/{entry.id}.py")
        elif entry.edit:
            try:
                mutant_source(entry, reference)
            except ValueError as err:
                out.append(f"{ex.id}: {err}")
    for name in sorted(diagnoser_names(ex.hidden_dir / "diagnose.py") - set(known)):
        out.append(f"{ex.id}: diagnose.py returns the unregistered mistake {name!r}")
    for entry in known.values():
        for lang in LANGS:
            text = entry.title.get(lang, "").strip()
            if not text:
                out.append(f"{ex.id}: mistake {entry.id!r} has no {lang} title")
            elif len(text) > MAX_TITLE[lang]:
                out.append(f"{ex.id}: mistake {entry.id!r}'s {lang} title is over {MAX_TITLE[lang]} characters")
            if not entry.message.get(lang, "").strip():
                out.append(f"{ex.id}: mistake {entry.id!r} has no {lang} message")
    return out
