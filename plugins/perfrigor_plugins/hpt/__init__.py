"""perfrigor plugin hpt (in progress)."""
