"""The page side of lesson links without a browser: each playground tab registered its controls
with fields from their own choices and ranges, and a copied link keeps the page's address and,
on a lesson page, its hide and lock."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

pytest.importorskip("gradio")


def _app_links():
    """The app's own lesson links (app.py makes them and builds the tabs with them)."""
    import app

    return app.LINKS


@pytest.fixture(scope="module")
def links():
    import app  # noqa: F401 - building the app registers and connects every tab's controls
    from webapp.pages import links

    return links


def test_every_playground_tab_is_linked_with_its_controls(links):
    specs = _app_links().specs()
    assert list(specs) == ["basics", "pooling", "multihead", "positional", "train", "complexity"]
    assert {"task", "heads", "d_model", "pe", "steps", "seed", "dropout"} <= set(specs["train"])
    from webapp.train.train_config import TASKS

    assert specs["train"]["task"].values == TASKS  # the radio's own choices
    assert specs["train"]["heads"] == links.Range(1, 8, integer=True)  # page_config's LIMITS
    assert specs["pooling"]["noise"] == links.Range(0.0, 2.0, 0.05)  # the slider's own
    assert specs["basics"]["scale"] == links.Flag()


def _page(links, tab):
    from webapp.pages.links import Page

    fields = _app_links().specs()[tab]
    return Page(tab, dict.fromkeys(fields), fields, {})


def test_a_copied_link_decodes_to_the_values_it_was_made_from(links):
    from webapp.services.link_query import decode

    page = _page(links, "pooling")
    values = {"n": 80, "noise": 0.35000000000000003, "w": 2.5, "steps": 12, "lr": 0.5, "seed": 3}
    url = links.make_link(page, values, "https://x.hf.space/app/?tab=basics&lock=1", "en")
    parts = urlsplit(url)
    assert url.startswith("https://x.hf.space/app/?tab=pooling&")  # the address the page is on
    assert "lock" not in parts.query  # another tab's lock is not this tab's
    link = decode(dict(parse_qsl(parts.query)), _app_links().specs())
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

    assert _app_links().locked(request("tab=basics&lock=1"), "basics", "scale")
    assert _app_links().locked(request("tab=basics&lock=scale"), "basics", "scale")
    assert not _app_links().locked(request("tab=basics&lock=q"), "basics", "scale")
    assert not _app_links().locked(request("tab=basics&seed=x&lock=1"), "basics", "scale")  # invalid
    assert not _app_links().locked(request(""), "basics", "scale") and not _app_links().locked(None, "basics", "q")


def test_a_tab_built_for_another_blocks_never_joins_this_apps_load(links, monkeypatch):
    """A page built on its own (as a test builds one) registers its controls and never connects:
    the next app's load must not take them (its /apply event named components missing from the
    app's config, and gradio_client failed on every call of that app: a test-order failure)."""
    import gradio as gr

    from webapp.pages import pooling

    own = links.LessonLinks()  # this page's own registry, as app.py makes the app's
    with gr.Blocks() as stray:
        pooling.build(own)
    with gr.Blocks() as page:
        tabs = gr.Tabs()
        with tabs, gr.Tab("Attention pooling", id="pooling"):
            pooling.build(own)
        notice = gr.Markdown()
        own.connect(page, tabs, notice)
    (apply,) = [f for f in page.fns.values() if f.name == "apply"]
    stray_ids = {b._id for b in stray.blocks.values()}
    assert apply.outputs and not {c._id for c in apply.outputs} & stray_ids
    assert {c._id for c in apply.outputs} <= set(page.blocks)


# Red team (issue 29 item 12): a link's key or value was echoed into the Markdown notice, which
# then showed a phishing link, fetched a remote image and shouted a heading, in both languages.
EVIL = ["[Sign in](//ev.il/)", "![](http://ev.il/x.png)", '<a href="//ev.il/">Sign in</a>',
        '<img src="http://ev.il/i.png">', "\n\n# EXAM CANCELLED", "# EXAM CANCELLED",
        "**EXAM** _CANCELLED_", "`ev.il`", "&lt;a href=//ev.il&gt;Sign in&lt;/a&gt;",
        "&#60;img src=http://ev.il/i&#62;", "\u202eli.ve//:ptth\u200b", "seed\u200b",
        "ev.il" * 30, "[x]: http://ev.il/", "<script>alert(1)</script>", "$$\\href{//ev.il}{x}$$",
        "heads\n\n<h1>EXAM CANCELLED</h1>", "https://ev.il/login"]
