"""Red team 3: the public `train` API (gr.api(train, api_name="train")) must enter the training
fair queue keyed by its caller, as the Train page does (client_of(request)).

Found: train() calls run_training(config) with client=None, so each API call is an anonymous
flow of its own with no per-address cap; one address sending K long runs puts an honest Train-page
user behind all K (measured: /tmp/redteam3/train_api_flood.py, K=10 -> honest waited 50.8 s,
10 runs ahead; the same K through the page -> 1 run ahead)."""

import inspect

import gradio as gr
import pytest
from starlette.requests import Request

from webapp.train import api as train_run


def _request(address: str) -> gr.Request:
    scope = {"type": "http", "method": "POST", "path": "/gradio_api/queue/join", "headers": [],
             "client": (address, 40000), "query_string": b""}
    return gr.Request(request=Request(scope), session_hash="api-caller-session")


def test_train_api_passes_its_callers_client_key_to_the_training_queue(monkeypatch):
    seen = []

    def fake_run_training(lab, config, stop=None, client=None):
        seen.append(client)
        raise ValueError("recorded")  # the API turns it into gr.Error

    monkeypatch.setattr(train_run, "run_training", fake_run_training)
    request = _request("203.0.113.9")
    from webapp.lab import Lab
    from webapp.serving.wing import Serving

    train = train_run.train_api(Lab(serving=Serving.local()))  # the app's API, for its own lab
    kwargs = {name: request for name, p in inspect.signature(train).parameters.items()
              if p.annotation in (gr.Request, "gr.Request", "gr.Request | None")}
    with pytest.raises(gr.Error):
        train(**kwargs)
    assert seen, "train() never reached run_training"
    client = seen[0]
    assert client is not None and (client.address or client.session), (
        "the train API enters the fair queue with no client key: each call is its own flow and "
        "no per-address cap applies")
