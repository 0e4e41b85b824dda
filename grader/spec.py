"""Data types and helpers that hidden tests and public examples use to describe cases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.sandbox.jobs import Job, JobLimits, Ref  # noqa: F401 - an author's names


def ref(name: str) -> Ref:
    """Refer to the object an earlier step saved under ``name``."""
    return Ref(name)


@dataclass
class Case:
    """One graded test: a name the learner sees, points, and steps run in the sandbox."""

    name: str
    points: float
    steps: list[dict]
    hint: dict[str, str] | None = None
    visible: bool = False
    zh: str | None = None  # the name on a Chinese page; ``name`` stays the stored key

    def __post_init__(self) -> None:
        if self.points < 0:
            raise ValueError(f"case {self.name!r}: points must be >= 0")
        if not any(s.get("check") for s in self.steps):
            raise ValueError(f"case {self.name!r}: no step carries a check, so it cannot fail")
        if self.hint is not None:
            from grader.feedback.premises import HINT_PREMISES

            if not {"en", "zh"} <= set(self.hint) <= {"en", "zh", "unless"}:
                raise ValueError(f"case {self.name!r}: a hint has 'en' and 'zh' (and may have 'unless')")
            if self.hint.get("unless", HINT_PREMISES[0]) not in HINT_PREMISES:
                raise ValueError(f"case {self.name!r}: a hint's 'unless' is one of {HINT_PREMISES}")


def zh_names(names: dict[str, str]):
    """Decorate a tests/examples ``build``: give each case its Chinese name from ``names``
    (English name -> Chinese name). A case without one is an error, so none is forgotten."""
    def wrap(build):
        def inner(*args, **kwargs) -> list[Case]:
            cases = build(*args, **kwargs)
            missing = [c.name for c in cases if not names.get(c.name)]
            if missing:
                raise ValueError(f"no Chinese name for the cases {missing}")
            for c in cases:
                c.zh = names[c.name]
            return cases

        inner.__name__, inner.__doc__ = build.__name__, build.__doc__
        return inner

    return wrap


CHECK_KINDS = ("allclose", "equal", "dtype", "shape", "type", "raises", "verify")


def check(
    kind: str = "allclose",
    *,
    label: str = "result",
    select: int | list[int] | None = None,
    rtol: float = 1e-5,
    atol: float = 1e-6,
    expected: Any = None,
    has_expected: bool | None = None,
    fail: dict[str, str] | None = None,
    true_means: dict[str, str] | None = None,
    false_means: dict[str, str] | None = None,
    explain: dict[str, dict[str, str]] | None = None,
    verify: str | None = None,
) -> dict:
    """Describe how a step's output is compared (see FORMAT.md, "Checks").

    ``fail``: the bilingual message shown whenever this check fails (instead of the generic
    one). ``true_means`` / ``false_means``: for a bool answer, what True and False claim, so a
    wrong answer reads "returns True where <false_means>" without showing any value.
    ``explain``: for an ``equal`` check on a string (a probe's status), the message per value.
    A ``fail`` or ``explain`` message may carry ``"mistake": "<name>"``: the report then names
    that mistake for the case, as if a mistake file had matched.
    """
    if kind not in CHECK_KINDS:
        raise ValueError(f"unknown check kind {kind!r}; use one of {CHECK_KINDS}")
    if (kind == "verify") != (verify is not None):
        raise ValueError('a "verify" check names its verifier: verify="<exercise id>/<name>"')
    spec: dict = {"kind": kind, "label": label, "rtol": rtol, "atol": atol}
    if verify is not None:
        spec["verify"] = verify
    for key, text in (("fail", fail), ("true_means", true_means), ("false_means", false_means)):
        if text is not None:
            if not {"en", "zh"} <= set(text) <= {"en", "zh", "mistake"}:
                raise ValueError(f"check {key!r} needs 'en' and 'zh' texts (and may name a 'mistake')")
            spec[key] = dict(text)
    if explain:
        spec["explain"] = {k: dict(v) for k, v in explain.items()}
    if (true_means is None) != (false_means is None):
        raise ValueError("give both true_means and false_means, or neither")
    if select is not None:
        spec["select"] = [select] if isinstance(select, int) else list(select)
    if has_expected or (has_expected is None and expected is not None):
        spec["expected"] = expected
    return spec


def _step(op: str, save: str | None, raises: str | None, chk: dict | None,
          target: str | Ref | None = None, **body) -> dict:
    """A step as the sandbox reads it; ``target`` (the function or class run) labels the check
    that ``raises`` implies."""
    step = {"op": op, **body}
    if save is not None:
        step["save"] = save
    if raises is not None:
        step["raises"] = raises
        if chk is None:
            chk = check("raises", label=target)
    if chk is not None:
        step["check"] = chk  # one check dict, or a list of them on the same output
    return step


def get(name: str, *, save: str | None = None, check: dict | None = None) -> dict:
    """Read a module-level name of the submission."""
    return _step("get", save, None, check, name=name)


def call(
    fn: str | Ref,
    *args: Any,
    save: str | None = None,
    raises: str | None = None,
    check: dict | None = None,
    **kwargs: Any,
) -> dict:
    """Call a module-level function of the submission, or a saved object."""
    return _step("call", save, raises, check, fn, fn=fn, args=list(args), kwargs=kwargs)


def new(
    cls: str,
    *args: Any,
    save: str | None = None,
    raises: str | None = None,
    check: dict | None = None,
    **kwargs: Any,
) -> dict:
    """Construct a module-level class of the submission."""
    return _step("new", save, raises, check, cls, cls=cls, args=list(args), kwargs=kwargs)


def set_params(obj: str, params: dict[str, Any], *, dtype: str | None = None,
               check: dict | None = None) -> dict:
    """Copy tensors into the parameters of a saved module, by dotted name (after ``.to(dtype)``)."""
    extra = {"dtype": dtype} if dtype else {}
    return _step("set_params", None, None, check, obj=obj, params=params, **extra)


def describe(obj: str, attrs: list[str], *, check: dict | None = None) -> dict:
    """Describe attributes of a saved object (``"Linear(8, 8, bias=True)"``, ``"missing"``)."""
    return _step("describe", None, None, check, obj=obj, attrs=list(attrs))


def fixture(name: str, *, save: str, **kwargs: Any) -> dict:
    """Build a trusted helper object from ``grader/sandbox/fixtures.py`` inside the sandbox."""
    return _step("fixture", save, None, None, name=name, kwargs=kwargs)


def probe(name: str, *, check: dict | list[dict], save: str | None = None, **kwargs: Any) -> dict:
    """Run a trusted probe from ``grader/sandbox/probes.py`` around learner code inside the sandbox.

    ``probe("returns", fn=ref("m"), args=[x])``: the kinds (Tensor, numpy.ndarray...) it returns;
    ``probe("train", module=ref("m"), x=x, grad_out=g)``: one backward pass and optimiser step.
    The output is compared with the same probe on the reference, like any step. A probe runs
    next to learner code, which can replace it: only what the trusted side can check in its
    output (raw values a correct computation yields) may carry points of its own.
    """
    return _step("fixture", save, None, check, name=name, kwargs=kwargs)


def mode(obj: str, *, training: bool) -> dict:
    """Put the module saved as ``obj`` in training (``True``) or evaluation mode
    (``module.train(training)``, grader/sandbox/probes.py): later calls then run in that mode."""
    return _step("fixture", None, None, None, name="mode",
                 kwargs={"module": Ref(obj), "training": training})


def keep(*values: Any, save: str | None = None, check: dict | None = None) -> dict:
    """Hand back ``values`` (one value, or a list of them) as the sandbox received them. With
    ``save``, later steps pass the very same object (``ref(save)``): each step's inputs are
    otherwise a fresh copy, so a call could never see what an earlier call did to them."""
    return _step("keep", save, None, check, args=list(values))


def returns(fn: Ref, *args: Any, items: int = 0, label: str, fail: dict[str, str],
            **kwargs: Any) -> list[dict]:
    """Steps that check what ``fn(*args, **kwargs)`` returns: ``items`` tensors in a tuple (0: one
    tensor), each of the reference's dtype, and of the reference's kinds (torch.Tensor...).

    The dtypes are judged on the trusted side from the bytes that came back, so no code in the
    sandbox can claim a float64 it did not return. Whether a value was a torch.Tensor or a
    numpy array leaves no trace in its bytes: only the ``returns`` probe, in the sandbox, can say
    it (grader/sandbox/probes.py), and it is the one fact here learner code could misreport."""
    picks: list[int | None] = list(range(items)) or [None]
    dtypes = [check("dtype", label=label, select=i, fail=fail) for i in picks]
    return [call(fn, *args, check=dtypes, **kwargs),
            probe("returns", fn=fn, args=list(args), kwargs=kwargs,
                  check=check("equal", label=label, fail=fail))]


@dataclass(frozen=True)
class Inputs:
    """The arguments of one call, for ``again``."""

    args: tuple
    kwargs: dict


def inputs(*args: Any, **kwargs: Any) -> Inputs:
    """Arguments for ``again``: ``inputs(X, None)``, ``inputs(Q, K, V, mask=M)``."""
    return Inputs(args, kwargs)


def again(fn: str | Ref, first: Inputs, *later: Inputs, check: dict | list[dict],
          fail: dict[str, str], prefix: str = "kept") -> list[dict]:
    """Steps that show, in values the trusted side checks, whether ``fn`` changes its inputs in
    place (issue 19, F6: a probe in the sandbox that said so could be replaced by learner code).

    ``fn`` is called on ``first``; then on each of ``later``, where every tensor that also is in
    ``first`` (the same Python object) is passed as the very object that first call received and
    may have changed. Each later answer is checked against the reference's answer on the same
    inputs: only a right answer passes, and code in the sandbox cannot make one without
    computing it from the inputs as they were. The kept tensors are read back after the first
    call, and each later call is also made on fresh copies, unchecked (for diagnosers): those
    records only choose the words of a failure (judge._again_problem), ``fail`` (changed in
    place) where the tensors read back are not what was passed, else what any wrong answer
    is told.

    Pick ``later`` so that the usual in-place changes show in its answer (a masked softmax that
    wrote -1e6 into ``X`` is seen by a call without a mask); an in-place change no later answer
    can show is invisible to the trusted side, and is not charged. Tensors are told apart from
    other arguments by their ``shape``; ``prefix`` keeps the saved names of two groups apart.
    """
    checks = check if isinstance(check, list) else [check]
    # The learner's answers on fresh copies first, unchecked: a diagnoser reading a case's
    # first call (hidden/<id>/diagnose.py) then reads a value case, and names a wrong answer.
    steps: list[dict] = [call(fn, *one.args, check=[], **one.kwargs) for one in later]
    kept: dict[int, Ref] = {}
    for value in (*first.args, *first.kwargs.values()):
        if hasattr(value, "shape") and id(value) not in kept:
            name = f"{prefix}{len(kept)}"
            kept[id(value)] = Ref(name)
            steps.append(keep(value, save=name))

    def same(value: Any) -> Any:
        return kept.get(id(value), value)

    steps.append(call(fn, *map(same, first.args), **{k: same(v) for k, v in first.kwargs.items()}))
    # The kept tensors read back right after that first call (a second call could undo what
    # it did: a mask flipped twice); check=[]: not judged, but its value comes back.
    back = len(steps)
    steps.append(keep(*kept.values(), check=[]))
    for one in later:
        says = {"after": back - len(steps), "says": dict(fail)}  # counted from the checked step
        steps.append(call(fn, *map(same, one.args), check=[{**c, "again": says} for c in checks],
                          **{k: same(v) for k, v in one.kwargs.items()}))
    return steps