HOSTILE = ([{"tab": "basics", key: "1"} for key in EVIL]  # keys the tab does not have
           + [{"tab": tab, key: value} for value in EVIL  # our own keys with hostile values
              for tab, key in (("train", "heads"), ("train", "task"), ("basics", "q"),
                               ("basics", "seed"), ("train", "hide"), ("train", "lock"),
                               ("train", "d_model"), ("complexity", "sizes"))]
           + [{"tab": value} for value in EVIL]  # a hostile tab
           + [{"tab": "basics", "hide": "q," + value, "lock": value} for value in EVIL]
           + [{"tab": "basics", "q": "1" * 9000}, {"tab": "train", **{f"{v}{i}": v for i, v in
                                                                          enumerate(EVIL)}}])


def _said(links, params: dict, lang: str) -> str:
    from webapp.services.link_query import LinkError, decode

    with pytest.raises(LinkError) as caught:
        decode(params, _app_links().specs())
    return links.refusal(caught.value, _app_links().specs(), lang)


def _ours(links, lang: str) -> set[str]:
    """Every sentence the notice may say for a refused link: the catalogue's, naming our own
    controls only."""
    from webapp.i18n import tr

    names = {n for spec in _app_links().specs().values() for n in spec} | {"hide", "lock"}
    return ({tr("link.invalid", lang), tr("link.invalid_unknown", lang)}
            | {tr("link.invalid_key", lang, name=n.replace("_", "\\_")) for n in names})


def _inert_markdown(text: str) -> None:
    """``text`` holds nothing an attacker could use in Markdown, and renders as one paragraph."""
    markdown_it = pytest.importorskip("markdown_it")
    assert "<" not in text and "](" not in text and "![" not in text and "ev.il" not in text
    assert not any(line.lstrip().startswith("#") for line in text.splitlines()), text
    assert "\n" not in text and "`" not in text and "$$" not in text and "&" not in text
    assert not any(c in text for c in "\u202e\u200b"), text
    html = markdown_it.MarkdownIt("commonmark", {"html": True}).render(text)
    assert html.startswith("<p>") and html.count("<") == 2, html  # <p> … </p>, nothing else


@pytest.mark.parametrize("params", HOSTILE)
def test_a_refused_link_says_nothing_of_its_own_text(links, params):
    for lang in ("en", "zh"):
        said = _said(links, params, lang)
        assert said in _ours(links, lang), (params, said)
        _inert_markdown(said)


def test_a_refused_link_still_names_our_own_key_and_nothing_else(links):
    from webapp.i18n import tr

    assert _said(links, {"tab": "train", "heads": "[x](//ev.il/)"}, "en") == tr(
        "link.invalid_key", "en", name="heads")
    assert _said(links, {"tab": "train", "d_model": "<b>"}, "zh") == tr(
        "link.invalid_key", "zh", name="d\\_model")  # renders d_model, not d<em>model
    assert _said(links, {"tab": "train", "hide": "pe,<img>"}, "en") == tr(
        "link.invalid_key", "en", name="hide")
    for lang in ("en", "zh"):
        assert _said(links, {"tab": "basics", "[Sign in](//ev.il/)": "1"}, lang) == tr(
            "link.invalid_unknown", lang)
        assert _said(links, {"tab": "<a href=//ev.il>x</a>"}, lang) == tr("link.invalid", lang)
    assert tr("link.invalid_unknown", "zh") != tr("link.invalid_unknown", "en")


def test_every_name_the_notice_may_show_is_in_the_safe_alphabet(links):
    """A name outside it would be left out of the notice, silently: none is."""
    names = [n for spec in _app_links().specs().values() for n in spec]
    assert names and all(links.SAFE_NAME.fullmatch(n) for n in names), names


@pytest.mark.parametrize("lang", ["en-US", "zh-CN"])
def test_the_apps_load_event_puts_only_our_words_in_the_notice(links, lang, monkeypatch):
    """The app's own load event (as a browser's page load calls it) and the notice's own
    postprocess: hostile links give the catalogue's sentences, a hostile lock= none of its names.
    No run cache: a run another test trained would add the 'already trained' line."""
    from types import SimpleNamespace

    import app
    from webapp.i18n import tr

    monkeypatch.setattr(app.LAB, "run_cache", lambda: None)

    (apply,) = [f for f in app.demo.fns.values() if f.name == "apply"]
    notice = next(b for b in app.demo.blocks.values() if getattr(b, "elem_id", None) == "link-notice")
    short = "zh" if lang.startswith("zh") else "en"
    partial = {"heads,pe": "pe, heads", "d_ff": "d\\_ff"}  # a valid partial lock: our names, our order
    for params in [*HOSTILE, *({"tab": "train", "lock": lock} for lock in partial)]:
        request = SimpleNamespace(query_params=params, headers={"accept-language": lang})
        update = apply.fn(request)[1]
        said = notice.postprocess(update["value"])
        if params.get("lock") in partial:
            assert said == tr("link.locked_some", short, names=partial[params["lock"]])
        else:
            assert said in _ours(links, short), (params, said)
        _inert_markdown(said)


