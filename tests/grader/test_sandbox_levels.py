"""The worker reports which confinement layers it reached, and a weaker host refuses to grade."""

import pytest

from grader.api import Grader, protected_paths
from grader.exercises import get
from grader.sandbox import confine as sandbox
from grader.sandbox import seccomp
from grader.sandbox.pool import SandboxUnavailable, WorkerPool


def test_level_names():
    strict = {"user": "nobody", "landlock": 7, "seccomp": True, "namespaces": True}
    assert sandbox.level_name(strict) == "strict"
    assert sandbox.level_name({**strict, "namespaces": False}) == "full"
    assert sandbox.level_name({**strict, "user": "uid 0 (switch disabled)"}) == "isolated"
    assert sandbox.level_name({**strict, "landlock": 0}) == "basic"
    assert sandbox.level_name({**strict, "seccomp": False}) == "basic"
    assert sandbox.level_name({"user": "uid 1000 (not root)", "landlock": 6, "seccomp": True}) == "full"


def test_without_landlock_signal_scoping_the_level_is_not_strict():
    """Issue 19, F3: with Landlock 5 (kernels before 6.12) the log said "strict" although only
    seccomp kept signals in; now that host is "full", and what is missing is said."""
    five = {"user": "nobody", "landlock": 5, "seccomp": True, "namespaces": True}
    assert sandbox.level_name(five) == "full"
    assert sandbox.level_name({**five, "landlock": 6}) == "strict"
    missing = sandbox.missing_layers(five)
    assert any("signal scoping" in m and "ABI 5 here" in m for m in missing), missing
    assert not any("signal scoping" in m for m in sandbox.missing_layers({**five, "landlock": 7}))


def test_required_level_defaults_to_what_the_host_offers_never_below_the_floor(monkeypatch):
    monkeypatch.delenv("LAB_SANDBOX_MIN", raising=False)
    assert sandbox.required_level("strict") == "strict"
    assert sandbox.required_level("full") == "full"
    assert sandbox.required_level("basic") == "isolated"  # a weak host refuses by default
    monkeypatch.setenv("LAB_SANDBOX_MIN", "basic")  # a deliberate, weaker choice
    assert sandbox.required_level("strict") == "basic"
    monkeypatch.setenv("LAB_SANDBOX_MIN", "nonsense")
    with pytest.raises(ValueError, match="LAB_SANDBOX_MIN"):
        sandbox.required_level("strict")


def test_seccomp_program_is_well_formed():
    code = seccomp.program(1234)
    assert len(code) % 8 == 0 and len(code) // 8 < 4096  # BPF_MAXINSNS


def test_read_only_paths_never_expose_protected_folders(tmp_path):
    paths = sandbox.read_only_paths(protected_paths())
    for p in paths:
        for prot in protected_paths():
            assert not (prot + "/").startswith(p.rstrip("/") + "/"), (p, prot)


@pytest.mark.parametrize("layers", [("landlock",), ("seccomp",), ("landlock", "seccomp")])
def test_grader_refuses_when_a_layer_is_missing(layers, monkeypatch):
    """Fail closed: without Landlock or seccomp nothing is graded, and the message says what is
    missing and how to allow it knowingly. The hidden reference is never read by learner code."""
    monkeypatch.delenv("LAB_SANDBOX_MIN", raising=False)
    ex = get("manual-attention")
    reader = f"print(open({str(ex.hidden_dir / 'reference.py')!r}).read())\n"
    pool = WorkerPool(protected=protected_paths(), without=layers)
    with Grader(pool=pool) as g:
        level = g.sandbox_level()
        assert level["summary"] == "basic" and level["offered"] != "basic"
        for source in (ex.reference_source(), reader):
            with pytest.raises(SandboxUnavailable) as err:
                g.grade(ex.id, source)
            text = str(err.value)
            assert "LAB_SANDBOX_MIN" in text
            for layer in layers:
                assert {"landlock": "Landlock", "seccomp": "seccomp"}[layer] in text


def test_a_weaker_level_can_be_allowed_knowingly(monkeypatch):
    monkeypatch.setenv("LAB_SANDBOX_MIN", "basic")
    pool = WorkerPool(protected=protected_paths(), without=("landlock", "seccomp"))
    with Grader(pool=pool) as g:
        ex = get("manual-attention")
        assert g.grade(ex.id, ex.reference_source()).full_marks
