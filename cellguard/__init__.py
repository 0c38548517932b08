"""cellguard: predicts notebook cell crashes before they run."""


def _jupyter_labextension_paths():
    """Where JupyterLab finds the prebuilt front end (built into `cellguard/labextension`)."""
    return [{"src": "labextension", "dest": "jupyterlab-cellguard"}]
