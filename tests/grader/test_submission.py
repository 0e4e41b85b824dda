"""Submissions from text, .py files and notebooks (code cells only, magics and shell lines dropped)."""

import nbformat
import pytest

from grader.submission import SubmissionError, read_submission


def test_notebook_keeps_code_cells_and_drops_magics(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# title"),
                nbformat.v4.new_code_cell("%matplotlib inline\nimport torch\n!pip install x\nx = 1"),
                nbformat.v4.new_code_cell("%%bash\necho hi"),
                nbformat.v4.new_code_cell("y = x + 1")]
    path = tmp_path / "sub.ipynb"
    nbformat.write(nb, path)
    src = read_submission(path)
    assert "import torch" in src and "y = x + 1" in src
    assert "%" not in src and "!pip" not in src and "echo" not in src and "# title" not in src
    ns = {}
    exec(src, ns)
    assert ns["y"] == 2
    assert read_submission(path.read_text()) == src  # pasted notebook JSON works too


def test_py_file_and_text(tmp_path):
    path = tmp_path / "a.py"
    path.write_text("x = 3\n")
    assert read_submission(path) == "x = 3\n"
    assert read_submission("x = 3\n") == "x = 3\n"


def test_a_pasted_path_is_text_not_a_file_on_the_server(tmp_path):
    secret = tmp_path / "reference.py"
    secret.write_text("answer = 42\n")
    assert read_submission(str(secret)) == str(secret)


def test_missing_file_and_bad_types_are_clear(tmp_path):
    with pytest.raises(SubmissionError, match="no such file"):
        read_submission(tmp_path / "nope.py")
    with pytest.raises(TypeError, match="source text or a path"):
        read_submission(42)
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    with pytest.raises(SubmissionError, match="notebook"):
        read_submission(bad)
