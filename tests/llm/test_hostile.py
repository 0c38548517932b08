"""Hostile endpoints and requests against the LLM client and the real server extension, all on
127.0.0.1: the API key never follows a redirect nor shows in an error (whole or cut), an internal
service's answers do not come back, cancelled checks end their upstream requests, a check holds its
deadline, bad numbers are refused with a code, and a custom Authorizer is consulted."""

import asyncio
import json
import math
import time

import pytest
from fake_openai import FakeOpenAI
from local_servers import HungEndpoint, Redirector, call, jupyter_server, start_check, wait_until

from cellguard.llm import Client, LLMConfig, LLMError

KEY = "sk-test-SECRET-0123456789"
MESSAGES = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
PROMPT = {"system": "s", "user": "u"}
DEADLINE_S = 10


def key_pieces_in(text: str) -> list:
    """The 6-character pieces of the key found in `text`."""
    return [KEY[i : i + 6] for i in range(len(KEY) - 5) if KEY[i : i + 6] in text]


def drivers(config: LLMConfig):
    """The same call through the sync (urllib, CLI worker) and async (tornado, server) drivers."""
    client = Client(config)
    return {
        "sync": lambda: client.complete(MESSAGES),
        "async": lambda: asyncio.run(client.acomplete(MESSAGES)),
    }


# -- the client alone ---------------------------------------------------------------------------


@pytest.mark.parametrize("driver", ["sync", "async"])
@pytest.mark.parametrize("status", [302, 307])
def test_no_client_follows_a_redirect(driver, status):
    with FakeOpenAI("success") as elsewhere, Redirector(elsewhere.base_url) as redirector:
        config = LLMConfig(base_url=redirector.url(status), model="m", api_key=KEY, retries=2)
        with pytest.raises(LLMError) as e:
            drivers(config)[driver]()
        assert e.value.code == "redirect_refused"
        assert e.value.fields == {"status": status, "tries": 1}
        ((_, headers),) = redirector.requests  # asked once, not retried
        assert headers["Authorization"] == f"Bearer {KEY}"
        assert elsewhere.requests == []  # never reached, with or without the key
        assert "hunter2" not in e.value.message and KEY not in e.value.message


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_the_key_never_shows_in_an_error_even_cut(driver):
    # The endpoint quotes the key at every position around the 200-character cut, whole, glued to
    # other characters, and partly (as endpoints do when they say which key they refused).
    bodies = [("x" * k) + KEY + " tail" for k in range(185, 205)]
    bodies += [("y " * k) + KEY[:-3] + "zz" for k in range(90, 102)]
    bodies += [f"Incorrect API key provided: {KEY[:-4]}****", f"key={KEY[5:]}."]
    steps = [{"status": 401, "body": body} for body in bodies]
    with FakeOpenAI({"steps": steps}) as endpoint:
        config = LLMConfig(base_url=endpoint.base_url, model="m", api_key=KEY, retries=0)
        messages = []
        for _ in bodies:
            with pytest.raises(LLMError) as e:
                drivers(config)[driver]()
            assert e.value.code == "http_status" and e.value.fields["status"] == 401
            messages.append(e.value.message)
    assert [m for m in messages if key_pieces_in(m)] == []
    assert "HTTP 401: " + "x" * 185 + "*** tail" in messages[0]  # the rest of the text stays
    assert messages[-2].endswith("Incorrect API key provided: *******")  # the key, then 4 *
    assert messages[-1].endswith("key=***.")


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_an_untrusted_endpoint_is_not_quoted(driver):
    internal = "INTERNAL-ONLY metadata: role=admin"
    for step in ({"status": 500, "body": internal}, {"status": 200, "body": internal}):
        with FakeOpenAI({"steps": [step]}) as endpoint:
            trusted = LLMConfig(base_url=endpoint.base_url, model="m", retries=0)
            with pytest.raises(LLMError) as shown:
                drivers(trusted)[driver]()
            untrusted = LLMConfig(base_url=endpoint.base_url, model="m", retries=0, trusted=False)
            with pytest.raises(LLMError) as hidden:
                drivers(untrusted)[driver]()
        assert shown.value.code == hidden.value.code
        assert internal in shown.value.message and "INTERNAL" not in hidden.value.message


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_the_deadline_holds_across_retries(driver):
    with HungEndpoint() as hung:
        config = LLMConfig(
            base_url=hung.base_url, model="m", timeout_s=1, retries=10, deadline_s=2.5
        )
        start = time.monotonic()
        with pytest.raises(LLMError) as e:
            drivers(config)[driver]()
        took = time.monotonic() - start
    assert e.value.code == "deadline" and e.value.fields["seconds"] == 2.5
    assert 2.0 <= took < 4.5, took
    assert hung.accepted == e.value.fields["tries"] == 2  # 1 s, a 1 s pause, then cut to 0.5 s


