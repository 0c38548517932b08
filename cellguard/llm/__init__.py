"""The LLM path of cellguard: one OpenAI-compatible client (`client.py`) used by the Jupyter server
extension (`cellguard.server`) and, through the `python -m cellguard.llm` worker, by the CLI."""

from .client import ERROR_CODES, Client, InvalidSetting, LLMConfig, LLMError, config_from_env

__all__ = ["ERROR_CODES", "Client", "InvalidSetting", "LLMConfig", "LLMError", "config_from_env"]
