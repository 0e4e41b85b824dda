"""The copy-link button's icon is served from its own folder, not from a copy in Gradio's cache:
the app deletes cached files after LAB_UPLOAD_KEEP_S (delete_cache), and the icon was gone from
every page after 10 minutes (a full test run's shared app showed no icon)."""

from __future__ import annotations

import gradio as gr


def test_the_icon_is_served_from_its_own_folder():
    from webapp.pages import links

    with gr.Blocks():
        row = links.copy_row("basics")
    assert row.button.icon["path"] == str(links.LINK_ICON)
    assert links.LINK_ICON.is_file()
