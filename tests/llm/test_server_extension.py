"""The server extension in a real `jupyter server` (subprocess on a free port), talking to the local
replaying endpoint. The API key must never appear in a response."""

import json
import time

import pytest
from fake_openai import FakeOpenAI
from local_servers import call, jupyter_server, start_check

KEY = "sk-test-SECRET-0123456789"


@pytest.fixture(scope="module")
def fake():
    with FakeOpenAI("success") as f:
        yield f


@pytest.fixture(scope="module")
def server(fake, tmp_path_factory):
    env = dict(
        CELLGUARD_LLM_BASE_URL=fake.base_url,
        CELLGUARD_LLM_MODEL="fake-model",
        CELLGUARD_LLM_API_KEY=KEY,
    )
    with jupyter_server(tmp_path_factory.mktemp("root"), env, "--CellguardLLM.votes=3") as base:
        yield base


def test_status_shows_the_host_never_the_key(server, fake):
    status, text = call(server, "/cellguard/llm/status")
    assert status == 200
    data = json.loads(text)
    assert (
        data["configured"] is True and data["model"] == "fake-model" and data["host"] == "127.0.0.1"
    )
    assert data["votes"] == 3
    assert KEY not in text and fake.base_url not in text


def test_check_returns_the_raw_answers(server, fake):
    before = len(fake.requests)
    status, text = call(
        server,
        "/cellguard/llm/check",
        {"prompt": {"system": "sys", "user": "usr", "schema": {"type": "object"}}},
    )
    assert status == 200, text
    data = json.loads(text)
    assert len(data["answers"]) == 3 and data["errors"] == []
    assert '"detection": true' in data["answers"][0]
    assert KEY not in text
    sent = fake.requests[before:]
    assert len(sent) == 3
    assert all(h["Authorization"] == f"Bearer {KEY}" for _, h, _ in sent)
    assert sent[0][2]["messages"] == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "usr"},
    ]


def test_check_validates_and_needs_auth(server):
    status, text = call(server, "/cellguard/llm/check", {"prompt": {"user": "x"}})
    assert status == 400
    assert json.loads(text)["errors"][0]["code"] == "invalid_request"
    assert json.loads(text)["errors"][0]["field"] == "prompt"
    status, _ = call(
        server,
        "/cellguard/llm/check",
        {"prompt": {"system": "s", "user": "u"}, "votes": 1},
        token="wrong",
    )
    assert status == 403
    status, text = call(
        server, "/cellguard/llm/check", {"prompt": {"system": "s", "user": "u"}, "votes": 100}
    )
    assert status == 200 and len(json.loads(text)["answers"]) == 9  # capped


def test_browser_settings_override_endpoint_and_model(server, fake):
    before = len(fake.requests)
    body = {
        "prompt": {"system": "s", "user": "u"},
        "votes": 1,
        "endpoint": fake.base_url,
        "model": "browser-model",
        "temperature": 0.2,
        "timeout_s": 5,
    }
    status, text = call(server, "/cellguard/llm/check", body)
    assert status == 200, text
    assert json.loads(text)["model"] == "browser-model"
    ((_, headers, sent),) = fake.requests[before:]
    assert sent["model"] == "browser-model" and sent["temperature"] == 0.2
    # Same origin as the server's base URL: the key goes with it.
    assert headers["Authorization"] == f"Bearer {KEY}"


def test_the_key_never_goes_to_an_endpoint_the_browser_names(server):
    with FakeOpenAI("success") as other:
        # `localhost` is another origin than the server's `127.0.0.1`, though the same process.
        endpoint = other.base_url.replace("127.0.0.1", "localhost")
        status, text = call(
            server,
            "/cellguard/llm/check",
            {"prompt": {"system": "s", "user": "u"}, "votes": 1, "endpoint": endpoint},
        )
        assert status == 200, text
        ((_, headers, _),) = other.requests
        assert "Authorization" not in headers


def test_bad_overrides_are_rejected(server):
    for extra in (
        {"endpoint": "file:///etc/passwd"},
        {"model": 3},
        {"temperature": "hot"},
        {"timeout_s": True},
        {"votes": "3"},
    ):
        status, text = call(
            server, "/cellguard/llm/check", {"prompt": {"system": "s", "user": "u"}, **extra}
        )
        assert status == 400, extra
        (error,) = json.loads(text)["errors"]
        assert error["code"] == "invalid_request" and error["field"] == next(iter(extra)), text


def test_a_check_the_browser_cancels_stops_asking(server):
    # Each answer is a 503 after half a second: the server would retry after 1 s, 2 s, 4 s.
    with FakeOpenAI({"steps": [{"status": 503, "delay_s": 0.5, "body": "{}"}]}) as failing:
        body = {"prompt": {"system": "s", "user": "u"}, "votes": 1, "endpoint": failing.base_url}
        conn = start_check(server, body)
        conn.sock.settimeout(0.2)
        with pytest.raises(TimeoutError):
            conn.getresponse()
        conn.close()  # what the browser's AbortController does
        time.sleep(2.5)  # past the first retry, had the server gone on
        assert len(failing.requests) == 1
