"""Typed grader internals: checks, steps, cases, records, runs, known mistakes, raw results.

Hidden tests and examples write steps and checks as plain dicts (grader/spec.py), and the
sandbox sends records back as plain dicts (validated in grader/sandbox/messages.py). Both formats stay
as they are on disk and on the wire; this module converts at those edges, so the trusted side
reads typed fields (``step.name``, ``check.kind``, ``record.error``) instead of dict keys.
Modelled on Otter-Grader's ``TestCase`` / ``TestCaseResult``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grader.sandbox.results import RawResult  # noqa: F401 - the typed results read it here too
from grader.spec import Case, Ref

# The key under which each step op stores what it runs (spec.py writes them so).
_NAME_KEY = {"get": "name", "call": "fn", "new": "cls", "set_params": "obj", "describe": "obj",
             "fixture": "name", "keep": "save"}


@dataclass(frozen=True)
class Check:
    """How one step's output is compared (FORMAT.md, "Checks")."""

    kind: str = "allclose"
    label: str | None = None  # None: the step's own label
    select: tuple[int, ...] = ()
    rtol: float = 1e-5
    atol: float = 1e-6
    expected: Any = None
    literal: bool = False  # ``expected`` was written in the test (else: the reference's output)
    fail: dict[str, str] | None = None
    true_means: dict[str, str] | None = None
    false_means: dict[str, str] | None = None
    explain: dict[str, dict[str, str]] = field(default_factory=dict)
    # spec.again: {"after": the step that read the kept inputs back, counted from this one (-1:
    # the step before), "says": the message where they were changed in place} (grader/feedback/judge.py)
    again: dict | None = None
    # kind "verify": "<exercise id>/<name>", a function of hidden/<id>/verify.py that judges an
    # output no single expected value can (a dropout's: any mask, but the right scale)
    verify: str | None = None

    @classmethod
    def from_dict(cls, d: dict) -> Check:
        return cls(kind=d["kind"], label=d.get("label"), select=tuple(d.get("select") or ()),
                   rtol=d.get("rtol", 1e-5), atol=d.get("atol", 1e-6), expected=d.get("expected"),
                   literal="expected" in d, fail=d.get("fail"), true_means=d.get("true_means"),
                   false_means=d.get("false_means"), explain=d.get("explain") or {},
                   again=d.get("again"), verify=d.get("verify"))


@dataclass(frozen=True)
class Step:
    """One step of a case: what it runs (``op`` on ``name``), its inputs and its checks."""

    op: str
    name: str | Ref | None  # the function, class, module-level name, saved object or fixture
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    save: str | None = None
    raises: str | None = None
    checks: tuple[Check, ...] = ()
    params: dict = field(default_factory=dict)  # set_params: dotted name -> tensor
    authored: dict = field(default_factory=dict, repr=False, compare=False)  # the wire form

    @classmethod
    def from_dict(cls, d: dict) -> Step:
        raw = d.get("check")
        checks = () if raw is None else tuple(Check.from_dict(c) for c in (
            raw if isinstance(raw, list) else [raw]))
        return cls(op=d["op"], name=d.get(_NAME_KEY.get(d["op"], "name")),
                   args=tuple(d.get("args", ())), kwargs=dict(d.get("kwargs", {})),
                   save=d.get("save"), raises=d.get("raises"), checks=checks,
                   params=dict(d.get("params", {})), authored=d)

    def to_wire(self, nonce: str | None = None) -> dict:
        """What the sandbox may see of this step: its inputs, never expected values.

        A fixture gets the submission's nonce, so its class and attribute names differ per
        submission (grader/sandbox/fixtures.py) and introspecting them says nothing about the answer.
        """
        out = dict(self.authored)
        if "check" in out:
            out["check"] = {}  # the runner sends a value back only for checked steps
        if nonce is not None and self.op == "fixture":
            out["kwargs"] = {**out.get("kwargs", {}), "nonce": nonce}
        return out


def _label(step: Step, made: dict[str, str], got: dict[str, str]) -> str:
    """The learner's own name for what a step ran (never the grader's save names)."""
    if step.op == "call" and isinstance(step.name, Ref):
        cls = made.get(step.name.name)
        if cls:
            return f"{cls}.forward"
        return got.get(step.name.name, "the layer you were given")  # a function read by `get`
    if step.op == "keep":
        return "the grader's inputs"
    if step.op in ("set_params", "describe"):  # the contract's weights / attributes of a module
        return made.get(step.name, "your module")
    if step.op == "fixture":
        # A probe around a module the case made runs its forward first: an exception that
        # leaves the probe is forward's (the train probe turns backward's into a status), so it
        # is told as forward's, not as its first check's (blind sets 4 and 5: "`loss.backward()`
        # raised" for a forward that raised on every test).
        module = step.kwargs.get("module")
        if isinstance(module, Ref) and made.get(module.name):
            return f"{made[module.name]}.forward"
        first = step.checks[0].label if step.checks else None
        return first or "the grader's check of your code"
    return str(step.name or step.op)


