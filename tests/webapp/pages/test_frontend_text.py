"""The <head> script for the frontends' own English (webapp.pages.frontend_text): it carries the
catalogue's pairs for Gradio's labels and Plotly's locale, whole, and nothing Chinese of its own."""

from __future__ import annotations

import json
import re

from webapp.i18n import EN, ZH
from webapp.pages import frontend_text


def test_the_script_carries_every_pair_of_the_catalogue():
    script = frontend_text.head()
    assert script.startswith("<script>") and script.endswith("</script>")
    assert "__GRADIO__" not in script and "__PLOTLY__" not in script
    gradio = json.loads(script.split("const GRADIO = ", 1)[1].split(", PLOTLY = ", 1)[0])
    plotly = json.loads(script.split(", PLOTLY = ", 1)[1].split(";\n", 1)[0])
    assert gradio["Copy table data"] == ZH["fe.gradio.copy_table"]
    assert plotly["Zoom"] == ZH["fe.plotly.zoom"]
    keys = [k for k in EN if k.startswith("fe.")]
    assert len(gradio) + len(plotly) == len(keys)  # no two keys share an English text
    assert not re.search(r"[\u4e00-\u9fff]", script)  # the Chinese travels escaped, as JSON


def test_a_template_keeps_its_label_field_in_both_languages():
    for key in (k for k in EN if k.startswith("fe.")):
        assert ("{label}" in EN[key]) == ("{label}" in ZH[key]), key
        assert EN[key].count("{label}") <= 1, key
