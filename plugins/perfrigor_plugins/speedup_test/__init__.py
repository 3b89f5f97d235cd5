"""perfrigor plugin speedup_test (in progress)."""
