"""Colours and sizes the plots and the HTML page share (no matplotlib here: the page's CSS uses them)."""

from __future__ import annotations

#: one colour per verdict outcome (and the method outcomes of reports without verdicts)
OUTCOME_COLOURS = {
    "faster": "#2f855a",
    "slower": "#c53030",
    "same": "#718096",
    "no change": "#718096",
    "not faster": "#718096",
    "unclear": "#b7791f",
}
#: the two systems' colours in distribution and run-order plots
BASELINE_COLOUR = "#4a5568"
CANDIDATE_COLOUR = "#3182ce"
#: baseline, candidate, then further systems (``perfrigor describe`` of a many-system file)
SYSTEM_COLOURS = (BASELINE_COLOUR, CANDIDATE_COLOUR, "#805ad5", "#dd6b20", "#38a169", "#d53f8c")
#: fitted densities and their marks
DENSITY_COLOUR = "#1a202c"
MARK_COLOUR = "#d53f8c"
