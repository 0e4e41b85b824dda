"""The Train page's choices as one typed ExperimentConfig, checked (no torch at import).

The page's controls, the train API and the training queue all build their runs here, on the
library's presets (transformer_lab.experiments): the task, positional-encoding and attention
lists and the step defaults are written once, here or there. Importing this module loads no
torch, so the page can lay out its controls from it before the first run.
"""

from __future__ import annotations

from dataclasses import fields

from transformer_lab.errors import lab_error
from transformer_lab.experiments import (
    ATTENTION_KINDS,
    MODELS,
    OFFERED,
    SEQ2SEQ_TASKS,
    ExperimentConfig,
    check_settings,
)
from webapp.i18n import Term, input_error
from webapp.settings import WebSettings

TASKS = SEQ2SEQ_TASKS  # the Train page's tasks and attention kinds (its encodings: OFFERED)
KINDS = ATTENTION_KINDS
# The settings the page offers, in its order, and their whole-number ceilings (experiments.OFFERED)
PAGE_FIELDS = tuple(OFFERED)
LIMITS = {name: offer["whole"] for name, offer in OFFERED.items() if "whole" in offer}
CHOICES = (*PAGE_FIELDS, "device", "seed", "model", "corpus")  # what page_config takes
PAGE_DEFAULTS = {"device": "cpu", "seed": 0, "model": "transformer"}  # unless page_config is told
# The Train page as it opens: reverse, with a shorter budget than the preset's ceiling.
PAGE_START = {"task": "reverse", "steps": 600}
API_STEPS = 300  # the train API's default: a quick run
_CAST = {"int": int, "float": float}  # a field's declared type -> how a control's value becomes it
_TYPES = {f.name: f.type for f in fields(ExperimentConfig)}


def page_config(task: str = "reverse", **choices) -> ExperimentConfig:
    """The preset of ``task`` with the page's ``choices`` (CHOICES, by name) on top, checked
    (ValueError if bad).

    A page setting (PAGE_FIELDS) left out or None keeps the preset's value; device, seed and
    model default to PAGE_DEFAULTS. ``corpus`` (translate): "bundled" or "tatoeba"; None takes
    $LAB_CORPUS, else "bundled"."""
    for name in choices:
        if name not in CHOICES:
            raise TypeError(f"page_config() got an unexpected keyword argument {name!r}")
    if task not in TASKS:
        raise lab_error("unknown_choice", what="task", value=task, choices=", ".join(TASKS))
    choices = {**PAGE_DEFAULTS, **choices}
    if choices["model"] not in MODELS:
        raise lab_error("unknown_choice", what="model", value=choices["model"],
                        choices=", ".join(MODELS))
    corpus = choices.pop("corpus", None)
    chosen = {k: v for k, v in choices.items() if v is not None or k not in PAGE_FIELDS}
    if "dropout" in chosen:
        chosen["dropout"] = float(chosen["dropout"])
    c = ExperimentConfig.from_preset(task, **chosen)
    check_limits(c)
    # A host with internet (a Space) may set LAB_CORPUS=tatoeba: D2L's Tatoeba fra-eng is then
    # downloaded once (checksum verified, cached), with the bundled corpus as the fallback.
    corpus = corpus or WebSettings.read("corpus")
    if corpus not in ("bundled", "tatoeba"):
        raise input_error("unknown_pick", what="corpus", value=corpus, choices="bundled or tatoeba")
    c = c.replace(eval_every=max(1, min(c.eval_every, c.steps // 4 or 1)),  # a few points on short runs
                  val_size=min(c.val_size, 256),  # validation stays a fraction of a second per check
                  corpus=corpus)
    check_settings(task, c)
    return c


def check_limits(c: ExperimentConfig) -> None:
    """Raise the page's error (in the learner's language) unless each whole-number setting the
    page offers lies within its LIMITS."""
    for name, (low, high) in LIMITS.items():
        value = getattr(c, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise input_error("whole_from", name=Term(name), low=low, high=high, value=value)


def typed(values: dict) -> dict:
    """The values of the page's controls (or the train API's parameters), by name, as
    page_config takes them: whole numbers through int(), fractions through float(), as their
    fields are typed. A cleared number box raises TypeError, which the page shows."""
    out = {}
    for name, value in values.items():
        cast = _CAST.get(_TYPES.get(name))
        out[name] = cast(value) if cast else value
    return out


def choices(c: ExperimentConfig) -> dict:
    """The page's choices that made ``c`` (page_config(c.task, **choices(c)) rebuilds it)."""
    return {k: getattr(c, k) for k in CHOICES}


def rechoose(c: ExperimentConfig, **changes) -> ExperimentConfig:
    """``c`` with some of the page's choices changed, rebuilt as the page would (eval_every
    follows steps)."""
    return page_config(c.task, **{**choices(c), **changes})


def page_preset(task: str) -> ExperimentConfig:
    """The page's run for the preset of ``task`` (what choosing the task fills in)."""
    return page_config(task)


def first_view() -> ExperimentConfig:
    """The Train page's settings as it opens (PAGE_START on the task's preset)."""
    return rechoose(page_preset(PAGE_START["task"]), steps=PAGE_START["steps"])


def start_values() -> ExperimentConfig:
    """The page's first view without checking it (no torch): what its controls show at load."""
    return ExperimentConfig.from_preset(PAGE_START["task"], steps=PAGE_START["steps"],
                                        device="cpu")
