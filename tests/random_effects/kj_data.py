"""Worked-example data of Kalibera & Jones ("Quantifying performance changes with effect size
confidence intervals", §6; spec random-effects-and-ratios.md §9) and libkalibera's tests."""

# Table III: 3 binaries x 2 executions x 2 measurements
TABLE_III = [[[9, 5], [8, 3]], [[10, 6], [7, 11]], [[1, 12], [2, 4]]]
# Table IV: the same data with the execution level removed (4 measurements per binary)
TABLE_IV = [[9, 5, 8, 3], [10, 6, 7, 11], [1, 12, 2, 4]]
# Table V: old and new systems, 3 binaries x 2 executions x 2 measurements
TABLE_V_OLD = [[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]]
TABLE_V_NEW = [[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]]
# libkalibera python/tests/test_data.py, reps [2, 2, 3]
LIBKALIBERA = [[[3, 4, 3], [1.2, 3.1, 3]], [[0.2, 1, 1.5], [1, 2, 3]]]
