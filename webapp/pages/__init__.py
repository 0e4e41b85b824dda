"""One module per tab: Gradio components and their wiring, nothing else."""
