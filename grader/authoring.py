"""The short form of an exercise's hidden tests: a case is one line, the contract comes free.

``grader/spec.py`` is the full step language (FORMAT.md); most exercises need only this::

    from grader.authoring import case, contract, draw, outputs

    def build(rng):
        randn = draw(rng)
        X, Y = randn(2, 5, 8), randn(2, 5, 8)
        return [
            case(("float32, batch 2 < seq 5", "float32，批大小 2 < 序列长 5"), 2,
                 *outputs("f", X, Y, labels=("output", "weights"))),
            contract("f", X.double(), Y.double(), items=2, names=("output", "weights")),
        ]

``case`` takes the name in both languages (no separate table of Chinese names);
``outputs`` checks each returned item within the tolerance of its dtype; ``contract`` is the
case every exercise has: torch tensors in the inputs' dtype (float64 and float32), and the
caller's tensors left unchanged, said in the catalogue's words and naming the contract
mistakes (``wrong-return-type``, ``changes-input``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from grader.spec import Case, Ref, again, call, check, get, inputs, ref, returns
from grader.words import say


def draw(rng: torch.Generator) -> Callable[..., torch.Tensor]:
    """``randn(*shape, dtype=float32, scale=1.0)`` drawn from ``rng`` (in float64, then cast:
    a float32 and a float64 case of one shape see the same numbers)."""
    def randn(*shape: int, dtype: torch.dtype = torch.float32, scale: float = 1.0) -> torch.Tensor:
        return torch.randn(*shape, generator=rng, dtype=torch.float64).mul(scale).to(dtype)

    return randn


def tol(dtype: torch.dtype) -> dict[str, float]:
    """The tolerance a right answer in ``dtype`` meets (float64 tighter)."""
    return {"rtol": 1e-5, "atol": 1e-6 if dtype == torch.float64 else 1e-5}


def _dtype_of(args: tuple, kwargs: dict) -> torch.dtype:
    for value in (*args, *kwargs.values()):
        if isinstance(value, torch.Tensor) and value.is_floating_point():
            return value.dtype
    return torch.float32


def case(name: tuple[str, str], points: float, *steps: dict, hint: dict | None = None) -> Case:
    """A graded case: its name in English (the gradebook's key) and Chinese, points, steps."""
    en, zh = name
    return Case(en, points, list(steps), hint=hint, zh=zh)


def outputs(fn: str | Ref, *args: Any, labels: tuple[str, ...] = ("output",),
            tol: dict[str, float] | None = None, **kwargs: Any) -> list[dict]:
    """Call ``fn(*args, **kwargs)`` and check what it returns against the reference's, within
    the tolerance of the inputs' dtype: one label for a single tensor, else one per tuple item
    in item order (``picked`` checks them in another order). ``tol``: what differs from that
    tolerance, e.g. ``{"rtol": 1e-4}`` (scores in the hundreds) or ``{"atol": 1e-6}``."""
    if len(labels) == 1:
        return [call(fn, *args, **kwargs, check=check(label=labels[0], **_within(args, kwargs, tol)))]
    return picked(fn, *args, order=tuple(enumerate(labels)), tol=tol, **kwargs)


def picked(fn: str | Ref, *args: Any, order: tuple[tuple[int, str], ...],
           tol: dict[str, float] | None = None, **kwargs: Any) -> list[dict]:
    """Like ``outputs`` for a tuple, in the order given by (item, label) pairs, e.g.
    ``order=((1, "weights"), (0, "output"))``: the first item to differ is the one named."""
    t = _within(args, kwargs, tol)
    return [call(fn, *args, **kwargs, check=check(label=label, select=i, **t)) for i, label in order]


def _within(args: tuple, kwargs: dict, changes: dict[str, float] | None) -> dict[str, float]:
    """The tolerance of the inputs' dtype, with an author's ``changes`` to it."""
    return {**tol(_dtype_of(args, kwargs)), **(changes or {})}


def contract(fn: str | Ref, *args: Any, names: tuple[str, ...] = (), points: float = 1.0,
             name: tuple[str, str] | None = None, setup: list[dict] | None = None,
             label: str | None = None, unchanged: dict[str, str] | None = None,
             types: dict[str, str] | None = None, order: tuple[tuple[int, str], ...] | None = None,
             float32: tuple | None = None, same: tuple | None = None, **kwargs: Any) -> Case:
    """The case every exercise has: ``fn`` returns torch tensors (``names``, a tuple of them, or
    one tensor) in the dtype of its inputs, float64 and float32 alike; and a second call on the
    very tensors the first received answers the same (nothing changed in place). ``args`` are
    float64 inputs; the float32 call gets them cast.

    A module: ``setup`` makes it (``new(CLS, ..., save="m")``, ``set_params(..., dtype="float64")``),
    ``fn`` is ``ref("m")`` and ``label`` its name in the words ("AddNorm.forward"); its dtype is
    the one ``setup`` gave it, so only that one is checked. ``unchanged``: the exercise's own
    words ({"en", "zh"}) for an input changed in place, where it can say how that happens;
    ``types`` likewise for a wrong return type or dtype.

    ``order``: the (item, label) pairs the second call's answer is checked by, in that order
    (as ``picked``; default: ``names`` in item order). ``float32``: the float32 call's own
    inputs instead of ``args`` cast; ``same``: the inputs passed twice for the in-place check
    instead of ``args``, its answer within the tolerance of their dtype (``kwargs`` go to every
    call)."""
    items = len(names) if len(names) > 1 else 0
    said = label or str(fn)
    what = say("contract.tensors", names=", ".join(names)) if items else say("contract.one_tensor")
    types = {**(types or say("contract.types", fn=said, what=what)), "mistake": "wrong-return-type"}
    unchanged = {**(unchanged or say("contract.unchanged", fn=said)), "mistake": "changes-input"}
    args32 = float32 if float32 is not None else tuple(a.float() if _floating(a) else a for a in args)
    kwargs32 = {k: v.float() if _floating(v) else v for k, v in kwargs.items()}
    labels = names if items else (names[0] if names else "output",)
    t = tol(torch.float64 if same is None else _dtype_of(same, kwargs))
    checks = [check(label=label, select=i if items else None, **t) for i, label in order or enumerate(labels)]
    twice = args if same is None else same
    if name is None:
        default = say("contract.case")
        name = (default["en"], default["zh"])
    en, zh = name
    if setup is None:  # a function: read once, then called in float64 and in float32
        made, target = [get(fn, save="f")], ref("f")
        dtypes = [*returns(target, *args, items=items, label=said, fail=types, **kwargs),
                  *returns(target, *args32, items=items, label=said, fail=types, **kwargs32)]
    else:
        made, target = list(setup), fn
        dtypes = returns(target, *args, items=items, label=said, fail=types, **kwargs)
    return case((en, zh), points, *made, *dtypes,
                # The very same tensors twice: an input changed in place changes the second answer.
                *again(target if setup else fn, inputs(*twice, **kwargs), inputs(*twice, **kwargs),
                       check=checks, fail=unchanged))


def _floating(value: Any) -> bool:
    return isinstance(value, torch.Tensor) and value.is_floating_point()
