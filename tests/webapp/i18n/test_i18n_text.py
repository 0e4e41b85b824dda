"""One clear house for learner-facing text (issue 10): Chinese lives only in the catalogue
(webapp/i18n/), and the catalogue's Chinese uses full-width punctuation after Chinese text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webapp import i18n

ROOT = Path(__file__).resolve().parents[3]
CJK = re.compile(r"[\u4e00-\u9fff]")  # CJK Unified Ideographs: what a Chinese sentence is made of
# Chinese a file outside webapp/i18n/ may still contain, as (file, text): the reason. A language's
# name lives in webapp.i18n.LANGUAGES and a comment names a catalogue key instead, so this stays
# short; a learner never sees what is listed here.
ALLOWED: dict[tuple[str, str], str] = {}

# A Chinese character or full-width mark, then ASCII , : ; . or ? (which belongs in English text)
_HALF_AFTER_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef“”‘’][,:;.?]")
_FIELD_OR_CODE = re.compile(r"\{[^{}]*\}|`[^`]*`")  # {eta:.0f} and `a.b` are not prose


def ascii_after_cjk(text: str) -> list[str]:
    """Each spot where ASCII punctuation follows Chinese text (format fields and code skipped)."""
    prose = _FIELD_OR_CODE.sub(" ", text)
    return [prose[max(0, m.start() - 8): m.end() + 8] for m in _HALF_AFTER_CJK.finditer(prose)]


def _python_files() -> list[Path]:
    files = sorted((ROOT / "webapp").rglob("*.py")) + [ROOT / "app.py"]
    return [f for f in files if "i18n" not in f.relative_to(ROOT).parts]


def test_no_module_outside_the_catalogue_writes_chinese():
    files = _python_files()
    assert len(files) > 20 and ROOT / "webapp" / "pages" / "instructor.py" in files
    assert CJK.search((ROOT / "webapp" / "i18n" / "text.py").read_text(encoding="utf-8"))  # sees it
    found = {}
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        for file, allowed in ALLOWED:
            if file == rel:
                text = text.replace(allowed, "")
        lines = [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
                 if CJK.search(line)]
        if lines:
            found[rel] = lines
    assert not found, f"put this text in webapp/i18n/ and call tr()/both(): {found}"


# A catalogue text with ASCII punctuation glued on in code: f"{tr('x', lang)}: …" or tr(…) + ": …".
# In Chinese that reads "参考译文: …"; the punctuation belongs inside the catalogue's line.
GLUED = re.compile(r"""tr\([^()]*\)\}[:;.,?]|tr\([^()]*\)\s*\+\s*f?["'][:;.,?]""")
# The lines the learner pass found (report_view, train.py, train_view), as they were written
BEFORE = [
    '''lines = [f"## {tr('report.score', lang)}: {report.score:g} / {report.max_score:g}"]''',
    '''lines.append(f"{tr('train.reference', lang)}: {r['reference']} · BLEU (D2L, k=2): "''',
    '''return tr("status.done_translate", lang) + f" {tr('corpus', lang)}: {name}."''',
    '''tr("corpus", lang) + ": " + name''',
]


def test_no_module_glues_ascii_punctuation_onto_a_catalogue_text():
    assert all(GLUED.search(line) for line in BEFORE)
    assert not GLUED.search('''tr("train.reference_line", lang, reference=ref, bleu=b)''')
    found = {}
    for path in _python_files():
        hits = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
                if GLUED.search(line)]
        if hits:
            found[path.relative_to(ROOT).as_posix()] = hits
    assert not found, f"put the punctuation in the catalogue's text (a whole line): {found}"


def test_the_punctuation_check_flags_what_a_learner_saw_and_spares_code():
    assert ascii_after_cjk("参考译文: la maison")  # the translate box's reference line
    assert ascii_after_cjk("不认识的单词（读作 `<unk>`）: mot")
    assert ascii_after_cjk("训练完成.")
    assert ascii_after_cjk("要继续吗?")
    assert not ascii_after_cjk("参考译文：{reference:.3f}，上传 .py 文件")
    assert not ascii_after_cjk("请写 `a.shape`；比较 `x,y`")


def test_chinese_text_uses_full_width_punctuation():
    bad = {key: spots for key, value in i18n.ZH.items() if (spots := ascii_after_cjk(value))}
    # input errors and the names in them are catalogue keys too (issue 23: error.*, term.*)
    assert "error.int_empty" in i18n.ZH and "term.learning_rate" in i18n.ZH
    assert not bad, bad


