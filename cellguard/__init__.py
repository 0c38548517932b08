"""cellguard: predicts notebook cell crashes before they run."""
