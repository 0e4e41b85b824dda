"""The bundled EN->FR corpus: size, format, the D2L pairs, and French spelling rules."""

import re
from collections import Counter

import pytest

from transformer_lab.tasks import BUNDLED_CORPUS
from transformer_lab.tasks.corpus import build_pairs, render


@pytest.fixture(scope="module")
def lines():
    return BUNDLED_CORPUS.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def pairs(lines):
    return [tuple(line.split("\t")) for line in lines]


def test_format_and_size(lines, pairs):
    assert all(len(p) == 2 and p[0].strip() and p[1].strip() for p in pairs)
    assert all(p[0] == p[0].strip() and p[1] == p[1].strip() for p in pairs)
    assert len(set(pairs)) == len(pairs) >= 1000
    assert all(p[0][-1] in ".!?" and p[1][-1] in ".!?" for p in pairs)


def test_the_four_d2l_pairs_are_there_verbatim(lines):
    for line in ["Go.\tVa !", "I lost.\tJ'ai perdu.", "He's calm.\tIl est calme.",
                 "I'm home.\tJe suis chez moi."]:
        assert line in lines


def test_several_translations_are_rare(pairs):
    per_english = Counter(en for en, _ in pairs)
    assert max(per_english.values()) <= 2
    assert sum(c > 1 for c in per_english.values()) < 0.05 * len(per_english)


# French elides these words before a vowel or mute h: "je ai" must be "j'ai", "le école" "l'école".
ELISION = re.compile(r"\b(je|me|te|se|ne|le|la|de|ce|que) [aeiouéèêâîôûh]", re.IGNORECASE)
# à + le / les and de + le / les contract: "à le parc" must be "au parc".
CONTRACTION = re.compile(r"\b(à|de) (le|les) ", re.IGNORECASE)


def test_elision_and_contraction_rules(pairs):
    assert [fr for _, fr in pairs if ELISION.search(fr)] == []
    assert [fr for _, fr in pairs if CONTRACTION.search(fr)] == []


def test_punctuation_spacing_follows_french_usage(pairs):
    # French puts a space before ! and ?, none before . or ,
    assert [fr for _, fr in pairs if re.search(r"\S[!?]|\s[.,]", fr)] == []
    assert [en for en, _ in pairs if re.search(r"\s[!?.,]", en)] == []


@pytest.mark.parametrize(
    "en, fr",
    [
        ("She's tired.", "Elle est fatiguée."),  # agreement: feminine
        ("We're tired.", "Nous sommes fatigués."),  # masculine plural
        ("The girls left.", "Les filles sont parties."),  # participle agrees after être
        ("Mary fell.", "Mary est tombée."),
        ("They went home.", "Ils sont rentrés chez eux."),
        ("I'm not hungry.", "Je n'ai pas faim."),  # avoir idiom, negation with elision
        ("I'm twenty.", "J'ai vingt ans."),
        ("I drink water.", "Je bois de l'eau."),  # partitive with elision
        ("I'm going to the park.", "Je vais au parc."),  # à + le = au
        ("Call your aunt.", "Appelle ta tante."),
        ("I love my uncle.", "J'aime mon oncle."),
        ("It's a white house.", "C'est une maison blanche."),
        ("The hats are grey.", "Les chapeaux sont gris."),
    ],
)
def test_hand_checked_sentences(pairs, en, fr):
    assert (en, fr) in pairs


def test_generator_reproduces_the_committed_file(lines):
    assert render(build_pairs()).splitlines() == lines
