"""The chromium walk of 2026-12-07 (issue 26): under load the exercise dropdown had moved to
exercise 5 while exercise 1's statement and code were still on screen, and Submit graded that
code as exercise 5 (a 0/13 attempt stored). Submit and Run now send the exercise whose code is
on screen (the page's ``shown`` state, set together with the code), never the dropdown."""

from __future__ import annotations

import gradio as gr
from lab_support import LAB


def test_submit_and_run_grade_the_exercise_whose_code_is_on_screen():
    from webapp.pages import exercises, sign_in

    with gr.Blocks() as blocks:
        who = sign_in.build(LAB)
        editor = exercises.build(LAB, who)
    by_name = {}
    for fn in blocks.fns.values():
        by_name.setdefault(fn.name, []).append(fn)
    submit = by_name["on_submit"][0]
    run = [f for f in by_name["inner"] if editor.code in f.inputs and editor.shown in f.inputs]
    assert run, "the Run examples event was not found"
    for fn in (submit, *run):
        assert fn.inputs[0] is editor.shown and editor.exercise not in fn.inputs[:2]
    # The state moves only with the code: the dropdown's change sets code and `shown` at once.
    choose = by_name["on_choose"][0]
    assert editor.code in choose.outputs and editor.shown in choose.outputs
