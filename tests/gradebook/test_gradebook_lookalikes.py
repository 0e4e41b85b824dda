"""Guest and API labels may not imitate a signed-in name with Unicode look-alikes (red-team F7).

The look-alikes are the ones a red team found past the old hand-made list, plus a few taken
from Unicode's confusables.txt; the data now comes from that file (lookalikes.py).
"""

from __future__ import annotations

import pytest

from gradebook import Refused, lookalikes
from gradebook import identity as ids

SIGNED = frozenset({ids.fold("alice"), ids.fold("bob")})
RED_TEAM = ["ɑlice", "ᴀlice", "aլice", "bօb", "Ьob", "ƅob", "bᴏb"]  # U+0251 1D00 056C 0585 042C 0185 1D0F
# From confusables.txt: Cherokee GO (13AA, AB7A), Cherokee SI (ABAF ~ ƅ), Latin small capital
# L (029F), Greek omicron, fullwidth and mathematical letters, a Cyrillic о and і.
FROM_CONFUSABLES = ["Ꭺlice", "ꭺlice", "ꮟob", "aʟice", "bοb", "ｂｏｂ",
                    "𝐚lice", "аlіce", "𝖻ob"]


@pytest.mark.parametrize("name", RED_TEAM + FROM_CONFUSABLES)
def test_a_lookalike_of_a_signed_in_name_is_refused(name):
    for via_api in (False, True):
        with pytest.raises(Refused) as err:
            ids.resolve(ids.Claim(name, ids.new_browser_key(), via_api=via_api), None, SIGNED)
        assert err.value.reason == "bad_name"
        assert err.value.message["en"] and err.value.message["zh"]


@pytest.mark.parametrize("name", ["ɑlice", "ᴀlice", "bօb", "Ьob", "ƅob", "bᴏb", "Ꭺlice", "ꭺlice"])
def test_the_skeleton_of_a_lookalike_is_the_ascii_name(name):
    assert ids.fold(name) in SIGNED


@pytest.mark.parametrize("name,label", [
    ("张伟", "张伟 (guest)"), ("Ольга", "Ольга (guest)"), ("Ольга Smith", "Ольга Smith (guest)"),
    ("Li 张伟", "Li 张伟 (guest)"), ("José", "José (guest)"), ("Zoë", "Zoë (guest)"),
    ("山田たろう", "山田たろう (guest)"), ("Ἀλέξανδρος", "Ἀλέξανδρος (guest)"), ("rob", "rob (guest)"),
    ("tom", "tom (guest)"), ("alicia", "alicia (guest)"), ("bobby", "bobby (guest)"),
])
def test_names_that_imitate_nobody_are_accepted(name, label):
    got = ids.resolve(ids.Claim(name, ids.new_browser_key()), None, SIGNED)
    assert got.label == label and got.kind == "guest"


def test_distinct_ascii_letters_keep_distinct_skeletons():
    # Joining look-alike pairs transitively would make r ~ t ~ u ~ y; the map never passes
    # through another ASCII character, so each letter and digit stays itself.
    table = lookalikes.ascii_map()
    assert not any(ch.isascii() for ch in table)
    skeletons = {lookalikes.skeleton(ch) for ch in "abcdefghijklmnopqrstuvwxyz"}
    assert len(skeletons) == 26
    assert table["ɑ"] == "a" and table["ᴀ"] == "a" and table["Ь"] == "b" and table["օ"] == "o"


def test_a_word_may_not_mix_scripts_but_a_name_may():
    assert lookalikes.mixed_script_word("aլice") == "aլice"  # Latin + Armenian
    assert lookalikes.mixed_script_word("Ольга Smith") is None  # one script per word
    assert lookalikes.mixed_script_word("Li张") is None  # Latin + Han is allowed by UTS #39
    assert lookalikes.script_of("լ") == "ARMENIAN" and lookalikes.script_of("-") == "COMMON"
