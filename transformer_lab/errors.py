"""The library's learner-facing input errors, each named by a key, with its English template.

A raise site names its error and fields (``raise lab_error("unknown_choice", what="device",
value=name, choices="auto, cpu")``) instead of writing a sentence, so the app can render the
same error in the page's language: webapp.i18n holds every language's template under
``error.<key>`` (its English copied from ``TEMPLATES``, one source) with the same fields, and
a test checks that each key here has them. This module holds English only and imports nothing
but transformer_lab.message: no torch, no app.
"""

from __future__ import annotations

from transformer_lab.message import LabError

# key -> English template (str.format fields). ``str()`` of the error is this, filled in: the
# sentence each raise site wrote before it carried a key.
TEMPLATES: dict[str, str] = {
    # a value outside a fixed list (device, task, model, corpus, schedule, pe, ...)
    "unknown_choice": "unknown {what} {value!r}; choose one of {choices}",
    "toy_unknown_kind": "unknown toy task kind {value!r}; choose one of {choices}.",
    "toy_unknown_symbols": "unknown symbols {symbols}; this task uses: {allowed}.",
    "bench_unknown_sections": "unknown bench section(s) {sections}; choose from {choices}",
    "heads_not_divisor": (
        "d_model={d_model} is not divisible by heads={heads}: each head gets d_model / heads "
        "features, so pick heads among the divisors of {d_model}"
    ),
    "sinusoidal_table_odd": (
        "sinusoidal encoding pairs a sine with a cosine, so d_model must be even and at least 2; "
        "got d_model={d_model}"
    ),
    "sinusoidal_pe_odd": (
        "sinusoidal positional encoding pairs sines with cosines, so d_model must be even; got "
        "d_model={d_model} (use an even size or pe='learned')"
    ),
    "sentence_empty": "the sentence is empty: type an English sentence to translate.",
}


def lab_error(key: str, **fields: object) -> LabError:
    """The library's error ``key`` (a key of TEMPLATES) with ``fields``, ready to raise."""
    return LabError.keyed(key, TEMPLATES[key], **fields)
