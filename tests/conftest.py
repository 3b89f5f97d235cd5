"""Test-wide settings: property tests are derandomised so CI runs are reproducible."""

from hypothesis import settings

settings.register_profile("perfrigor", derandomize=True, print_blob=True)
settings.load_profile("perfrigor")
