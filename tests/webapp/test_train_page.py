"""The Train page's live curves: before the first evaluation there is no accuracy to draw, so
the page draws the loss alone and says when the accuracy panels come (no empty axes)."""

from __future__ import annotations

from types import SimpleNamespace

from webapp.i18n import text_train


def _panels(fig) -> list[str]:
    return [a.text for a in fig.layout.annotations]  # make_subplots titles its panels so


def test_accuracy_panels_wait_for_the_first_evaluation_and_say_so():
    from webapp.pages.train import live_curves
    from webapp.services import training

    config = training.page_config("reverse", heads=2, d_model=16, layers=1, d_ff=32, steps=12)
    run = training.new_run(config)
    for msg in training.stream(run):
        training.apply(run, msg)
    h = run.history
    first_eval = int(h.loc[h["phase"] == "eval", "step"].min())
    # The run as the page saw it mid-way (the stream batches records: a quick run may arrive whole)
    early = SimpleNamespace(history=h[h["step"] < first_eval].reset_index(drop=True), config=config)
    assert len(early.history) and set(early.history["phase"]) == {"train"}
    fig, hint = live_curves(early, "zh")
    assert len(_panels(fig)) == 1  # loss only: no accuracy measured yet
    assert hint["visible"] is True
    want = text_train.ZH["train.acc_wait"].format(every=config.eval_every)
    assert hint["value"] == want and str(config.eval_every) in want
    fig, hint = live_curves(run, "zh")  # the run always ends with an evaluation
    assert len(_panels(fig)) == 3 and hint["visible"] is False