def test_cancelling_an_async_call_closes_its_connection():
    with HungEndpoint() as hung:
        config = LLMConfig(base_url=hung.base_url, model="m", timeout_s=60, deadline_s=60)

        async def cancel_once_asked():
            call = asyncio.ensure_future(Client(config).acomplete(MESSAGES))
            while hung.accepted == 0:
                await asyncio.sleep(0.02)
            call.cancel()
            with pytest.raises(asyncio.CancelledError):
                await call

        asyncio.run(cancel_once_asked())
        assert wait_until(lambda: hung.open == 0, 5), "the hung request was left open"


@pytest.mark.parametrize(
    "bad",
    [
        {"timeout_s": math.nan},
        {"timeout_s": math.inf},
        {"timeout_s": -5},
        {"timeout_s": 0},
        {"temperature": math.nan},
        {"temperature": -math.inf},
        {"retries": -1},
        {"deadline_s": math.nan},
    ],
)
def test_config_numbers_must_be_finite_and_in_range(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        LLMConfig(base_url="http://127.0.0.1:9", model="m", **bad)


# -- the real server extension ------------------------------------------------------------------


@pytest.fixture(scope="module")
def elsewhere():
    """Where the redirects point: it must never be asked."""
    with FakeOpenAI("success") as f:
        yield f


@pytest.fixture(scope="module")
def redirector(elsewhere):
    with Redirector(elsewhere.base_url) as r:
        yield r


@pytest.fixture(scope="module")
def own_endpoint():
    """The server's configured endpoint: answers 401 quoting the key near the cut."""
    steps = [{"status": 401, "body": ("x" * k) + KEY} for k in range(190, 200)]
    steps.append({"status": 401, "body": f"Incorrect API key provided: {KEY[:-4]}****"})
    with FakeOpenAI({"steps": steps}) as f:
        yield f


@pytest.fixture(scope="module")
def server(own_endpoint, redirector, tmp_path_factory):
    env = dict(
        CELLGUARD_LLM_BASE_URL=own_endpoint.base_url,
        CELLGUARD_LLM_MODEL="m",
        CELLGUARD_LLM_API_KEY=KEY,
        CELLGUARD_LLM_RETRIES="2",
        CELLGUARD_LLM_DEADLINE_S=str(DEADLINE_S),
    )
    origin = redirector.url(302).rsplit("/", 2)[0]
    args = (f"--CellguardLLM.key_origins={origin}",)
    with jupyter_server(tmp_path_factory.mktemp("hostile"), env, *args) as base:
        yield base


def check(server, **body):
    status, text = call(server, "/cellguard/llm/check", {"prompt": PROMPT, "votes": 1, **body})
    return status, json.loads(text), text


@pytest.mark.parametrize("status", [302, 307])
def test_the_server_does_not_follow_a_redirect_with_the_key(server, redirector, elsewhere, status):
    before = len(redirector.requests)
    code, reply, text = check(server, endpoint=redirector.url(status))
    assert code == 200 and reply["answers"] == []
    (error,) = reply["errors"]
    assert {k: error[k] for k in ("code", "status", "tries")} == {
        "code": "redirect_refused",
        "status": status,
        "tries": 1,
    }
    # The key went to its own origin (a trusted one), and no further.
    ((_, headers),) = redirector.requests[before:]
    assert headers["Authorization"] == f"Bearer {KEY}"
    assert elsewhere.requests == []
    assert "hunter2" not in text and key_pieces_in(text) == []


def test_the_server_returns_no_piece_of_the_key(server, own_endpoint):
    texts = []
    for _ in own_endpoint.steps:
        code, reply, text = check(server)
        assert code == 200 and reply["errors"][0]["code"] == "http_status"
        assert reply["errors"][0]["status"] == 401
        texts.append(text)
    assert all(key_pieces_in(text) == [] for text in texts), texts
    assert "Incorrect API key provided: ***" in texts[-1]


def test_an_endpoint_the_browser_names_is_not_quoted(server):
    internal = "INTERNAL-ONLY metadata: role=admin"
    for step in ({"status": 500, "body": internal}, {"status": 200, "body": internal}):
        with FakeOpenAI({"steps": [step]}) as service:
            code, reply, text = check(
                server, endpoint=service.base_url.replace("127.0.0.1", "localhost")
            )
        assert code == 200 and reply["answers"] == [] and reply["errors"], text
        assert "INTERNAL" not in text and "admin" not in text
        assert "Authorization" not in service.requests[0][1]


@pytest.mark.parametrize(
    "field, value",
    [
        ("timeout_s", math.nan),
        ("timeout_s", math.inf),
        ("timeout_s", -1),
        ("timeout_s", 0),
        ("timeout_s", 1e309),  # Infinity in JSON
        ("timeout_s", "60"),
        ("temperature", math.nan),
        ("temperature", 3),
        ("votes", 0),
        ("votes", 2.5),
    ],
)
def test_bad_numbers_are_refused_with_a_code(server, field, value):
    code, reply, text = check(server, **{field: value})
    assert code == 400, text
    (error,) = reply["errors"]
    assert error["code"] == "invalid_request" and error["field"] == field, text


def test_cancelled_hung_checks_end_their_requests_and_leave_room(server):
    with HungEndpoint() as hung, FakeOpenAI("success") as healthy:
        hung_check = {"prompt": PROMPT, "votes": 1, "endpoint": hung.base_url, "timeout_s": 600}
        started = time.monotonic()
        checks = [start_check(server, hung_check) for _ in range(12)]
        # All 12 reach the endpoint: no pool of 10 shared between checks.
        assert wait_until(lambda: hung.accepted == 12, 6), hung.accepted
        for conn in checks:
            conn.close()  # what the browser's cancel does
        assert wait_until(lambda: hung.open == 0, 5), f"{hung.open} upstream requests left open"
        assert time.monotonic() - started < DEADLINE_S  # closed by the cancels, not the deadline
        code, reply, text = check(server, endpoint=healthy.base_url, timeout_s=5)
        assert code == 200 and len(reply["answers"]) == 1, text


def test_a_check_holds_its_deadline(server):
    with HungEndpoint() as hung:
        started = time.monotonic()
        code, reply, text = check(server, endpoint=hung.base_url, timeout_s=600)
        took = time.monotonic() - started
    assert code == 200 and reply["answers"] == []
    (error,) = reply["errors"]
    assert error["code"] == "deadline" and error["seconds"] == DEADLINE_S, text
    assert DEADLINE_S - 0.5 <= took < DEADLINE_S + 4, took
    status, text = call(server, "/cellguard/llm/status")
    assert status == 200 and json.loads(text)["deadline_s"] == DEADLINE_S


def test_a_custom_authorizer_is_consulted(tmp_path, own_endpoint):
    log = tmp_path / "authorizer.log"
    env = dict(
        CELLGUARD_LLM_BASE_URL=own_endpoint.base_url,
        CELLGUARD_LLM_MODEL="m",
        CELLGUARD_LLM_API_KEY=KEY,
        CELLGUARD_TEST_AUTH_LOG=str(log),
    )
    before = len(own_endpoint.requests)
    args = ("--ServerApp.authorizer_class=deny_authorizer.DenyCellguardLLM",)
    with jupyter_server(tmp_path, env, *args) as base:
        assert call(base, "/api/contents")[0] == 200  # other resources are allowed
        assert call(base, "/cellguard/llm/status")[0] == 403
        status, text = call(base, "/cellguard/llm/check", {"prompt": PROMPT})
        assert status == 403, text
    assert len(own_endpoint.requests) == before
    asked = log.read_text().splitlines()
    assert "read cellguard_llm" in asked and "write cellguard_llm" in asked
