"""Issue 26, item 10: a slider takes a value past either end as that end (gradio_patch, patch 5)
instead of raising Gradio's English "Value 120 is greater than maximum value 12."; a bounded
gr.Number keeps Gradio's own check."""

from __future__ import annotations

import gradio as gr
import pytest

from webapp.serving import gradio_patch


def test_a_slider_takes_a_value_past_an_end_as_that_end():
    gradio_patch.clamp_sliders()
    snap = gr.Slider(0, 16, value=0, step=1)
    snap.maximum = 12  # as gr.update(maximum=...) leaves the session's copy after a run
    assert snap.preprocess(120) == 12
    assert snap.preprocess(-3) == 0
    assert snap.preprocess(5) == 5
    rate = gr.Slider(0.1, 20.0, step=0.1)
    assert rate.preprocess(0) == pytest.approx(0.1)  # "0" half typed on the way to "0.5"
    assert rate.preprocess(0.5) == pytest.approx(0.5)


def test_a_bounded_number_keeps_gradios_check():
    gradio_patch.clamp_sliders()
    with pytest.raises(gr.Error):
        gr.Number(minimum=0, maximum=12).preprocess(120)
