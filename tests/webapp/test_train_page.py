"""The Train page's live curves: before the first evaluation there is no accuracy to draw, so
the page draws the loss alone and says when the accuracy panels come (no empty axes)."""

from __future__ import annotations

from webapp.i18n import text_train


def _panels(fig) -> list[str]:
    return [a.text for a in fig.layout.annotations]  # make_subplots titles its panels so


def test_accuracy_panels_wait_for_the_first_evaluation_and_say_so():
    from webapp.pages.train import live_curves
    from webapp.services import training

    config = training.page_config("reverse", heads=2, d_model=16, layers=1, d_ff=32, steps=4)
    run = training.new_run(config)
    seen = []
    for msg in training.stream(run):
        training.apply(run, msg)
        fig, hint = live_curves(run, "zh")
        seen.append((len(run.history), _panels(fig), hint))
    first_rows, first_panels, first_hint = seen[0]
    assert first_rows and len(first_panels) == 1  # loss only: no accuracy measured yet
    assert first_hint["visible"] is True
    want = text_train.ZH["train.acc_wait"].format(every=config.eval_every)
    assert first_hint["value"] == want and str(config.eval_every) in want
    _, last_panels, last_hint = seen[-1]  # the run always ends with an evaluation
    assert len(last_panels) == 3 and last_hint["visible"] is False
    assert "eval" in set(run.history["phase"])
