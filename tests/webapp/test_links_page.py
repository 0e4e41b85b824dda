"""The page side of lesson links without a browser: each playground tab registered its controls
with fields from their own choices and ranges, and a copied link keeps the page's address and,
on a lesson page, its hide and lock."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

pytest.importorskip("gradio")


@pytest.fixture(scope="module")
def links():
    import app  # noqa: F401 - building the app registers and connects every tab's controls
    from webapp.pages import links

    return links


def test_every_playground_tab_is_linked_with_its_controls(links):
    specs = links.specs()
    assert list(specs) == ["basics", "pooling", "multihead", "positional", "train", "complexity"]
    assert {"task", "heads", "d_model", "pe", "steps", "seed", "dropout"} <= set(specs["train"])
    from webapp.services.train_config import TASKS

    assert specs["train"]["task"].values == TASKS  # the radio's own choices
    assert specs["train"]["heads"] == links.Range(1, 8, integer=True)  # page_config's LIMITS
    assert specs["pooling"]["noise"] == links.Range(0.0, 2.0, 0.05)  # the slider's own
    assert specs["basics"]["scale"] == links.Flag()


def _page(links, tab):
    from webapp.pages.links import Page

    fields = links.specs()[tab]
    return Page(tab, dict.fromkeys(fields), fields, {})


def test_a_copied_link_decodes_to_the_values_it_was_made_from(links):
    from webapp.services.links import decode

    page = _page(links, "pooling")
    values = {"n": 80, "noise": 0.35000000000000003, "w": 2.5, "steps": 12, "lr": 0.5, "seed": 3}
    url = links.make_link(page, values, "https://x.hf.space/app/?tab=basics&lock=1", "en")
    parts = urlsplit(url)
    assert url.startswith("https://x.hf.space/app/?tab=pooling&")  # the address the page is on
    assert "lock" not in parts.query  # another tab's lock is not this tab's
    link = decode(dict(parse_qsl(parts.query)), links.specs())
    assert link.values == {**values, "noise": 0.35}


def test_a_lesson_page_copies_its_hide_and_lock(links):
    page = _page(links, "pooling")
    values = {"n": 50, "noise": 0.5, "w": 1.0, "steps": 5, "lr": 0.5, "seed": 0}
    url = links.make_link(page, values, "http://h/?tab=pooling&hide=noise&lock=1", "en")
    assert url.endswith("&hide=noise&lock=1")
    tampered = links.make_link(page, values, "http://h/?tab=pooling&hide=colour", "en")
    assert "hide" not in tampered


def test_a_setting_without_a_valid_value_is_named_instead_of_a_link(links):
    page = _page(links, "pooling")
    values = {"n": 50, "noise": 0.5, "w": 1.0, "steps": 5, "lr": None, "seed": -1}
    assert links.make_link(page, values, "http://h/", "en") == (
        "⚠️ Some settings hold no valid value yet (lr, seed): fix them, then copy the link again.")
    assert "lr, seed" in links.make_link(page, values, "http://h/", "zh")


def test_locked_reads_the_pages_own_link(links):
    from types import SimpleNamespace

    def request(query):
        return SimpleNamespace(query_params=dict(parse_qsl(query)))

    assert links.locked(request("tab=basics&lock=1"), "basics", "scale")
    assert links.locked(request("tab=basics&lock=scale"), "basics", "scale")
    assert not links.locked(request("tab=basics&lock=q"), "basics", "scale")
    assert not links.locked(request("tab=basics&seed=x&lock=1"), "basics", "scale")  # invalid
    assert not links.locked(request(""), "basics", "scale") and not links.locked(None, "basics", "q")


def test_a_tab_built_for_another_blocks_never_joins_this_apps_load(links):
    """A page built on its own (as a test builds one) registers its controls and never connects:
    the next app's load must not take them (its /apply event named components missing from the
    app's config, and gradio_client failed on every call of that app: a test-order failure)."""
    import gradio as gr

    from webapp.pages import pooling

    with gr.Blocks() as stray:
        pooling.build()
    with gr.Blocks() as page:
        tabs = gr.Tabs()
        with tabs, gr.Tab("Attention pooling", id="pooling"):
            pooling.build()
        notice = gr.Markdown()
        links.connect(page, tabs, notice)
    (apply,) = [f for f in page.fns.values() if f.name == "apply"]
    stray_ids = {b._id for b in stray.blocks.values()}
    assert apply.outputs and not {c._id for c in apply.outputs} & stray_ids
    assert {c._id for c in apply.outputs} <= set(page.blocks)
