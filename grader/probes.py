"""Trusted probes that run inside the sandbox around a learner's function or module.

They check what plain value comparison misses: a call that changes its inputs in place,
numpy where the contract says Tensor, a module that cannot be trained (backward fails, the
gradients do not reach the projections, an optimiser step changes nothing). A probe returns
plain data; the trusted side compares it with what the same probe gives on the reference and
only ever echoes it through a fixed vocabulary (it runs next to learner code, so its output
is as untrusted as theirs).
"""

from __future__ import annotations

from typing import Any

import torch

PROJECTIONS = ("query", "key", "value", "out_proj")


def describe(value: Any) -> Any:
    """The kind of a returned value, nested through tuples: 'Tensor:float64:cpu', 'ndarray'..."""
    if isinstance(value, torch.Tensor):
        return f"Tensor:{str(value.dtype).removeprefix('torch.')}:{value.device.type}"
    if isinstance(value, (tuple, list)):
        return [describe(v) for v in value[:8]]
    if isinstance(value, bool):
        return "bool"
    return type(value).__module__.split(".")[0] + "." + type(value).__name__ \
        if type(value).__module__ not in ("builtins",) else type(value).__name__


def _args(args: list, kwargs: dict) -> tuple[list, dict, list, dict]:
    """Keep the caller's tensors and pass the learner private copies to compare afterwards."""
    keep_a = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    keep_k = {k: v.clone() if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
    return list(args), dict(kwargs), keep_a, keep_k


def returns(fn: Any, args: list | None = None, kwargs: dict | None = None) -> Any:
    """What ``fn(*args, **kwargs)`` returns, described (types, dtypes, devices), not its values."""
    return describe(fn(*(args or []), **(kwargs or {})))


def unchanged(fn: Any, args: list | None = None, kwargs: dict | None = None) -> list[str]:
    """Names of the tensor arguments ``fn`` changed in place (empty when it left them alone)."""
    args, kwargs, keep_a, keep_k = _args(args or [], kwargs or {})
    fn(*args, **kwargs)
    changed = [f"argument {i + 1}" for i, (a, k) in enumerate(zip(args, keep_a, strict=True))
               if isinstance(a, torch.Tensor) and not _same(a, k)]
    changed += [name for name, v in kwargs.items()
                if isinstance(v, torch.Tensor) and not _same(v, keep_k[name])]
    return changed


def _same(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and bool(torch.equal(a, b) or (
        a.is_floating_point() and torch.allclose(a, b, rtol=0, atol=0, equal_nan=True)))


def train(module: Any, x: torch.Tensor, grad_out: torch.Tensor, mask: Any = None,
          lr: float = 0.1, h: float = 1e-4) -> tuple:
    """One training step: ``(status, query_ok, key_ok, value_ok, out_proj_ok, step_changes)``.

    The loss is ``(output * grad_out).sum()``. ``status`` is 'ok', 'backward-inplace' (an
    in-place op overwrote a tensor autograd needs), 'backward-error', 'no-graph' (the output
    does not require grad) or 'not-a-tensor'. ``<name>_ok``: autograd's gradient of that
    projection's weight agrees with a central finite difference of the learner's own forward
    along a random direction, so a forward that is wrong but differentiable is not charged
    twice, while ``.detach()``, ``.data``, ``torch.no_grad()`` or numpy inside it are.
    ``step_changes``: one SGD step changes the output. Run it on a float64 module.
    """
    def run() -> Any:  # a fresh copy of x each time: changing it in place is graded elsewhere
        out = module(x.clone()) if mask is None else module(x.clone(), mask=mask)
        return out[0] if isinstance(out, (tuple, list)) else out

    module.zero_grad(set_to_none=True)
    out = run()
    if not isinstance(out, torch.Tensor):
        return ("not-a-tensor", False, False, False, False, False)
    if not out.requires_grad:
        return ("no-graph", False, False, False, False, False)
    g = grad_out.to(out.dtype)
    try:
        (out * g).sum().backward()
    except RuntimeError as exc:
        status = "backward-inplace" if "inplace" in str(exc) else "backward-error"
        return (status, False, False, False, False, False)
    gen = torch.Generator().manual_seed(0)
    agree = []
    for name in PROJECTIONS:
        w = getattr(getattr(module, name, None), "weight", None)
        if not isinstance(w, torch.Tensor):
            agree.append(True)  # missing names are the structure test's business
            continue
        d = torch.randn(w.shape, generator=gen, dtype=torch.float64).to(w.dtype)
        with torch.no_grad():
            w.add_(h * d)
            up = float((run() * g).sum())
            w.sub_(2 * h * d)
            down = float((run() * g).sum())
            w.add_(h * d)
        numeric = (up - down) / (2 * h)
        autograd = float((w.grad * d).sum()) if w.grad is not None else 0.0
        # Loose enough for a float32 step inside a float64 module (graded elsewhere); a
        # gradient that misses a path is off by a large fraction.
        agree.append(abs(numeric - autograd) <= 1e-6 + 1e-2 * max(abs(numeric), abs(autograd)))
    before = out.detach().clone()
    with torch.no_grad():
        for p in module.parameters():
            if p.grad is not None:
                p -= lr * p.grad
        after = run()
    changed = isinstance(after, torch.Tensor) and after.shape == before.shape and \
        not torch.equal(after.detach(), before)
    return ("ok", *agree, bool(changed))


PROBES = {"returns": returns, "unchanged": unchanged, "train": train}