def test_a_chinese_report_headline_uses_a_full_width_colon():
    from grader.report import Report, TestResult
    from webapp.views.report_view import score_markdown

    report = Report("x", tests=[TestResult("t", 3, 12, False, {"en": "no", "zh": "不对"})])
    assert score_markdown(report, "zh").startswith("## 得分：3 / 12")  # it read "得分: 3 / 12"
    assert score_markdown(report, "en").startswith("## Score: 3 / 12")
    assert not ascii_after_cjk(score_markdown(report, "zh"))


def test_the_translate_status_names_its_corpus_with_full_width_punctuation():
    from types import SimpleNamespace

    from webapp.train.view import done_status

    summary = {"steps": 10, "seconds": 3, "device": "cpu", "stopped": "max_steps",
               "parameters": 1000, "corpus": "tatoeba"}
    run = SimpleNamespace(task_name="translate", model_name="transformer", summary=summary,
                          config=SimpleNamespace(d_model=32, pe="sinusoidal", heads=4))
    zh, en = done_status(run, "zh"), done_status(run, "en")
    assert zh.endswith("语料：D2L 的 Tatoeba fra-eng。") and not ascii_after_cjk(zh)  # was "语料: …."
    assert en.endswith("parameters. Corpus: D2L's Tatoeba fra-eng.")


# Full-width punctuation carries its own spacing: an ASCII space after it ("看点： 每一行",
# "。 （下方…") shows as a gap in the middle of a Chinese sentence. Markdown emphasis is dropped
# first, as the page renders it ("**看点：** 每" reads "看点： 每").
_SPACE_AFTER_FULL_WIDTH = re.compile(r"[，。：；！？（）、] ")
# "**看点：**每" would not even be bold: CommonMark does not close ** after punctuation when a
# letter follows, so the full-width mark goes outside the emphasis ("**看点**：每").
_BOLD_CLOSED_AFTER_MARK = re.compile(r"[，。：；！？、]\*+[\u4e00-\u9fff]")


def space_after_full_width(text: str) -> list[str]:
    """Each spot where an ASCII space follows full-width punctuation, as the page renders it."""
    shown = text.replace("*", "")
    return [shown[max(0, m.start() - 6): m.end() + 6] for m in _SPACE_AFTER_FULL_WIDTH.finditer(shown)]


def test_the_space_check_flags_what_a_learner_saw():
    assert space_after_full_width("**看点：** 每一行权重之和为 1")
    assert space_after_full_width("列（加性评分允许不同宽度）。 （下方显示的仍是上一次有效输入的结果。）")
    assert not space_after_full_width("**看点**：每一行权重之和为 1，d = 4")
    assert _BOLD_CLOSED_AFTER_MARK.search("**看点：**每一行")
    assert not _BOLD_CLOSED_AFTER_MARK.search("**看点**：每一行")


def test_chinese_text_has_no_ascii_space_after_full_width_punctuation():
    texts = dict(i18n.ZH)  # input errors (error.*) and their names (term.*) included (issue 23)
    bad = {key: spots for key, value in texts.items() if (spots := space_after_full_width(value))}
    bold = {key: value for key, value in texts.items() if _BOLD_CLOSED_AFTER_MARK.search(value)}
    assert len(texts) > 300 and not bad and not bold, (bad, bold)


def test_chinese_text_has_no_ascii_space_between_two_chinese_characters():
    """Chromium pass, 2026-12-02: "教师看到的是 **匿名**。" showed a gap before the bold word
    (an ASCII space between Chinese characters, once the emphasis is drawn)."""
    between = re.compile(r"[\u4e00-\u9fff] [\u4e00-\u9fff]")
    bad = {key: value for key, value in i18n.ZH.items() if between.search(value.replace("*", ""))}
    assert not bad, bad


def test_a_chinese_input_error_and_its_stale_note_join_without_a_space():
    import gradio as gr

    from webapp.compute.basics import attention_basics
    from webapp.compute.matrices import LESSON_K, LESSON_V
    from webapp.pages.common import quiet

    @quiet(2)
    def live(q, request: gr.Request):  # Q 2 columns wide, K 4: the dot-product width error
        attention_basics("1 0\n0 1\n1 1", LESSON_K, LESSON_V)  # (issue 23: a keyed error now)

    zh = live("1", gr.Request(headers={"accept-language": "zh-CN,zh;q=0.9"}))[-1]
    assert "宽度）。（下方" in zh and not space_after_full_width(zh), zh  # it read "。 （下方"
    en = live("1", gr.Request(headers={"accept-language": "en-US"}))[-1]
    assert "different widths). (What is shown below" in en  # a full stop, and English's space


