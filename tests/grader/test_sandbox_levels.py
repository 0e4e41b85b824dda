"""The worker reports which confinement layers it reached; a weaker host is reported as such."""

from grader import sandbox
from grader.api import Grader, protected_paths
from grader.exercises import get
from grader.pool import WorkerPool


def test_summary_words():
    full = {"user": "nobody", "landlock": 7, "seccomp": True}
    assert sandbox.summarize(full) == "full"
    assert sandbox.summarize({**full, "landlock": 0}) == "partial"
    assert sandbox.summarize({"user": "uid 0 (switch disabled)", "landlock": 0, "seccomp": False}) == "minimal"
    assert sandbox.summarize({"user": "uid 1000 (not root)", "landlock": 6, "seccomp": True}) == "full"


def test_seccomp_program_is_well_formed():
    code = sandbox.seccomp_program(1234)
    assert len(code) % 8 == 0 and len(code) // 8 < 4096  # BPF_MAXINSNS


def test_read_only_paths_never_expose_protected_folders(tmp_path):
    paths = sandbox.read_only_paths(protected_paths())
    for p in paths:
        for prot in protected_paths():
            assert not (prot + "/").startswith(p.rstrip("/") + "/"), (p, prot)


def test_layers_left_off_are_reported_and_grading_still_works():
    pool = WorkerPool(protected=protected_paths(), without=("landlock", "seccomp"))
    with Grader(pool=pool) as g:
        level = g.sandbox_level()
        assert level["landlock"] == 0 and level["seccomp"] is False
        assert level["summary"] == "minimal"
        assert level["repo_blocked"] is False  # honestly reported: without Landlock, root-owned
        ex = get("manual-attention")          # files readable by nobody stay readable
        assert g.grade(ex.id, ex.reference_source()).full_marks
