"""Refusals of what a learner sent, before anything is graded or stored: a notebook the grader
cannot read (grader/submission.py), code or a file too large or not text, a name it will not
store (gradebook/input_checks.py, identity.py), an exercise it does not know."""

from __future__ import annotations

EN: dict[str, str] = {
    # a notebook (grader/submission.py)
    "notebook.clear": "Clear the outputs (Edit → Clear All Outputs), save, and upload it again, or "
                      "paste your code instead.",
    "notebook.too_complex": "This notebook holds {containers} JSON lists and objects; the limit is "
                            "{limit}. {clear}",
    "notebook.too_many_cells": "This notebook has {cells} cells; the limit is {limit}. Put your "
                               "solution in one notebook of a few cells, or paste your code instead.",
    "notebook.unreadable": "This notebook cannot be read as a Jupyter notebook ({detail}).",
    "notebook.bad_json": "This notebook is damaged and cannot be read (invalid JSON: {error}). "
                         "Open it in Jupyter, save it again, and re-upload it.",
    # code and files (gradebook/input_checks.py)
    "input.code_too_large": "The code is {size}; the limit is {cap}. A solution to these exercises "
                            "fits in a few kB.",
    "input.file_too_large": "The file is {size}; the limit is {cap}.",
    "input.binary": "This file is binary, not Python source. Upload a .py file or a .ipynb notebook.",
    "input.not_utf8": "This file is not UTF-8 text. Save your code as UTF-8 and upload it again.",
    "input.nul": "The code contains a NUL character, so it is not Python source.",
    "input.empty": "There is no code to grade. Write your solution in the editor first.",
    "input.unknown_exercise": "There is no exercise {shown}. Known exercises: {listed}.",
    # names (gradebook/input_checks.py, identity.py)
    "name.too_long": "The name is {length} characters long; use at most {limit}.",
    "name.bad_char": "The name contains {shown}, which is not allowed. Use letters, digits, spaces "
                     "and . _ - ' @ ( ) only.",
    "name.bad_start": "The name must start with a letter or a digit.",
    "name.imitation": "The name {base!r} belongs to (or looks like) a signed-in learner. Choose "
                      "another name, or sign in with Hugging Face if it is yours.",
    "name.mixed_script": "The word {word!r} mixes letters of different alphabets (for example Latin "
                         "and Cyrillic), which is how names are forged. Write each word in one "
                         "alphabet.",
    "name.no_browser_key": "This browser has no learner key yet. Reload the page (it makes one) and "
                           "try again.",
}

ZH: dict[str, str] = {
    "notebook.clear": "请清除所有输出（Edit → Clear All Outputs）后保存并重新上传，或直接粘贴代码。",
    "notebook.too_complex": "该笔记本包含 {containers} 个 JSON 列表和对象，上限为 {limit} 个。{clear}",
    "notebook.too_many_cells": "该笔记本有 {cells} 个单元格，上限为 {limit} 个。请把答案放在只有几个单元格"
                               "的笔记本中，或直接粘贴代码。",
    "notebook.unreadable": "无法将该文件作为 Jupyter 笔记本读取（{detail}）。",
    "notebook.bad_json": "该笔记本已损坏，无法读取（JSON 无效：{error}）。请在 Jupyter 中打开并重新保存后再上传。",
    "input.code_too_large": "代码大小为 {size}，上限为 {cap}。这些练习的答案只需几 kB。",
    "input.file_too_large": "文件大小为 {size}，上限为 {cap}。",
    "input.binary": "这是一个二进制文件，不是 Python 源代码。请上传 .py 文件或 .ipynb 笔记本。",
    "input.not_utf8": "该文件不是 UTF-8 文本。请将代码保存为 UTF-8 编码后重新上传。",
    "input.nul": "代码中包含 NUL 字符，因此不是 Python 源代码。",
    "input.empty": "没有可评分的代码。请先在编辑器中写下你的答案。",
    "input.unknown_exercise": "不存在练习 {shown}。现有练习：{listed}。",
    "name.too_long": "名字长度为 {length} 个字符，最多允许 {limit} 个。",
    "name.bad_char": "名字中包含不允许的字符 {shown}。只能使用字母、数字、空格以及 . _ - ' @ ( )。",
    "name.bad_start": "名字必须以字母或数字开头。",
    "name.imitation": "名字 {base!r} 属于（或近似）一位已登录的学习者。请换一个名字；如果这是你的账号，请用 "
                      "Hugging Face 登录。",
    "name.mixed_script": "单词 {word!r} 混用了不同文字的字母（例如拉丁字母和西里尔字母），这是冒充他人名字的常见手法。"
                         "请每个单词只用一种文字书写。",
    "name.no_browser_key": "此浏览器尚未生成学习者密钥。请刷新页面（会自动生成）后重试。",
}
