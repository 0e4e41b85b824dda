"""Issue 26, item 7: curves that dramatise. Without positional encoding the exact-match axis
autoscaled to 0–0.004, so a 0.4% blip looked like a spike; for translation the accuracy panels
read 1.0 on training pairs without saying so."""

from __future__ import annotations

import pandas as pd

from transformer_lab.figures import training_curves


def test_accuracy_panels_keep_their_whole_scale():
    h = pd.DataFrame({"step": [10, 20, 30], "phase": ["eval"] * 3, "loss": [2.0, 1.9, 1.8],
                      "token_accuracy": [0.30, 0.31, 0.32], "exact_match": [0.0, 0.004, 0.0]})
    fig = training_curves(h, stack=True)
    ranges = [fig.layout[f"yaxis{i}" if i > 1 else "yaxis"].range for i in (1, 2, 3)]
    assert ranges[0] is None  # the loss keeps its own scale
    assert list(ranges[1]) == [-0.02, 1.02] and list(ranges[2]) == [-0.02, 1.02]


def test_translate_panels_say_they_are_measured_on_training_pairs():
    from webapp.train import training
    from webapp.train.events import live_curves

    s = training.page_config("translate", heads=2, d_model=16, layers=1, d_ff=32, steps=4)
    run = training.new_run(s)
    for msg in training.stream(run):
        training.apply(run, msg)
    for lang, words in (("en", "on training pairs"), ("zh", "在训练句对上")):
        titles = [a.text for a in live_curves(run, lang)[0].layout.annotations]
        assert sum(words in t for t in titles) == 2, titles
