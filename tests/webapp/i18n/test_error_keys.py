"""Issue 23, "errors carry keys": a learner input error is raised with a key and fields
(transformer_lab.errors.lab_error in the library, webapp.i18n.input_error in the app) and
rendered per language at the edge (webapp.pages.common.message) from the catalogue's
``error.<key>``; no pattern parses an English sentence back into Chinese any more.

The (English, Chinese) pairs below were recorded from the regex translator (webapp/i18n/
input_errors.py) on the same inputs just before it was removed. The English is byte for byte
the same. The Chinese is too, except where the old sentence left out a field the English has
(each key's two templates must carry the same fields), marked "fields now shown", and two
fixes: the old pattern kept the English full stop in "0 到 1000000. 之间", and one English
name it did not know ("the number of training points") is now translated.
"""

from __future__ import annotations

import ast
import pickle
import re
import string
from pathlib import Path
from types import SimpleNamespace

import pytest

from transformer_lab import device, experiments, transformer
from transformer_lab.errors import TEMPLATES, lab_error
from transformer_lab.message import LabError
from transformer_lab.multihead import MultiHeadAttention
from transformer_lab.positional import make_positional_encoding, sinusoidal_table
from transformer_lab.tasks import toy
from webapp import i18n
from webapp.compute import basics as compute_basics
from webapp.compute import complexity, explore
from webapp.i18n import Term, input_error, text_errors
from webapp.pages import basics, multihead, pooling, positional, progress
from webapp.pages.common import message
from webapp.train import train_config, training
from webapp.train.events import snapshot_maps
from webapp.views import gradebook_tables

L3 = "1 0 1 0\n0 1 0 1\n1 1 1 1"
V3 = "1 2 3 4\n5 6 7 8\n9 10 11 12"
NOBODY = SimpleNamespace(get=lambda number: None)  # a gradebook without that submission


def _unkeyed():
    raise ValueError("something nobody wrote yet")


