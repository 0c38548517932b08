"""The asynchronous transport of the LLM client (the Jupyter server extension's): tornado's simple
HTTP client, one per call. Cancelling a call must end its requests: tornado leaves a request whose
caller went away running until its timeout, holding a slot of its client, so a shared client would
be exhausted by a few cancelled checks of a hung endpoint. A call's own client closes its
connections in `abort()` instead."""

from __future__ import annotations

from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.iostream import IOStream
from tornado.simple_httpclient import HTTPTimeoutError, SimpleAsyncHTTPClient
from tornado.tcpclient import TCPClient

from .client import MAX_REPLY_BYTES, _Request, _Response


class _TrackingTCPClient(TCPClient):
    """Keeps the connections it opened, so that `close_all` can end them mid-request."""

    def __init__(self, resolver):
        super().__init__(resolver=resolver)
        self._streams: set[IOStream] = set()
        self._closed = False

    async def connect(self, *args, **kwargs) -> IOStream:
        stream = await super().connect(*args, **kwargs)
        if self._closed:  # aborted while connecting
            stream.close()
        else:
            self._streams.add(stream)
        return stream

    def close_all(self) -> None:
        self._closed = True
        for stream in self._streams:
            stream.close()
        self._streams.clear()


class CallHTTPClient(SimpleAsyncHTTPClient):
    """A client for one call: `abort()` closes every connection it has open."""

    def initialize(self, **kwargs) -> None:  # type: ignore[override]
        super().initialize(**kwargs)
        self.tcp_client = _TrackingTCPClient(resolver=self.resolver)

    def abort(self) -> None:
        self.tcp_client.close_all()
        self.close()


def open_client() -> CallHTTPClient:
    return CallHTTPClient(force_instance=True, max_body_size=MAX_REPLY_BYTES)  # type: ignore[return-value]


async def send(http: CallHTTPClient, request: _Request) -> _Response:
    req = HTTPRequest(
        request.url,
        method="POST",
        headers=request.headers,
        body=request.body,
        request_timeout=request.timeout_s,
        connect_timeout=min(request.timeout_s, 20),
        # tornado before 6.5.6 followed a redirect with the Authorization header to any host.
        follow_redirects=False,
    )
    try:
        resp = await http.fetch(req, raise_error=False)
    except HTTPTimeoutError:
        return _Response(0, failure="timeout")
    except (HTTPClientError, OSError) as e:  # the connection failed or was closed
        return _Response(0, failure="unreachable", reason=str(e))
    # A redirect's body is not the endpoint's answer: never read further.
    body = b"" if 300 <= resp.code < 400 else resp.body or b""
    return _Response(resp.code, body, dict(resp.headers))
