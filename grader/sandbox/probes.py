"""Trusted probes that run inside the sandbox around a learner's function or module.

They check what plain value comparison misses: numpy where the contract says Tensor, a module
that cannot be trained (backward fails, the gradients do not reach the projections, an
optimiser step changes nothing). A probe returns plain data; the trusted side compares it with
what the same probe gives on the reference and only ever echoes it through a fixed vocabulary.

A probe runs next to learner code, which can replace it (issue 19, F6), so a point may rest on
its output only where that output is raw values a correct computation yields (``train``'s
gradients). In-place changes to the inputs are no probe's word any more: spec.again shows them
in the answers of later calls, checked on the trusted side; dtypes are judged there from the
returned bytes (spec.returns). What is left to ``returns`` is the one fact no byte carries:
whether a value was a torch.Tensor or a numpy array.
"""

from __future__ import annotations

from typing import Any

import torch

PROJECTIONS = ("query", "key", "value", "out_proj")


def describe(value: Any) -> Any:
    """The kind of a returned value, nested through tuples: 'Tensor', 'numpy.ndarray', 'float'.
    Not its dtype: that is judged on the trusted side from the bytes (spec.returns)."""
    if isinstance(value, torch.Tensor):
        return "Tensor"
    if isinstance(value, (tuple, list)):
        return [describe(v) for v in value[:8]]
    if isinstance(value, bool):
        return "bool"
    return type(value).__module__.split(".")[0] + "." + type(value).__name__ \
        if type(value).__module__ not in ("builtins",) else type(value).__name__


def returns(fn: Any, args: list | None = None, kwargs: dict | None = None) -> Any:
    """What ``fn(*args, **kwargs)`` returns, described (kinds), not its values."""
    return describe(fn(*(args or []), **(kwargs or {})))


def train(module: Any, x: torch.Tensor, grad_out: torch.Tensor, mask: Any = None,
          lr: float = 0.1) -> tuple:
    """One training step: ``(status, grad_query, grad_key, grad_value, grad_out_proj, after)``.

    The loss is ``(output * grad_out).sum()``. ``status`` is 'ok', 'backward-inplace' (an
    in-place op overwrote a tensor autograd needs), 'backward-error', 'no-graph' (the output
    does not require grad) or 'not-a-tensor'. The gradients of the four projections' weights
    (None where one is missing, 'no-gradient' where none reached it) and the output after one
    SGD step are raw
    values: the trusted side compares them with the reference's on the same weights, so this
    probe can be patched by learner code but not made to pass without the right gradients.
    """
    def run() -> Any:  # a fresh copy of x each time: changing it in place is graded elsewhere
        out = module(x.clone()) if mask is None else module(x.clone(), mask=mask)
        return out[0] if isinstance(out, (tuple, list)) else out

    module.zero_grad(set_to_none=True)
    out = run()
    if not isinstance(out, torch.Tensor):
        return ("not-a-tensor", None, None, None, None, None)
    if not out.requires_grad:
        return ("no-graph", None, None, None, None, None)
    try:
        (out * grad_out.to(out.dtype)).sum().backward()
    except RuntimeError as exc:
        status = "backward-inplace" if "inplace" in str(exc) else "backward-error"
        return (status, None, None, None, None, None)
    grads: list[Any] = []
    for name in PROJECTIONS:
        w = getattr(getattr(module, name, None), "weight", None)
        if not isinstance(w, torch.Tensor):
            grads.append(None)  # missing names are the structure test's business
        else:
            grads.append(w.grad.detach().clone() if w.grad is not None else "no-gradient")
    with torch.no_grad():
        for p in module.parameters():
            if p.grad is not None:
                p -= lr * p.grad
        after = run()
    return ("ok", *grads, after.detach() if isinstance(after, torch.Tensor) else None)


def mode(module: Any, training: bool) -> None:
    """Put a learner's module in training (``True``) or evaluation mode, as its user would:
    ``module.train(training)``. Nothing is judged here; the answers of later calls are."""
    module.train(training)


PROBES = {"returns": returns, "train": train, "mode": mode}
