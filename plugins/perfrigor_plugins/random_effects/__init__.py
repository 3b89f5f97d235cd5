"""perfrigor plugin random_effects (in progress)."""
