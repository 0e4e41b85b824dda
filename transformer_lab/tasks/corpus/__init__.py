"""Generator of the bundled EN->FR corpus `data/en_fr.tsv` (run `python -m transformer_lab.tasks.corpus`).

The hand-written pairs live in `data/en_fr_handwritten.tsv`; the modules here add template
sentences conjugated with care (agreement of adjectives and participles, elision j'/n'/l'/d',
au / à la / à l', partitives du / de la / des, de after a negation). Where English does not show
gender ("I", "you", "they") the French uses the masculine form. The library never imports this
package at run time: the TSV file is the artifact, and a test checks the two agree.
"""

from __future__ import annotations

from pathlib import Path

from .actions import food, likes, past, past_etre, places, present
from .describe import ages, avoir_idioms, be_adjective, colours, counting, family, have

DATA = Path(__file__).resolve().parents[2] / "data"
HANDWRITTEN = DATA / "en_fr_handwritten.tsv"
OUTPUT = DATA / "en_fr.tsv"
TEMPLATES = [
    be_adjective, avoir_idioms, ages, have, counting, colours, family,
    likes, food, present, past, past_etre, places,
]


def read_handwritten(path: Path = HANDWRITTEN) -> list[tuple[str, str]]:
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            en, fr = line.split("\t")
            pairs.append((en, fr))
    return pairs


def build_pairs() -> list[tuple[str, str]]:
    """Hand-written pairs first, then every template's, with exact duplicates dropped."""
    pairs = read_handwritten()
    for template in TEMPLATES:
        pairs += template()
    return list(dict.fromkeys(pairs))


def render(pairs: list[tuple[str, str]]) -> str:
    return "".join(f"{en}\t{fr}\n" for en, fr in pairs)


def write(path: Path = OUTPUT) -> int:
    """Rewrite the corpus file; returns the number of pairs."""
    pairs = build_pairs()
    path.write_text(render(pairs), encoding="utf-8")
    return len(pairs)
