"""Input limits: each kind of bad input gets its own clear, bilingual refusal; good input comes out clean."""

from __future__ import annotations

import json
import re

import nbformat
import pytest

from gradebook import (
    ANONYMOUS,
    CleanSubmission,
    InputLimits,
    Refused,
    check_exercise,
    clean_code,
    clean_learner,
    validate_submission,
)

CJK = re.compile(r"[\u4e00-\u9fff]")
IDS = ["manual-attention", "masked-softmax"]
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"


def rejected(reason: str, fn, *args, **kwargs) -> Refused:
    """Call fn, expect a refusal for `reason` whose message is a sentence in both languages."""
    with pytest.raises(Refused) as info:
        fn(*args, **kwargs)
    err = info.value
    assert err.reason == reason, err
    assert isinstance(err, ValueError)
    assert err.message["en"].endswith(".") and len(err.message["en"]) > 20
    assert CJK.search(err.message["zh"]), err.message["zh"]
    assert str(err) == err.message["en"] + "\n" + err.message["zh"]
    return err


# -- code ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["", "   \n\t\n", None, b"", b"\n\n"])
def test_empty_code(code):
    rejected("empty", clean_code, code)


def test_one_megabyte_of_code_is_refused_with_the_sizes():
    code = "x = 1  # padding\n" * 62_000  # 17 bytes a line: ~1.05 MB
    err = rejected("too_large", clean_code, code)
    assert "1.1 MB" in err.message["en"] and "100 kB" in err.message["en"]
    rejected("too_large", clean_code, code.encode())
    # Just under the cap passes; just over does not (the cap counts UTF-8 bytes, not characters).
    assert clean_code("#" + "a" * 99_998) == "#" + "a" * 99_998 + "\n"
    rejected("too_large", clean_code, "#" + "注" * 34_000)  # 102,001 bytes in 34,001 characters


@pytest.mark.parametrize("data", [PNG, b"\xff\xfe\x00\x00", "café = 1\n".encode("latin-1"),
                                  "a = 1\x00\n"])
def test_binary_uploads(data):
    rejected("binary", clean_code, data)


def test_text_is_normalised_and_always_ends_with_a_newline():
    assert clean_code(b"\xef\xbb\xbfa = 1\r\nb = 2\r") == "a = 1\nb = 2\n"  # BOM, CRLF, CR
    assert clean_code("x = '注意力'") == "x = '注意力'\n"


def test_one_line_code_is_never_taken_for_a_path_by_the_grader():
    from grader.submission import read_submission

    # Unchanged, this text names a file the grader would read and grade instead.
    line = "hidden/manual-attention/reference.py"
    assert read_submission(clean_code(line)) == line + "\n"


def _notebook(*cells) -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    return nbformat.writes(nb)


def test_notebook_code_cells_are_extracted():
    text = _notebook(nbformat.v4.new_markdown_cell("# Exercise 1"),
                     nbformat.v4.new_code_cell("import torch\n%matplotlib inline\nx = 1"),
                     nbformat.v4.new_code_cell("%%timeit\nslow()"),
                     nbformat.v4.new_code_cell("!pip install foo\ny = 2"))
    for given in (text, text.encode(), ("\ufeff" + text).encode()):
        code = clean_code(given, filename="work.ipynb")
        assert "import torch" in code and "x = 1" in code and "y = 2" in code
        assert "%" not in code and "pip" not in code and "slow()" not in code
        assert "Exercise 1" not in code
    # Recognised by its content too, when the app passes no file name.
    assert "x = 1" in clean_code(text)


@pytest.mark.parametrize("broken", [
    '{"cells": [{"cell_type": "code", "source": "x = 1"',  # cut off mid-way
    '{"cells": 3, "nbformat": 4}',  # valid JSON, not a notebook
    "not json at all",
])
def test_broken_notebooks(broken):
    rejected("bad_notebook", clean_code, broken, filename="Work.IPYNB")


def test_notebook_with_no_code_is_empty():
    rejected("empty", clean_code, _notebook(nbformat.v4.new_markdown_cell("only words")),
             filename="a.ipynb")


def test_a_big_notebook_upload_is_fine_when_its_code_is_small():
    nb = json.loads(_notebook(nbformat.v4.new_code_cell("x = 1")))
    nb["cells"][0]["outputs"] = [{"output_type": "display_data", "metadata": {},
                                  "data": {"image/png": "A" * 1_500_000}}]
    assert clean_code(json.dumps(nb), filename="a.ipynb").strip() == "x = 1"
    rejected("too_large", clean_code, json.dumps(nb), filename="a.ipynb",
             limits=InputLimits(max_upload_bytes=1_000_000))


def test_code_of_the_wrong_type():
    with pytest.raises(TypeError, match="text or bytes"):
        clean_code(123)