# --- new-learner pass 4 (2026-12-01): messages that name their cause, in both languages ------

def test_positional_d_model_6_plots_the_dimensions_it_has_and_names_the_rest():
    # Changing only d_model 32 → 6 said "dimension must lie between 0 and 5, got 6": the cause
    # was the default "Dimensions to plot" 4, 5, 6, 7, which the message never named.
    from transformer_lab.positional import sinusoidal_table
    from webapp.pages.positional import render

    heat, curves, _, note = render(60, 6, "4, 5, 6, 7", "en")
    assert "6, 7" in note and "d_model = 6" in note and "Dimensions to plot" in note
    assert "Plotted: 4, 5" in note
    table = sinusoidal_table(60, 6)  # (60, 6): the curves are its columns 4 and 5, nothing else
    ys = [list(t.y) for t in curves.data]
    assert len(ys) == 2
    for y, j in zip(ys, (4, 5), strict=True):
        assert y == pytest.approx(table[:, j].tolist())
    zh = render(60, 6, "4, 5, 6, 7", "zh")[3]
    assert "6、7" in zh and "d_model = 6" in zh and "要画的维度" in zh and not ascii_after_cjk(zh)
    assert render(60, 32, "4, 5, 6, 7", "en")[3] == ""  # all present: no note


def test_positional_error_when_no_dimension_exists_names_the_box_and_d_model():
    from webapp.pages.common import message
    from webapp.pages.positional import render

    with pytest.raises(ValueError) as err:
        render(60, 6, "6, 9", "en")
    text = str(err.value)
    assert "'Dimensions to plot'" in text and "d_model = 6" in text and "6, 9" in text
    zh = message(err.value, "zh")
    assert "要画的维度" in zh and "d_model = 6" in zh and "请检查这一页的设置" not in zh


def test_pooling_with_no_step_says_so_and_shows_the_starting_w_as_the_title_does():
    # 0 steps: the panel said "learned w = 0.496", nothing said no step was taken, and the loss
    # chart was one dot on an axis from −1 to 1.
    from transformer_lab.kernel import fit_kernel_regression, make_kernel_data
    from webapp.pages.pooling import loss_curve, pool_caption, render

    _, learned, hist, _ = render(50, 0.5, 1.0, 0, 0.5, 0, "en", exact=True)
    start = fit_kernel_regression(steps=0, seed=0, data=make_kernel_data(n_train=50, noise_std=0.5,
                                                                          seed=0))
    w0 = float(start.model.w.detach())  # the independent starting w: no step, no change
    assert f"{w0:.3f}" in learned.layout.title.text
    for lang, said in (("en", "No SGD step taken"), ("zh", "没有进行 SGD 更新")):
        text = pool_caption(hist, lang)
        assert said in text and f"w = {w0:.3f}" in text
    fig = loss_curve(hist, "en")
    assert list(fig.layout.xaxis.range) == [-0.5, 0.5]
    lo, hi = fig.layout.yaxis.range
    assert lo <= float(hist["loss"].iloc[0]) <= hi and lo >= 0
    assert "no SGD step" in fig.layout.annotations[0].text
    # with steps the caption rounds w once, as the title does (not 16.203 beside 16.202)
    _, learned5, hist5, _ = render(50, 0.5, 1.0, 5, 0.5, 0, "en", exact=True)
    w5 = learned5.layout.title.text.split("= ")[1]
    assert f"→ {w5}" in pool_caption(hist5, "en") and not loss_curve(hist5).layout.annotations


def test_an_empty_submission_box_gets_a_plain_sentence_not_a_python_repr():
    from webapp.pages.common import message
    from webapp.pages.progress import clicked_submission, pick_number

    for empty in ("", "  ", None):
        with pytest.raises(ValueError) as err:
            pick_number(empty)
        en, zh = message(err.value, "en"), message(err.value, "zh")
        assert "''" not in en + zh and "None" not in en + zh
        assert "click its row" in en and "点击历史记录中的那一行" in zh
    assert pick_number(" #12 ") == "12"
    assert clicked_submission([12, "1. Attention by hand", 3]) == 12
    assert clicked_submission(["7", "x"]) == 7 and clicked_submission(None, 5) == 5
    with pytest.raises(ValueError, match="click its row"):
        clicked_submission(["", ""])  # the placeholder row of an empty table
