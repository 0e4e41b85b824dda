"""The public API and the CLI: reports, Gradescope JSON, threads, notebooks, exit codes."""

import json
import subprocess
import sys
import threading

import nbformat
import pytest

from grader import api
from grader.exercises import get
from grader.paths import REPO_ROOT

EX = "multi-head-attention"
MAX = 13  # 12, plus the out_proj = identity case of issue 18 (head order and shared slices show)


def test_list_and_get_exercise():
    ids = [e.id for e in api.list_exercises()]
    assert ids[:3] == ["manual-attention", "permutation-invariance", "multi-head-attention"]
    info = api.get_exercise(EX)
    assert "SimpleMultiHeadAttention" in info.starter_code
    assert "out_proj" in info.statement["en"] and "out_proj" in info.statement["zh"]
    assert info.examples and all(c.visible for c in info.examples)
    assert info.max_score == MAX
    with pytest.raises(api.UnknownExercise, match="python -m grader list"):
        api.get_exercise("nope")


def test_report_has_the_gradescope_shape(grader):
    report = grader.grade(EX, get(EX).starter, learner="ada")
    gs = report.to_gradescope()
    assert set(gs) >= {"score", "max_score", "tests"}
    assert gs["max_score"] == MAX and 0 <= gs["score"] < MAX
    for t in gs["tests"]:
        assert set(t) == {"name", "score", "max_score", "status", "output", "visibility"}
        assert t["status"] in ("passed", "failed")
    assert gs["extra_data"]["learner"] == "ada"
    json.dumps(gs)  # serialisable


def test_hidden_tests_reveal_no_inputs_or_expected_values(grader):
    # A wrong answer's feedback names the mistake but carries no hidden numbers.
    ex = get(EX)
    wrong = [m for m in ex.mistakes() if m.name == "no-scale"][0]
    report = grader.grade(EX, wrong.source)
    text = report.to_json()
    assert "no-scale" in report.mistakes()
    assert "[[" not in text and "tensor(" not in text


def test_syntax_error_gets_its_own_message(grader):
    report = grader.grade(EX, "def f(:\n    pass\n")
    assert report.status == "syntax_error" and report.score == 0
    assert "Syntax error" in report.tests[0].message["en"] and "语法错误" in report.tests[0].message["zh"]
    assert "line 1" in report.tests[0].details


def test_concurrent_grading_from_threads(grader):
    ref = get(EX).reference_source()
    wrong = get(EX).starter
    results = {}

    def work(i):
        results[i] = grader.grade(EX, ref if i % 2 == 0 else wrong).score

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [results[i] for i in range(0, 6, 2)] == [MAX, MAX, MAX]
    assert all(results[i] < MAX for i in range(1, 6, 2))


def test_notebook_submission(grader, tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("%load_ext autoreload\n!nvidia-smi"),
                nbformat.v4.new_code_cell(get(EX).reference_source())]
    path = tmp_path / "work.ipynb"
    nbformat.write(nb, path)
    assert grader.grade(EX, path).full_marks


def test_public_examples_run_without_the_reference(grader):
    report = grader.run_examples(EX, get(EX).starter)
    assert [t.visible for t in report.tests] == [True] * len(report.tests)
    assert report.tests[0].passed  # the starter already has the right submodules


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_json_prints_exactly_one_report(tmp_path):
    path = tmp_path / "sub.py"
    path.write_text('print("noise on stdout")\n' + get(EX).reference_source())
    out = _cli("grade", EX, str(path), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)  # the whole stdout is one JSON document
    assert report["score"] == report["max_score"] == MAX
    assert "noise on stdout" in report["extra_data"]["stdout"]


@pytest.mark.slow
def test_cli_errors_exit_non_zero(tmp_path):
    missing = _cli("grade", EX, str(tmp_path / "missing.py"))
    assert missing.returncode != 0 and "no such file" in missing.stderr
    unknown = _cli("grade", "no-such-exercise", str(tmp_path / "x.py"))
    assert unknown.returncode != 0 and "unknown exercise" in unknown.stderr
    listing = _cli("list")
    assert listing.returncode == 0 and "manual-attention" in listing.stdout
