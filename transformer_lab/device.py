"""Pick the torch device: cuda, then mps, then cpu, or a forced choice."""

from __future__ import annotations

import torch

from .errors import lab_error

CHOICES = ("auto", "cpu", "cuda", "mps")


def available_devices() -> list[str]:
    """Devices usable on this machine, best first ("cpu" always last)."""
    found = []
    if torch.cuda.is_available():
        found.append("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        found.append("mps")
    found.append("cpu")
    return found


def pick_device(name: str = "auto") -> torch.device:
    """Return the device for ``name``; "auto" picks cuda, then mps, then cpu.

    A forced device that is absent raises ValueError with the devices present.
    """
    name = (name or "auto").lower()
    if name not in CHOICES:
        raise lab_error("unknown_choice", what="device", value=name, choices=", ".join(CHOICES))
    present = available_devices()
    if name == "auto":
        return torch.device(present[0])
    if name not in present:
        raise ValueError(f"device {name!r} is not available here; available: {', '.join(present)}")
    return torch.device(name)
