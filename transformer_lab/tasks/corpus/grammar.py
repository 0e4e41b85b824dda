"""French grammar helpers of the corpus generator: subjects, conjugation lists, elision."""

from __future__ import annotations

from dataclasses import dataclass

VOWELS = "aeiouhàâéèêëîïôûœ"


@dataclass(frozen=True)
class Subj:
    """One subject: its English forms and its French form, person (0 je .. 4 ils) and agreement."""

    en: str  # "He"
    be: str  # "He is"
    be_c: str  # "He's"
    be_neg: str  # "He isn't"
    do_neg: str  # "He doesn't"
    third: bool  # English verb takes -s
    fr: str  # "il"
    person: int  # index into 5-form conjugation lists: je, tu, il/elle, nous, ils/elles
    agr: int  # index into 4-form adjective lists: m, f, m pl, f pl
    stress: str  # French stressed pronoun for "chez ...": moi, toi, lui, ...


ME = Subj("I", "I am", "I'm", "I'm not", "I don't", False, "je", 0, 0, "moi")
YOU = Subj("You", "You are", "You're", "You aren't", "You don't", False, "tu", 1, 0, "toi")
HE = Subj("He", "He is", "He's", "He isn't", "He doesn't", True, "il", 2, 0, "lui")
SHE = Subj("She", "She is", "She's", "She isn't", "She doesn't", True, "elle", 2, 1, "elle")
WE = Subj("We", "We are", "We're", "We aren't", "We don't", False, "nous", 3, 2, "nous")
THEY = Subj("They", "They are", "They're", "They aren't", "They don't", False, "ils", 4, 2, "eux")
TOM = Subj("Tom", "Tom is", "Tom's", "Tom isn't", "Tom doesn't", True, "Tom", 2, 0, "lui")
MARY = Subj("Mary", "Mary is", "Mary's", "Mary isn't", "Mary doesn't", True, "Mary", 2, 1, "elle")
GIRLS = Subj(
    "The girls", "The girls are", "The girls are", "The girls aren't", "The girls don't",
    False, "les filles", 4, 3, "elles",
)
BOYS = Subj(
    "The boys", "The boys are", "The boys are", "The boys aren't", "The boys don't",
    False, "les garçons", 4, 2, "eux",
)
PRONOUNS = [ME, YOU, HE, SHE, WE, THEY]
PEOPLE = [TOM, MARY, GIRLS, BOYS]

ETRE = ["suis", "es", "est", "sommes", "sont"]
AVOIR = ["ai", "as", "a", "avons", "ont"]


def cap(s: str) -> str:
    return s[0].upper() + s[1:]


def clause(s: Subj, verb: str, neg: bool = False) -> str:
    """Subject + conjugated verb, with elision: j'ai, je n'ai pas, il n'est pas ..."""
    if neg:
        ne = "n'" if verb[0] in VOWELS else "ne "
        core = f"{ne}{verb} pas"
    else:
        core = verb
    if s.fr == "je" and core[0] in VOWELS:
        return "j'" + core
    return f"{s.fr} {core}"


def rot(items: list, i: int, k: int) -> list:
    """k items of `items` starting at position i (wrapping): spreads combinations evenly."""
    return [items[(i + j) % len(items)] for j in range(k)]
