"""The LLM path of cellguard: one OpenAI-compatible client (`client.py`) used by the Jupyter server
extension (`cellguard.server`) and, through the `python -m cellguard.llm` worker, by the CLI."""

from .client import Client, LLMConfig, LLMError, config_from_env

__all__ = ["Client", "LLMConfig", "LLMError", "config_from_env"]
