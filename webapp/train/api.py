"""Starting a training run for the Train page and its `train` API: devices, ZeroGPU, the stream."""

from __future__ import annotations

import os

import gradio as gr

from transformer_lab.message import Refused
from webapp.lab import Lab
from webapp.pages.sign_in import client_of
from webapp.settings import WebSettings
from webapp.train.train_config import API_STEPS, CHOICES, start_values, typed

GPU_SECONDS = 120  # one ZeroGPU call; the step ceiling in webapp.train.training keeps runs inside


def _gpu(fn):
    """spaces.GPU on a Hugging Face Space with ZeroGPU; elsewhere (no `spaces`) a no-op."""
    try:
        import spaces
    except ImportError:
        return fn
    return spaces.GPU(duration=GPU_SECONDS)(fn)


def devices() -> list[str]:
    """Device choices without importing torch: cuda only where a GPU is visible."""
    found = ["auto", "cpu"]
    if os.path.exists("/dev/nvidiactl") or os.environ.get("SPACES_ZERO_GPU"):
        found.append("cuda")
    return found


def tatoeba_offered() -> bool:
    """Offer D2L's Tatoeba corpus where the host likely has internet: a Space, or LAB_TATOEBA=1."""
    return bool(os.environ.get("SPACE_ID")) or WebSettings.read("tatoeba")


@_gpu
def _stream(run):
    from webapp.train.training import stream

    yield from stream(run)


def run_training(lab: Lab, config, stop=None, client=None):
    """Yield (message, run) while training the ExperimentConfig ``config`` (built by
    training.page_config); the run holds records, snapshots, weights, summary. A cached run
    replays at once; otherwise messages with "queued" come while it waits its turn in the
    training line of the app ``lab`` (webapp.train.train_queue; ``client``: the fair queue's
    ClientKey)."""
    from webapp.train.train_queue import train_or_replay

    # A cached run is the one read-only Run every session replaying it shares (no model copy).
    yield from train_or_replay(config, _stream, client, stop, cache=lab.run_cache(),
                               serving=lab.serving, shared=lab.shared)


_API = start_values().replace(steps=API_STEPS)  # the train API's defaults: a quick reverse run


def train_api(lab: Lab):
    """The ``train`` API of the app ``lab``."""

    def train(task: str = _API.task, heads: int = _API.heads, d_model: int = _API.d_model,
              layers: int = _API.layers, d_ff: int = _API.d_ff, dropout: float = _API.dropout,
              pe: str = _API.pe, steps: int = _API.steps, device: str = _API.device,
              seed: int = _API.seed, model: str = _API.model,
              request: gr.Request | None = None) -> dict:
        """Train a model with the Train page's settings; returns settings, summary (translate: scores
        on held-out sentences) and the validation rows of the history. New parameters will always
        come with defaults."""
        choices = {k: v for k, v in locals().items() if k in CHOICES}  # the parameters, by name
        from webapp.train.training import page_config

        run = None
        try:
            config = page_config(task, **typed(choices))
            # The caller's address and session key its queue ticket, as on the Train page: API calls
            # share one flow per address and its cap, not one fresh flow each (red team R1).
            for _, run in run_training(lab, config, client=client_of(lab, request)):  # noqa: B007
                pass  # the API returns only the finished run
        except Refused as err:  # the line's refusal, in English as the API's other errors
            raise gr.Error(err.message["en"]) from None
        except (ValueError, TypeError) as err:
            raise gr.Error(str(err)) from None
        evals = run.history[run.history["phase"] == "eval"]
        return {"task": task, "settings": run.config.as_dict(), "summary": run.summary,
                "eval": evals.drop(columns=["phase"]).to_dict(orient="records")}

    return train
