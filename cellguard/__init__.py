"""cellguard: predicts notebook cell crashes before they run."""


def _jupyter_labextension_paths():
    """Where JupyterLab finds the prebuilt front end (built into `cellguard/labextension`)."""
    return [{"src": "labextension", "dest": "jupyterlab-cellguard"}]


def _jupyter_server_extension_points():
    """The server extension that sends LLM checks (the API key stays on the server)."""
    return [{"module": "cellguard.server"}]
