"""perfrigor plugin gmm (in progress)."""
