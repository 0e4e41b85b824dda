"""Diagnosis by properties for permutation-invariance: how the answer moves with the tolerance.

Only answers on the grader's own nearly-equivariant layers are read; their gaps are known from
the case (``eps`` times a position, jittered by at most a factor 2 either way): "equal" where
every gap is above the ``atol`` given says the function uses a looser tolerance than it was
given; "not equal" where every gap is far below it, a stricter one (exact equality, or a
tolerance of its own); "not equal" on gaps far below 1e-8 says it compares exactly. A too
strict answer alone cannot tell exact equality from a tolerance of its own: it returns both
names, and the other cases (and the mistake files' runs) decide.
"""

from grader.diagnose import value_of

DEFAULT_ATOL = 1e-5  # the statement's default
MAX_GAP = 2 * 5  # eps is jittered up to 2x; positions differ by at most 5 in these cases


def diagnose(case, records):
    eps = {s.save: s.kwargs.get("eps") for s in case.steps
           if s.op == "fixture" and s.name == "nearly_equivariant"}
    for i, s in enumerate(case.steps):
        if s.op != "call" or not s.checks or not s.args:
            continue
        layer = getattr(s.args[0], "name", None)
        answer = value_of(records, i)
        if layer not in eps or not isinstance(answer, bool):
            continue
        given = s.kwargs.get("atol")
        atol, e = DEFAULT_ATOL if given is None else given, eps[layer]
        if answer and e / 2 > atol:
            return "atol-ignored"  # "equal" although every gap is above the atol it was given
        if not answer and e * MAX_GAP < 1e-9:
            return "no-tolerance"  # "not equal" on gaps far below any tolerance: exact
        if not answer and e * MAX_GAP < atol / 10:
            return {"no-tolerance", "atol-ignored"}  # stricter than atol: exact, or its own
    return None
