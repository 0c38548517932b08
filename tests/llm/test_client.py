"""The one LLM client against a local replaying endpoint: sync and async drivers."""

import asyncio
import time

import pytest
from fake_openai import FakeOpenAI

from cellguard.llm import Client, LLMConfig, LLMError

KEY = "sk-test-SECRET-0123456789"
MESSAGES = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
SCHEMA = {"type": "object", "properties": {"detection": {"type": "boolean"}}}


def client(fake, **kw):
    config = dict(
        base_url=fake.base_url, model="fake", api_key=KEY, timeout_s=5, retries=3, backoff_s=0.01
    )
    config.update(kw)
    return Client(LLMConfig(**config))


def both(c, schema=SCHEMA):
    """The same call through both drivers."""
    return [c.complete(MESSAGES, schema), asyncio.run(c.acomplete(MESSAGES, schema))]


@pytest.mark.parametrize("name", ["success", "fenced", "prose", "single_quotes", "garbage", "html"])
def test_answers_come_back_verbatim(name):
    with FakeOpenAI(name) as fake:
        expected = fake.steps[0]["content"]
        assert both(client(fake)) == [expected, expected]
        path, headers, body = fake.requests[0]
        assert path == "/v1/chat/completions"
        assert headers["Authorization"] == f"Bearer {KEY}"
        assert body["model"] == "fake" and body["messages"] == MESSAGES
        assert body["response_format"]["type"] == "json_schema"
        assert body["response_format"]["json_schema"]["schema"] == SCHEMA


def test_429_is_retried_with_backoff():
    with FakeOpenAI("rate_limited") as fake:
        c = client(fake, backoff_s=0.2)
        start = time.monotonic()
        assert '"detection": false' in c.complete(MESSAGES)
        assert time.monotonic() - start >= 0.2
        assert len(fake.requests) == 2


def test_5xx_exhausts_retries_with_a_clear_error():
    with FakeOpenAI("server_errors") as fake:
        for call in (lambda c: c.complete(MESSAGES), lambda c: asyncio.run(c.acomplete(MESSAGES))):
            before = len(fake.requests)
            with pytest.raises(LLMError) as e:
                call(client(fake, retries=2))
            assert e.value.code == "http_status"
            assert e.value.fields == {"status": 500, "tries": 3}
            assert "after 3 tries" in str(e.value) and "HTTP 500" in str(e.value)
            assert KEY not in str(e.value)
            assert len(fake.requests) - before == 3


def test_timeout_is_an_error_after_retries():
    with FakeOpenAI("timeout") as fake:
        for call in (lambda c: c.complete(MESSAGES), lambda c: asyncio.run(c.acomplete(MESSAGES))):
            with pytest.raises(LLMError) as e:
                call(client(fake, timeout_s=0.3, retries=1))
            assert e.value.code == "timeout" and e.value.fields == {"seconds": 0.3, "tries": 2}
            assert "timed out" in str(e.value)


def test_structured_output_rejection_falls_back_and_is_remembered():
    with FakeOpenAI("structured_rejected") as fake:
        c = client(fake)
        assert "unstructured" in c.complete(MESSAGES, SCHEMA)
        assert ["response_format" in b for _, _, b in fake.requests] == [True, False]
        assert not c.structured_supported()
        # Remembered for the endpoint: the next call goes without structured output at once.
        assert "unstructured" in asyncio.run(client(fake).acomplete(MESSAGES, SCHEMA))
        assert ["response_format" in b for _, _, b in fake.requests] == [True, False, False]


def test_no_key_no_header_and_unconfigured_is_an_error():
    with FakeOpenAI("success") as fake:
        client(fake, api_key=None).complete(MESSAGES)
        assert "Authorization" not in fake.requests[0][1]
    with pytest.raises(LLMError, match="no LLM endpoint configured") as e:
        Client(LLMConfig()).complete(MESSAGES)
    assert e.value.code == "not_configured"


def test_unreachable_endpoint():
    c = Client(LLMConfig(base_url="http://127.0.0.1:9/v1", model="m", retries=0, timeout_s=2))
    with pytest.raises(LLMError, match=r"unreachable|timed out") as e:
        c.complete(MESSAGES)
    assert e.value.code in ("unreachable", "timeout")


def test_url_forms():
    assert LLMConfig(base_url="http://h:1/v1").completions_url() == "http://h:1/v1/chat/completions"
    assert LLMConfig(base_url="http://h:1").completions_url() == "http://h:1/v1/chat/completions"
    assert (
        LLMConfig(base_url="http://h:1/v1/chat/completions").completions_url()
        == "http://h:1/v1/chat/completions"
    )
    assert LLMConfig(base_url="https://api.example.com/v1", api_key=KEY).host == "api.example.com"
    assert KEY not in repr(LLMConfig(api_key=KEY))
