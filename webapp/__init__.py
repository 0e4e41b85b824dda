"""The web app behind app.py: pages (Gradio), services, views, i18n and compute."""
