"""Exercises page: statement, code editor or upload, public examples, submit → score and table."""

from __future__ import annotations

from pathlib import Path

import gradio as gr

from app_support.report_view import (
    check_code,
    exercise_choices,
    public_text,
    results_frame,
    score_markdown,
)

from .common import friendly, lang_of, t


def grade_report(exercise_id: str, code: str, lang: str = "both", learner: str | None = None) -> dict:
    """The grader's Gradescope-shaped JSON report for one submission (the `grade` API)."""
    from app_support.hidden import ensure_hidden_tests
    from grader import api  # imports torch: first use only

    ensure_hidden_tests()  # no-op unless LAB_HIDDEN_REPO is set (a Space)
    return api.grade(exercise_id, check_code(code), learner).to_gradescope(lang)


def examples_report(exercise_id: str, code: str, lang: str = "both") -> dict:
    """The same report shape for the public examples only."""
    from grader import api

    return api.run_examples(exercise_id, check_code(code)).to_gradescope(lang)


def grade(exercise_id: str, code: str, learner: str | None = None) -> dict:
    """Grade `code` for `exercise_id` against the hidden tests; returns the Gradescope JSON.

    `learner` (optional) is a name kept in the report's extra_data."""
    try:
        return grade_report(exercise_id, code, "both", learner)
    except (ValueError, TypeError, KeyError) as err:  # UnknownExercise is a KeyError
        raise gr.Error(str(err).strip("'\"")) from None


def read_upload(path: str | None) -> str:
    """Source text of an uploaded .py or the code cells of an .ipynb."""
    from grader.submission import read_submission

    if not path:
        raise ValueError("no file was uploaded")
    if not str(path).endswith((".py", ".ipynb")):
        raise ValueError("upload a .py file or a Jupyter notebook (.ipynb)")
    return read_submission(Path(path))


def build() -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    choices = exercise_choices()
    first = choices[0][1] if choices else None
    gr.Markdown(t("ex.intro"))
    with gr.Row():
        exercise = gr.Dropdown(choices, value=first, label=t("ex.choose"), elem_id="ex-choose")
        lang = gr.Radio([("English", "en"), ("中文", "zh")], value="en", label=t("ex.statement"))
    statement = gr.Markdown(public_text(first, "statement.en.md") if first else t("ex.unavailable"),
                            elem_id="ex-statement")  # fmt: skip
    code = gr.Code(public_text(first, "starter.py") if first else "", language="python", lines=18,
                   label=t("ex.code"), elem_id="ex-code")  # fmt: skip
    with gr.Row():
        upload = gr.File(label=t("ex.upload"), file_types=[".py", ".ipynb"], type="filepath",
                         height=140)  # fmt: skip
        with gr.Column():
            examples = gr.Button(t("ex.examples"), elem_id="ex-examples")
            submit = gr.Button(t("ex.submit"), variant="primary", elem_id="ex-submit")
            reset = gr.Button(t("ex.reset"))
    score = gr.Markdown(elem_id="ex-score")
    tests = gr.Dataframe(label=t("ex.tests"), interactive=False, wrap=True, elem_id="ex-tests",
                         column_widths=["25%", "8%", "8%", "8%", "51%"])  # fmt: skip

    @friendly(1)
    def on_statement(ex_id, lang):
        return public_text(ex_id, f"statement.{lang}.md")

    @friendly(2)
    def on_choose(ex_id):
        return public_text(ex_id, "starter.py"), ""

    @friendly(2)
    def on_upload(path):
        return read_upload(path), ""

    def run(fn):
        @friendly(2)
        def inner(ex_id, code, request: gr.Request):
            report = fn(ex_id, code, lang_of(request))
            return results_frame(report, lang_of(request)), score_markdown(report, lang_of(request))

        return inner

    ui = dict(api_visibility="private")
    exercise.change(on_statement, [exercise, lang], [statement], **ui)
    exercise.change(on_choose, [exercise], [code, score], **ui)
    lang.change(on_statement, [exercise, lang], [statement], **ui)
    reset.click(on_choose, [exercise], [code, score], **ui)
    upload.upload(on_upload, [upload], [code, score], **ui)
    submit.click(run(grade_report), [exercise, code], [tests, score], concurrency_id="grade", **ui)
    examples.click(run(examples_report), [exercise, code], [tests, score], concurrency_id="grade",
                   **ui)  # fmt: skip
    gr.api(grade, api_name="grade", concurrency_id="grade")
