"""Failures as they cross the comm: a code in `error` plus fields, never a sentence (the reader
phrases it; docs/summary-schema.md lists the codes)."""

from .introspect import class_name

MESSAGE_CHARS = 200


def raised(exc: BaseException) -> dict:
    """`{"error": "raised", "exception", "message"}` for an exception a library raised; the
    message only when it is a plain string (formatting other arguments may call user code)."""
    failure = {"error": "raised", "exception": class_name(type(exc))}
    args = BaseException.__dict__["args"].__get__(exc)
    if len(args) == 1 and type(args[0]) is str:
        failure["message"] = args[0][:MESSAGE_CHARS]
    return failure