@pytest.mark.parametrize("lang", ["en-US", "zh-CN"])
def test_a_locked_link_whose_values_cannot_run_together_is_refused(links, lang, monkeypatch):
    """Issue 25, links item: ?tab=multihead&embed=10&heads=3&lock=1 opened silently, and the page
    then refused to draw with heads locked. Locked, such a link is refused with one sentence
    (the tab's defaults stay); unlocked, it opens with a note saying what to change; a trained
    model's own heads ignore the two boxes, so that link opens as usual."""
    from types import SimpleNamespace

    import app
    from webapp.i18n import error_text, tr

    monkeypatch.setattr(app.LAB, "run_cache", lambda: None)
    (apply,) = [f for f in app.demo.fns.values() if f.name == "apply"]
    short = "zh" if lang.startswith("zh") else "en"
    why = error_text("heads_not_divisor", short, {"d_model": 10, "heads": 3}).rstrip("。. ")

    def opened(**params):
        return apply.fn(SimpleNamespace(query_params={"tab": "multihead", **params},
                                        headers={"accept-language": lang}))

    out = opened(embed="10", heads="3", lock="1")
    assert out[1]["value"] == tr("link.cannot_run", short, why=why)
    assert all("value" not in u for u in out[2:])  # nothing of the link's values is set
    unlocked = opened(embed="10", heads="3")
    assert tr("link.cannot_run_open", short, why=why) in unlocked[1]["value"]
    assert any(u.get("value") == 10 for u in unlocked[2:])  # the link's embed is set
    fine = opened(embed="12", heads="3", lock="1")
    assert "cannot" not in str(fine[1]) and "无法" not in str(fine[1])
    trained = opened(source="trained", embed="10", heads="3", lock="1")
    assert tr("link.locked", short) in trained[1]["value"]


def test_the_train_pages_locked_link_must_be_able_to_train(links, monkeypatch):
    """The issue's own example: ?tab=train&heads=3&d_model=32&lock=1 opened silently, then Train
    asked to pick heads among the divisors of 32 with heads locked."""
    from types import SimpleNamespace

    import app
    from webapp.i18n import error_text, tr

    monkeypatch.setattr(app.LAB, "run_cache", lambda: None)
    (apply,) = [f for f in app.demo.fns.values() if f.name == "apply"]
    why = error_text("heads_not_divisor", "en", {"d_model": 32, "heads": 3}).rstrip("。. ")
    out = apply.fn(SimpleNamespace(query_params={"tab": "train", "heads": "3", "d_model": "32",
                                                 "lock": "1"}, headers={"accept-language": "en"}))
    assert out[1]["value"] == tr("link.cannot_run", "en", why=why)
    bahdanau = apply.fn(SimpleNamespace(query_params={"tab": "train", "model": "bahdanau",
                                                      "heads": "3", "d_model": "32", "lock": "1"},
                                        headers={"accept-language": "en"}))
    assert bahdanau[1]["value"] == tr("link.locked", "en")  # the GRU model has no heads


@pytest.mark.parametrize("query,heads,task", [({}, 4, "reverse"),
                                              ({"heads": "2", "lock": "1"}, 2, "reverse"),
                                              ({"task": "sort", "heads": "8", "layers": "2"}, 8, "sort"),
                                              ({"heads": "3", "d_model": "32", "lock": "1"}, 4, "reverse")])
def test_the_train_pages_first_view_follows_its_link(links, query, heads, task):
    """The chromium walk (2026-12-07): ?tab=train&heads=2&lock=1 showed an untrained model of 4
    heads (and, for sort, a caption about reversal): the first view is computed beside the
    link's update, so it now reads the link itself. A link that cannot run keeps the usual view."""
    from types import SimpleNamespace

    import app
    from webapp.i18n import tr

    (load,) = [f for f in app.demo.fns.values()
               if f.name == "on_load" and "train" in f.fn.__module__]
    request = SimpleNamespace(query_params={"tab": "train", **query}, headers={"accept-language": "en"})
    grid, caption = load.fn(640, request)
    titles = [a.text for a in grid.layout.annotations]  # "layer 1 · head 2", one per panel
    assert sum("layer 1 · head" in t for t in titles) == heads, titles
    assert (caption == tr("cap.untrained", "en")) == (task == "reverse")
