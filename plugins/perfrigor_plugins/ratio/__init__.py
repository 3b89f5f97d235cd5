"""perfrigor plugin ratio (in progress)."""
