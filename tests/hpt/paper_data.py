"""Data printed in Chen et al. and in the authors' PARSEC toolkit (shared/spec/hpt.md §6.1, §8.3)."""

from __future__ import annotations

# Table III (Sec. IV-C): SPLASH-2, m = 5 runs, scores normalised to Y's first run.
# X~ = X's scores divided by the speedup-under-test 1.76 (as printed, 2 decimals).
TABLE3_X_TILDE = {
    "barnes": [0.53, 0.54, 0.54, 0.53, 0.54],
    "cholesky": [0.97, 0.95, 0.93, 0.96, 0.96],
    "fft": [0.74, 0.76, 0.74, 0.78, 0.76],
    "fmm": [1.07, 1.03, 1.05, 1.02, 1.05],
    "lu-con": [1.29, 1.26, 1.27, 1.27, 1.25],
    "lu-ucon": [1.46, 1.48, 1.38, 1.53, 1.55],
    "ocean-con": [1.17, 1.15, 0.94, 1.16, 1.13],
    "ocean-ucon": [1.95, 1.98, 1.92, 1.93, 1.93],
    "radiosity": [1.01, 1.01, 1.01, 0.99, 1.01],
    "radix": [2.47, 2.51, 2.53, 2.44, 2.11],
    "raytrace": [1.41, 1.39, 1.43, 1.21, 1.37],
    "volrend": [0.92, 0.94, 0.92, 0.92, 0.93],
    "water-ns": [1.64, 1.66, 1.59, 1.64, 1.63],
    "water-sp": [1.84, 1.88, 1.78, 1.80, 1.77],
}
TABLE3_Y = {
    "barnes": [1.00, 1.05, 1.04, 1.03, 1.04],
    "cholesky": [1.00, 0.98, 1.01, 0.99, 0.98],
    "fft": [1.00, 1.03, 1.02, 1.05, 1.03],
    "fmm": [1.00, 1.05, 1.04, 1.04, 1.05],
    "lu-con": [1.00, 1.01, 1.02, 0.98, 1.00],
    "lu-ucon": [1.00, 0.96, 1.04, 0.87, 0.99],
    "ocean-con": [1.00, 0.91, 1.00, 0.98, 0.86],
    "ocean-ucon": [1.00, 0.98, 0.97, 0.90, 0.98],
    "radiosity": [1.00, 1.00, 1.00, 1.00, 1.00],
    "radix": [1.00, 0.86, 0.95, 1.03, 0.97],
    "raytrace": [1.00, 1.09, 1.07, 1.14, 1.07],
    "volrend": [1.00, 1.00, 1.00, 1.00, 1.00],
    "water-ns": [1.00, 0.95, 0.84, 0.93, 0.96],
    "water-sp": [1.00, 1.02, 0.98, 0.87, 1.04],
}
# Table III's "Stat. Win." (X~ = candidate), "Diff." d and "Rank" columns.
TABLE3_WINNER = {
    "barnes": "baseline", "cholesky": "baseline", "fft": "baseline", "fmm": "tie", "lu-con": "candidate",
    "lu-ucon": "candidate", "ocean-con": "candidate", "ocean-ucon": "candidate", "radiosity": "tie",
    "radix": "candidate", "raytrace": "candidate", "volrend": "baseline", "water-ns": "candidate",
    "water-sp": "candidate",
}
TABLE3_D = {
    "barnes": -0.50, "cholesky": -0.03, "fft": -0.27, "fmm": 0.0, "lu-con": 0.27, "lu-ucon": 0.49,
    "ocean-con": 0.17, "ocean-ucon": 0.95, "radiosity": 0.0, "radix": 1.50, "raytrace": 0.32,
    "volrend": -0.08, "water-ns": 0.69, "water-sp": 0.80,
}
TABLE3_RANK = {
    "barnes": 10, "cholesky": 3, "fft": 6.5, "fmm": 1.5, "lu-con": 6.5, "lu-ucon": 9, "ocean-con": 5,
    "ocean-ucon": 13, "radiosity": 1.5, "radix": 14, "raytrace": 8, "volrend": 4, "water-ns": 11,
    "water-sp": 12,
}

# The authors' PARSEC 3.0 toolkit test vector (toolkit/hpt/hpt_report.log): blackscholes,
# 8 workloads, m = 3 runs, execution times in seconds (lower is better); computerA is the
# faster machine (the candidate).
TOOLKIT_WORKLOADS = ["native-1", "native-2", "native-4", "native-8",
                     "simlarge-1", "simlarge-2", "simlarge-4", "simlarge-8"]
TOOLKIT_A = [[490.413, 489.690, 495.383], [261.126, 260.366, 264.068], [146.087, 146.904, 151.929],
             [88.499, 89.421, 92.234], [3.228, 3.224, 3.251], [1.715, 1.722, 1.720], [0.966, 0.961, 0.961],
             [0.590, 0.585, 0.583]]
TOOLKIT_B = [[912.168, 930.411, 1065.073], [514.418, 427.000, 723.546], [306.782, 356.976, 233.970],
             [199.122, 217.293, 175.244], [6.811, 6.834, 5.851], [3.224, 3.340, 4.093], [1.787, 1.950, 1.278],
             [1.121, 0.725, 1.206]]
