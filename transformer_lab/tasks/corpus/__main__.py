"""`python -m transformer_lab.tasks.corpus`: rewrite `data/en_fr.tsv`."""

from . import OUTPUT, write

if __name__ == "__main__":
    print(f"wrote {write()} pairs to {OUTPUT}")