# -- learner names ------------------------------------------------------------------------------


@pytest.mark.parametrize("given, expected", [
    (None, ANONYMOUS),
    ("   ", ANONYMOUS),
    ("  Ada   Lovelace ", "Ada Lovelace"),
    ("ada\n\tbob\r\n", "ada bob"),  # pasted line breaks are only whitespace
    ("ＡＤＡ１", "ADA1"),  # full-width letters and digits (a Chinese keyboard) become ASCII
    ("李雷", "李雷"),
    ("Zoë O'Neil (TA)", "Zoë O'Neil (TA)"),
    ("ada.l_99-x@uni", "ada.l_99-x@uni"),
])
def test_learner_names_are_normalised(given, expected):
    assert clean_learner(given) == expected


@pytest.mark.parametrize("name", [
    "=cmd|' /C calc'!A0",  # a spreadsheet formula
    "-ada",
    "ada\u202egnp.exe",  # right-to-left override: shows as a different name
    "ada\u200bbob",  # zero-width space: two names that look the same
    "ada\x00",
    "<script>alert(1)</script>",
    "ada 🧠",
    "x" * 65,
])
def test_odd_learner_names_are_refused(name):
    rejected("bad_name", clean_learner, name)


def test_learner_name_of_the_wrong_type():
    with pytest.raises(TypeError, match="text"):
        clean_learner(42)


# -- exercise ids and the whole check -----------------------------------------------------------


def test_unknown_exercise_lists_the_known_ones():
    assert check_exercise(" masked-softmax ", IDS) == "masked-softmax"
    for bad in ("no-such-exercise", "", None, "../hidden/manual-attention"):
        err = rejected("unknown_exercise", check_exercise, bad, IDS)
        assert "manual-attention, masked-softmax" in err.message["en"]


def test_validate_submission_returns_clean_parts():
    got = validate_submission(b"def f():\r\n    return 1", IDS, "manual-attention", " ＡＤＡ ")
    assert got == CleanSubmission("manual-attention", "def f():\n    return 1\n", "ADA")


def test_validate_submission_refuses_each_bad_part():
    rejected("unknown_exercise", validate_submission, "x = 1", IDS, "nope", "ada")
    rejected("bad_name", validate_submission, "x = 1", IDS, "manual-attention", "=1+1")
    rejected("empty", validate_submission, "", IDS, "manual-attention", "ada")
    rejected("binary", validate_submission, PNG, IDS, "manual-attention", "ada")


# -- notebooks: cheap bounds before any parsing (issue 19, F5) ---------------------------------


def _v3(cells: int, source: str = "x = 1") -> str:
    cell = {"cell_type": "code", "input": source, "language": "python", "outputs": [], "metadata": {}}
    return json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {},
                       "worksheets": [{"cells": [cell] * cells, "metadata": {}}]},
                      separators=(",", ":"))


@pytest.mark.parametrize("text, reason", [
    (_v3(55_000, ""), "too_many_cells"),  # 4.9 MB: 15 s in nbformat, then refused as empty
    ('{"nbformat": 4, "cells": [' + "[]," * 1_600_000 + "[]]}", "notebook_too_complex"),
    ('{"nbformat": 4, "cells": ' + "[" * 5000 + "]" * 5000 + "}", "bad_notebook"),
    ('{"nbformat": 4, "cells": [' + '{"cell_type": "code", "source": ' + "[" * 70 + "]" * 70
     + "}]}", "bad_notebook"),
])
def test_a_huge_notebook_is_refused_before_it_is_parsed(text, reason):
    import time

    t0 = time.process_time()
    err = rejected(reason, clean_code, text, filename="huge.ipynb")
    assert time.process_time() - t0 < 0.1
    assert err.message["en"] and err.message["zh"]


def test_nbformat_3_and_4_are_read_and_other_versions_refused():
    assert clean_code(_v3(2, "import torch\n%time x = 1\ny = 2"), filename="a.ipynb") \
        == "import torch\ny = 2\n\nimport torch\ny = 2\n"
    nb4 = {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
           "cells": [{"cell_type": "code", "source": ["a = 1\n", "b = 2"], "metadata": {},
                      "outputs": [], "execution_count": None}]}
    assert clean_code(json.dumps(nb4), filename="a.ipynb") == "a = 1\nb = 2\n"
    err = rejected("bad_notebook", clean_code, json.dumps({**nb4, "nbformat": 2}), filename="a.ipynb")
    assert "nbformat 2" in err.message["en"] and "nbformat 2" in err.message["zh"]
    rejected("bad_notebook", clean_code, json.dumps({**nb4, "cells": [{"cell_type": "code", "source": 3}]}),
             filename="a.ipynb")
