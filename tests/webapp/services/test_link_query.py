"""Lesson links without a browser: a tab's settings survive encode → decode exactly, and every
tampered query (unknown tab or name, a value off its control's choices, range or grid, a wrong
type, a huge value or query) is refused as a whole."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

from webapp.services.link_query import (
    MAX_QUERY_CHARS,
    Choice,
    Flag,
    Link,
    LinkError,
    Range,
    Text,
    decode,
    encode,
    is_link,
)

SPEC = {"task": Choice(("copy", "reverse", "sort")), "pe": Choice(("sinusoidal", "learned", "none")),
        "heads": Range(1, 8, integer=True), "dropout": Range(0.0, 0.5, 0.05),
        "lr": Range(1e-4, 10.0), "scale": Flag(), "q": Text(200)}
SPECS = {"train": SPEC, "other": {"n": Range(2, 500, 1, integer=True)}}
VALUES = {"task": "sort", "pe": "none", "heads": 2, "dropout": 0.15000000000000002, "lr": 0.123456789,
          "scale": False, "q": "1, 0, 1\n0, -1.5e-3, 2; [3]"}


def query(**params: str) -> dict[str, str]:
    return dict(params)


def roundtrip(text: str) -> Link | None:
    return decode(dict(parse_qsl(text, keep_blank_values=True)), SPECS)


def test_every_value_survives_the_round_trip():
    link = roundtrip(encode("train", SPEC, VALUES))
    assert link == Link("train", {**VALUES, "dropout": 0.15}, (), ())
    assert isinstance(link.values["heads"], int) and link.values["scale"] is False


def test_the_query_reads_as_a_teacher_would_write_it():
    text = encode("train", SPEC, {"task": "reverse", "heads": 2, "dropout": 0.0}, hide=("pe", "heads"),
                  lock=("task", "dropout", "lr", "scale", "q"))
    assert text == "tab=train&task=reverse&heads=2&dropout=0&hide=pe%2Cheads&lock=1"
    assert roundtrip("tab=train&heads=2&hide=pe,heads&lock=1") == Link(
        "train", {"heads": 2}, ("pe", "heads"), ("task", "dropout", "lr", "scale", "q"))


def test_lock_names_some_controls_or_none():
    assert roundtrip("tab=train&lock=pe,heads").lock == ("pe", "heads")
    assert roundtrip("tab=train&lock=0").lock == ()
    assert encode("train", SPEC, {}, lock=("pe",)) == "tab=train&lock=pe"


@pytest.mark.parametrize("word", ["true", "yes", "on", "TRUE", "Yes", " 1 "])
def test_lock_true_or_yes_means_lock_1(word):
    """Issue 25: teachers write lock=true and lock=yes; they mean what lock=1 means."""
    assert roundtrip(f"tab=train&hide=pe&lock={word}").lock == roundtrip(
        "tab=train&hide=pe&lock=1").lock == ("task", "heads", "dropout", "lr", "scale", "q")


@pytest.mark.parametrize("word", ["false", "no", "off", "NO"])
def test_lock_false_or_no_locks_nothing(word):
    assert roundtrip(f"tab=train&lock={word}").lock == ()


def test_a_plain_visit_and_gradios_own_keys_are_no_link():
    assert decode({}, SPECS) is None
    assert decode({"__theme": "dark", "view": "api", "_nb_redirects": "1"}, SPECS) is None
    assert not is_link({"__theme": "dark"}) and is_link({"heads": "2"})
    assert decode({"__theme": "dark", "tab": "other"}, SPECS) == Link("other")


@pytest.mark.parametrize("params", [
    query(heads="2"),  # no tab
    query(tab="exercises"),  # not a playground tab
    query(tab="train", colour="red"),  # an unknown control
    query(tab="other", heads="2"),  # another tab's control
    query(tab="train", task="translate"),  # not among the radio's choices
    query(tab="train", task="Reverse"),  # choices are exact
    query(tab="train", heads="9"), query(tab="train", heads="0"),  # outside the range
    query(tab="train", heads="2.5"),  # not whole
    query(tab="train", heads="two"), query(tab="train", heads=""),  # wrong type
    query(tab="train", heads="nan"), query(tab="train", lr="inf"), query(tab="train", lr="1e999"),
    query(tab="train", heads="0x2"), query(tab="train", heads="2" * 400),
    query(tab="train", dropout="0.12"),  # off the slider's 0.05 grid
    query(tab="train", dropout="-0.05"), query(tab="train", dropout="0.55"),
    query(tab="train", scale="yes"),
    query(tab="train", q="1, 2\n<script>"),  # characters its box does not take
    query(tab="train", q="1," * 101),  # longer than its box
    query(tab="train", q=""), query(tab="train", q="   "),  # "<b>" arrives empty from Gradio
    query(tab="train", hide="pe,colour"), query(tab="train", lock="heads,colour"),
    query(tab="other", n="5", **{f"k{i}": "1" for i in range(40)}),  # too many keys
])
def test_a_tampered_link_is_refused_as_a_whole(params):
    with pytest.raises(LinkError):
        decode(params, SPECS)


def test_the_ends_of_a_range_are_in_it():
    assert decode(query(tab="train", dropout="0", heads="8"), SPECS).values == {"dropout": 0.0,
                                                                                "heads": 8}
    assert decode(query(tab="train", dropout="-0"), SPECS).values == {"dropout": 0.0}


def test_the_query_is_bounded_whatever_its_values():
    big = {"tab": "other", "n": "5", "zz": "x" * MAX_QUERY_CHARS}
    with pytest.raises(LinkError, match="too long"):
        decode(big, SPECS)
    with pytest.raises(LinkError):
        decode({"tab": "x" * 10**6}, SPECS)


def test_numbers_are_written_short_and_exact():
    r = Range(0.0, 2.0, 0.05)
    assert [r.show(x) for x in (0.5, 1, 0.15000000000000002, 2.0)] == ["0.5", "1", "0.15", "2"]
    assert Range(1e-4, 10.0).show(0.123456789) == "0.123456789"
    assert Range(1, 8, integer=True).show(3.0) == "3"
    assert Range(0, 500, 1, integer=True).parse("7") == 7
    assert Range(0.1, 20.0, 0.1).parse("2.3") == 2.3  # 2.3 is on a 0.1 grid from 0.1


@pytest.mark.parametrize(("params", "key", "tab"), [
    ({"tab": "other", "n": "1"}, "n", "other"),  # one bad value: the tab is still known
    ({"tab": "other", "colour": "red"}, "colour", "other"),
    ({"tab": "other", "hide": "nope"}, "hide", "other"),
    ({"tab": "nowhere"}, None, None),  # no tab to open
])
def test_a_refused_link_says_which_key_and_which_tab(params, key, tab):
    with pytest.raises(LinkError) as caught:
        decode(params, SPECS)
    assert (caught.value.key, caught.value.tab) == (key, tab)
