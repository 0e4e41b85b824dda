"""Pure computation for the playground pages (no gradio): parsing and explorers."""