@dataclass(frozen=True)
class TestCase:
    """One graded case, typed: its steps and each step's label. What the judge, the mutant
    matcher, a diagnoser (hidden/<id>/diagnose.py) and a verifier all read."""

    __test__ = False  # not a pytest class

    name: str
    points: float
    steps: tuple[Step, ...]
    labels: tuple[str, ...]
    visible: bool
    hint: dict[str, str] | None
    zh: str

    @classmethod
    def of(cls, case: Case) -> TestCase:
        steps = tuple(Step.from_dict(s) for s in case.steps)
        made = {s.save: s.name for s in steps if s.op == "new" and s.save}
        got = {s.save: s.name for s in steps if s.op == "get" and s.save and isinstance(s.name, str)}
        return cls(case.name, case.points, steps, tuple(_label(s, made, got) for s in steps),
                   case.visible, case.hint, case.zh or "")

    def to_wire(self, nonce: str | None = None) -> list[dict]:
        return [s.to_wire(nonce) for s in self.steps]


@dataclass(frozen=True)
class ErrorInfo:
    """An exception raised by submitted code: its type, class names, text and traceback."""

    type: str
    classes: tuple[str, ...]  # its class and bases ("mro" on the wire)
    message: str
    traceback: str

    @classmethod
    def from_wire(cls, d: dict) -> ErrorInfo:
        return cls(d["type"], tuple(d["mro"]), d["message"], d["traceback"])

    def to_wire(self) -> dict:
        return {"type": self.type, "mro": list(self.classes), "message": self.message,
                "traceback": self.traceback}


@dataclass(frozen=True)
class Record:
    """What one step produced: a value, an error, or (for a ``raises`` step) what it raised."""

    value: Any = None
    error: ErrorInfo | None = None
    raises: bool = False  # the step expected an exception; ``raised`` says what came
    raised: tuple[str, ...] | None = None  # class names of the exception, None: returned
    message: str = ""  # the raised exception's text

    @classmethod
    def from_wire(cls, d: dict) -> Record:
        if "error" in d:
            return cls(error=ErrorInfo.from_wire(d["error"]))
        if "raised" in d:
            raised = d["raised"]
            return cls(value=d.get("value"), raises=True,
                       raised=None if raised is None else tuple(raised), message=d.get("message", ""))
        return cls(value=d.get("value"))

    def to_wire(self) -> dict:
        if self.error is not None:
            return {"error": self.error.to_wire()}
        if self.raised is not None:
            return {"raised": list(self.raised), "message": self.message}
        if self.raises:
            return {"raised": None, "value": self.value}
        return {"value": self.value}


def records_of(wire: list[dict]) -> list[Record]:
    return [Record.from_wire(r) for r in wire]


@dataclass
class Run:
    """One run of a submission (sandboxed or trusted), indexed: records per case and how it loaded."""

    cases: dict[int, list[Record]] = field(default_factory=dict)
    load_kind: str | None = None  # "syntax" or "load_error" when the code did not load
    load_error: ErrorInfo | None = None
    sandbox: dict | None = None
    done: bool = False

    @classmethod
    def of(cls, messages: list) -> Run:
        """Index messages a runner wrote (already checked by grader/sandbox/messages.py or trusted)."""
        run = cls()
        for msg in messages:
            if not isinstance(msg, dict):
                continue
            kind = msg.get("kind")
            if kind == "case" and isinstance(msg.get("index"), int) and msg["index"] not in run.cases:
                records = msg.get("records")
                if isinstance(records, list) and all(isinstance(r, dict) for r in records):
                    run.cases[msg["index"]] = records_of(records)
            elif kind in ("syntax", "load_error") and run.load_kind is None:
                run.load_kind, run.load_error = kind, ErrorInfo.from_wire(msg["error"])
            elif kind == "sandbox" and run.sandbox is None:
                run.sandbox = msg.get("level")
            elif kind == "done":
                run.done = True
        return run


@dataclass
class Mistake:
    """A known-wrong variant: its name, bilingual message and source; once run on the hidden
    cases (grader/bundle.py), its records per case."""

    name: str
    message: dict[str, str]
    source: str = ""
    records: dict[int, list[Record]] = field(default_factory=dict)