# (id, the call that raises, English, Chinese), each after "Please check the input: " / "输入有误："
CASES = [
    ("matrix cell", lambda: basics.render("1 a 1 0\n0 1 0 1\n1 1 1 1", L3, V3, "dot", True, "none", None, 0),
     "Q, row 1: 'a' is not a number. Write numbers separated by spaces, one row per line.",
     "Q 第 1 行：'a' 不是数字。请用空格分隔数字，每行一个向量。"),
    ("matrix ragged", lambda: basics.render(L3, L3, "1 2 3 4\n5 6\n9 10 11 12", "dot", True, "none", None, 0),
     "V: row 1 has 4 numbers but row 2 has 2; every row needs the same number of columns.",
     "V：第 1 行有 4 个数，第 2 行却有 2 个；每行的列数必须相同。"),
    ("matrix too big", lambda: basics.render("\n".join(["1 0"] * 17), L3, V3, "dot", True, "none", None, 0),
     "Q is 17 × 2; at most 16 × 16 fits on the page.", "Q 是 17 × 2；页面最多容纳 16 × 16。"),
    ("dot width", lambda: basics.render("1 0\n0 1\n1 1", L3, V3, "dot", True, "none", None, 0),
     "dot-product scoring needs queries and keys of the same width; Q has 2 columns and K has 4 "
     "(additive scoring allows different widths)",
     "点积评分要求查询和键的宽度相同；Q 有 2 列，K 有 4 列（加性评分允许不同宽度）。"),
    ("causal", lambda: basics.render("1 0 1 0\n0 1 0 1", L3, V3, "dot", True, "causal", None, 0),
     "a causal mask lets query i see keys 0..i, so it needs as many queries as keys; got 2 "
     "queries and 3 keys", "因果掩码让查询 i 只看键 0..i，所以查询数必须等于键数；现在有 2 个查询和 3 个键。"),
    ("valid nothing", lambda: basics.render(L3, L3, V3, "dot", True, "valid", None, 0),
     "the valid length must be a whole number from 1 to 3 (the number of keys), got nothing",
     "有效长度为空：请输入 1 到 3 之间的整数（键的个数）。"),
    ("valid 2.5", lambda: basics.render(L3, L3, V3, "additive", True, "valid", 2.5, 0),
     "the valid length must be a whole number from 1 to 3 (the number of keys), got '2.5'",
     "有效长度必须是 1 到 3 之间的整数（键的个数），收到的是 '2.5'。"),
    ("seed text", lambda: basics.render(L3, L3, V3, "dot", True, "none", None, "abc"),
     "seed must be a whole number, got 'abc'.", "随机种子 必须是整数，收到的是 'abc'。"),
    ("seed empty", lambda: basics.render(L3, L3, V3, "dot", True, "none", None, ""),  # fixed "1000000."
     "seed is empty: enter a whole number from 0 to 1000000.", "随机种子 为空：请输入 0 到 1000000 之间的整数。"),
    ("heads range", lambda: multihead.render(16, 9, 6, "none", None, 0),
     "heads must lie between 1 and 8, got 9.", "头数 必须在 1 到 8 之间，收到的是 9。"),
    ("heads divisor", lambda: multihead.render(16, 5, 6, "none", None, 0),
     "d_model=16 is not divisible by heads=5: each head gets d_model / heads features, so pick "
     "heads among the divisors of 16", "模型宽度 16 不能被头数 5 整除：请选择 16 的约数作为头数。"),
    ("valid length box", lambda: multihead.render(16, 4, 6, "valid", 9, 0),
     "valid length must lie between 1 and 6, got 9.", "有效长度 必须在 1 到 6 之间，收到的是 9。"),
    ("no trained model", lambda: multihead.heads_of("trained", "cross", 16, 4, 6, "none", None, 0, None),
     "train a model first", "请先训练一个模型。"),
    ("explore n_train", lambda: explore.attention_pooling(n_train=1),  # the English name translated
     "the number of training points must lie between 2 and 500, got 1",
     "训练点数 必须在 2 到 500 之间，收到的是 1。"),
    ("learning rate", lambda: pooling.render(50, 0.5, 1.0, 5, "fast", 0),
     "learning rate must be a number, got 'fast'.", "学习率 必须是数字，收到的是 'fast'。"),
    ("noise", lambda: pooling.render(50, 9, 1.0, 5, 0.5, 0),
     "noise must lie between 0.0 and 5.0, got 9.", "噪声 必须在 0.0 到 5.0 之间，收到的是 9。"),
    ("dims outside", lambda: positional.render(60, 6, "6, 9", "en"),
     "dimensions 6, 9 in 'Dimensions to plot' must lie between 0 and 5 (below d_model = 6)",
     "“要画的维度”中的维度 6, 9 必须在 0 到 5 之间（小于 d_model = 6）。"),
    ("dim outside", lambda: positional.render(60, 6, "9", "en"),
     "dimension 9 in 'Dimensions to plot' must lie between 0 and 5 (below d_model = 6)",
     "“要画的维度”中的维度 9 必须在 0 到 5 之间（小于 d_model = 6）。"),
    ("odd d_model", lambda: positional.render(60, 7, "0 1", "en"),
     "d_model must be even (each sine is paired with a cosine), got 7",
     "d_model 必须是偶数（每个正弦都和一个余弦配对），现在是 7。"),
    ("sizes", lambda: complexity.parse_sizes("2 3 4 5 6 7 8"),
     "give at most 6 sequence lengths, so the run takes seconds", "最多给出 6 个序列长度，这样几秒钟就能跑完。"),
    ("sizes text", lambda: complexity.parse_sizes("64 abc"),  # fields now shown
     "sequence lengths must be whole numbers, got '64 abc'", "序列长度必须是整数，收到的是 '64 abc'。"),
    ("width d", lambda: complexity.run_complexity([64, 128], d=4),
     "the width d must lie between 8 and 256, got 4", "宽度 d 必须在 8 到 256 之间，收到的是 4。"),
    ("train layers", lambda: train_config.page_config(layers=5),
     "layers must be a whole number from 1 to 4, got 5", "层数 必须是 1 到 4 之间的整数，收到的是 5。"),
    ("train model", lambda: train_config.page_config(model="rnn"),  # fields now shown
     "unknown model 'rnn'; choose one of transformer, bahdanau",
     "未知的选项（model）：'rnn'；可选：transformer, bahdanau。"),
    ("not a number", lambda: gradebook_tables.own_submission(NOBODY, "g:abc", "x1"),
     "choose a submission number from your history, not 'x1'", "请从你的历史记录中选择一个提交编号，而不是“x1”。"),
    ("not a number float", lambda: gradebook_tables.own_submission(NOBODY, "g:abc", 2.5),
     "choose a submission number from your history, not 2.5", "请从你的历史记录中选择一个提交编号，而不是 2.5。"),
    ("not yours", lambda: gradebook_tables.own_submission(NOBODY, "g:abc", "12"),
     "submission #12 is not in your history", "第 12 号提交不在你的历史记录中。"),
    ("no history", lambda: gradebook_tables.own_submission(NOBODY, None, "3"),
     "this browser has no history yet: reload the page, or sign in", "这个浏览器还没有历史记录：请刷新页面，或登录。"),
    ("pick empty", lambda: progress.pick_number(""),
     "choose a submission: click its row in your history, or type its number",
     "请选择一个提交：点击历史记录中的那一行，或输入它的编号。"),
    ("no such attention", lambda: snapshot_maps(SimpleNamespace(  # fields now shown: the kind
        model_name="bahdanau", snapshots=[{"maps": {"cross": 0}}, {}]), 0, "encoder_self", 0, "en"),
     "the Bahdanau model has no encoder_self attention", "Bahdanau 模型没有编码器自注意力，请选择交叉注意力。"),
    ("translate task", lambda: training.translate(SimpleNamespace(task_name="reverse"), "hi"),
     "translation needs a model trained on the 'translate' task", "翻译需要一个在“英译法”任务上训练的模型。"),
    ("library heads", lambda: MultiHeadAttention(12, 5),
     "d_model=12 is not divisible by heads=5: each head gets d_model / heads features, so pick "
     "heads among the divisors of 12", "模型宽度 12 不能被头数 5 整除：请选择 12 的约数作为头数。"),
    ("library sine table", lambda: sinusoidal_table(4, 7),  # fields now shown
     "sinusoidal encoding pairs a sine with a cosine, so d_model must be even and at least 2; got "
     "d_model=7", "正弦位置编码要求 d_model 为偶数（且至少为 2），现在是 7。"),
    ("library pe", lambda: make_positional_encoding("rotary", 8),  # fields now shown
     "unknown positional encoding 'rotary'; choose one of sinusoidal, learned, none",
     "未知的选项（positional encoding）：'rotary'；可选：sinusoidal, learned, none。"),
    ("library device", lambda: device.pick_device("tpu"),  # fields now shown
     "unknown device 'tpu'; choose one of auto, cpu, cuda, mps", "未知的选项（device）：'tpu'；可选：auto, cpu, cuda, mps。"),
    ("library odd pe", lambda: transformer.TransformerConfig(10, 10, d_model=9, heads=3).validate(),
     "sinusoidal positional encoding pairs sines with cosines, so d_model must be even; got "
     "d_model=9 (use an even size or pe='learned')", "正弦位置编码要求 d_model 为偶数，现在是 9（或改用 pe='learned'）。"),
    ("library preset", lambda: experiments.ExperimentConfig.from_preset("parse"),  # fields now shown
     "unknown task 'parse'; choose one of copy, reverse, sort, translate, kernel",
     "未知的选项（task）：'parse'；可选：copy, reverse, sort, translate, kernel。"),
    ("toy symbols", lambda: toy.ToyTask(toy.ToyTaskConfig()).encode_source("a zz 1"),  # fields now shown
     "unknown symbols ['a', 'zz']; this task uses: 0 1 2 3 4 5 6 7 8 9.",
     "未知的符号 ['a', 'zz']；这个任务使用的符号：0 1 2 3 4 5 6 7 8 9。"),
    ("scoring", lambda: compute_basics.attention_basics(L3, L3, V3, "cosine"),  # fields now shown
     "unknown scoring 'cosine'; choose one of dot, additive", "未知的选项（scoring）：'cosine'；可选：dot, additive。"),
    ("unkeyed", _unkeyed, "something nobody wrote yet", "请检查这一页的设置后再试。"),
]


@pytest.mark.parametrize(("call", "en", "zh"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_error_reads_as_before_in_both_languages(call, en, zh):
    with pytest.raises(ValueError) as err:  # a LabError is still a ValueError
        call()
    assert message(err.value, "en") == "⚠️ Please check the input: " + en
    assert message(err.value, "zh") == "⚠️ 输入有误：" + zh
    if isinstance(err.value, LabError) and err.value.key:
        assert str(err.value) == en  # str() is the English, so `except ValueError` reads the same


def test_a_keyed_error_carries_its_key_and_fields_and_survives_pickling():
    err = lab_error("heads_not_divisor", d_model=12, heads=5)
    assert isinstance(err, ValueError) and err.key == "heads_not_divisor"
    assert err.fields == {"d_model": 12, "heads": 5} and err.text is None and err.message is None
    back = pickle.loads(pickle.dumps(input_error("between", name=Term("seed"), low=0, high=9, got=10)))
    assert (back.key, back.fields["name"], str(back)) == ("between", Term("seed"),
                                                           "seed must lie between 0 and 9, got 10.")
    assert message(back, "zh") == "⚠️ 输入有误：随机种子 必须在 0 到 9 之间，收到的是 10。"
    with pytest.raises(ValueError, match="not divisible by heads=5"):
        raise err


def test_a_key_the_catalogue_lacks_falls_back_to_the_english_or_the_generic_sentence():
    err = LabError.keyed("nobody.wrote.this", "nothing {n} here", n=3)
    assert message(err, "en") == "⚠️ Please check the input: nothing 3 here"
    assert message(err, "zh") == "⚠️ 输入有误：请检查这一页的设置后再试。"
    with pytest.raises(KeyError):
        input_error("nobody.wrote.this")


def test_names_in_a_field_are_catalogue_terms_in_each_language():
    assert Term("learning_rate").text("zh") == "学习率" and f"{Term('learning_rate')}" == "learning rate"
    assert Term("encoder_self", "cross").text("en") == "encoder_self, cross"
    assert Term("encoder_self", "cross").text("zh") == "编码器自注意力、交叉注意力"


def test_the_library_holds_english_templates_only():
    cjk = re.compile(r"[\u4e00-\u9fff]")
    assert not any(cjk.search(text) for text in TEMPLATES.values())


# --- every key a raise site names has both languages, with the fields that site passes -------

ROOT = Path(__file__).resolve().parents[3]
RAISERS = {"lab_error", "input_error"}  # transformer_lab.errors, webapp.i18n


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _constants(node: ast.AST) -> list[str] | None:
    """The key strings an argument can be: a constant, or either side of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _constants(node.body), _constants(node.orelse)
        return body + orelse if body is not None and orelse is not None else None
    return None


def _raise_sites() -> list[tuple[str, str, set[str] | None]]:
    """(file:line, key, keyword names; None with **fields) of each lab_error / input_error call
    in the library and the app; a key that is not a literal fails (the scan must see them all)."""
    found = []
    for path in sorted([*(ROOT / "transformer_lab").rglob("*.py"), *(ROOT / "webapp").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = getattr(node, "func", None)
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            if not isinstance(node, ast.Call) or name not in RAISERS or not node.args:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            keys = _constants(node.args[0])
            if keys is None and path.name in ("errors.py", "__init__.py"):
                continue  # the helpers themselves pass their own key parameter on
            assert keys is not None, f"{where}: name the error with a literal key"
            names = {kw.arg for kw in node.keywords}
            found += [(where, key, None if None in names else names) for key in keys]
    return found


def test_every_raised_key_has_both_languages_with_the_fields_its_raise_site_passes():
    sites = _raise_sites()
    assert len(sites) > 60 and {"heads_not_divisor", "int_empty", "dims_outside"} <= {k for _, k, _ in sites}
    for where, key, names in sites:
        en, zh = i18n.EN.get(f"error.{key}"), i18n.ZH.get(f"error.{key}")
        assert en is not None and zh, f"{where}: error.{key} needs English and Chinese"
        assert _fields(en) == _fields(zh), f"error.{key}: the same fields in both languages"
        assert names is None or names == _fields(en), f"{where}: passes {names}, error.{key} has {_fields(en)}"
    raised = {key for _, key, _ in sites}
    catalogue = {k.removeprefix("error.") for k in text_errors.EN if k.startswith("error.")}
    assert catalogue - raised == {"unkeyed"}, "a template nobody raises"  # unkeyed: message()'s own


def test_the_library_templates_are_the_catalogue_english():
    for key, template in TEMPLATES.items():
        assert i18n.EN[f"error.{key}"] == template


def test_every_name_a_field_can_carry_is_a_term_in_both_languages():
    names = set(train_config.LIMITS) | set(train_config.KINDS)  # Term(name), Term(kind)
    for path in (ROOT / "webapp").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = getattr(node, "func", None)
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            if isinstance(node, ast.Call) and name in ("Term", "check_int", "check_float"):
                args = node.args if name == "Term" else node.args[1:2]
                names |= {a.value for a in args if isinstance(a, ast.Constant)}
    assert {"learning_rate", "valid_length", "seed", "width_d", "cross"} <= names
    for name in names:
        assert i18n.EN.get(f"term.{name}") and i18n.ZH.get(f"term.{name}"), name
