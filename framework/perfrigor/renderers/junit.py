"""The report as JUnit XML, the format CI test reporters read (Jenkins, GitLab, GitHub actions).

One test case per benchmark: a "slower" verdict is a failure carrying the verdict's sentence, an
"unclear" one a skipped case with its reason, a benchmark the pipeline could not judge an error;
"faster" and "same" pass. Without verdicts (a custom pipeline) a benchmark fails when
``report.regressions()`` names it. The document validates against the JUnit schema of Jenkins'
xUnit plugin (``tests/fixtures/junit``); test times are 0: nothing was run as a test.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import attrs

from ..report import findings
from ..results import Verdict
from ..textsafe import terminal_safe
from ._verdicts import change_text, direction, flags_of, suite_line

#: characters XML 1.0 cannot hold even escaped, that terminal_safe leaves (it shows the control characters
#: and lone surrogates as escapes)
_NOT_XML = re.compile("[\ufffe\uffff]")


def _text(text: str) -> str:
    """Text from the data (benchmark names, reasons) made safe for an XML document."""
    return _NOT_XML.sub("\ufffd", terminal_safe(str(text)))


class JunitRenderer:
    """JUnit XML: one test case per benchmark; "slower" fails, "unclear" is skipped, no verdict an error."""

    name = "junit"
    suffix = ".xml"

    def render(self, report) -> str:
        slow: dict[str | None, list[str]] = {}
        for bench, line in findings(report)[0]:
            slow.setdefault(bench, []).append(line)
        errors: dict[str, list[str]] = {}
        for e in report.errors:
            errors.setdefault(e.benchmark, []).append(f"{e.step}: {e.message}")
        pair = f"{report.baseline} -> {report.candidate}" if report.candidate else report.baseline
        suite = ET.Element("testsuite", name=_text(f"perfrigor {report.pipeline}: {pair}"))
        properties = ET.SubElement(suite, "properties")
        line = suite_line(report)
        for key, value in (("pipeline", report.pipeline), ("baseline", report.baseline),
                           ("candidate", report.candidate), ("source", report.source),
                           ("suite", line[0].text if line else None)):
            if value:
                ET.SubElement(properties, "property", name=key, value=_text(value))
        verdicts = report.verdicts
        kinds = [_case(ET.SubElement(suite, "testcase", name=_text(bench), time="0",
                                     classname=_text(f"perfrigor.{report.pipeline}")),
                       verdicts.get(bench), direction(report, bench)[0], slow.get(bench), errors.get(bench))
                 for bench in report.benchmarks]
        counts = {"tests": str(len(kinds)), "failures": str(kinds.count("failure")),
                  "errors": str(kinds.count("error"))}
        suite.attrib.update(counts, skipped=str(kinds.count("skipped")), time="0")
        root = ET.Element("testsuites", name="perfrigor", **counts, time="0")
        root.append(suite)
        ET.indent(root)
        return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _case(case: ET.Element, v: Verdict | None, lower_is_better: bool, slow: list[str] | None,
          errors: list[str] | None) -> str:
    """Fill one test case; returns what it is: "failure", "error", "skipped" or "passed"."""
    if v is not None:
        sentence = v.reasons[0] if v.reasons else v.describe()
        what = f"{v.outcome}, {change_text(v, lower_is_better)}: {sentence}"
        flags = flags_of(v)
        detail = "\n".join([attrs.evolve(v, reasons=()).describe(), *v.reasons,
                            *([f"noticed: {', '.join(flags)}"] if flags else [])])
    if slow:
        ET.SubElement(case, "failure", type="slower", message=_text(what if v is not None else slow[0])).text = \
            _text(detail if v is not None else "\n".join(slow))
        return "failure"
    if v is None and errors:
        ET.SubElement(case, "error", type="no verdict", message=_text(errors[0])).text = _text("\n".join(errors))
        return "error"
    if v is not None and v.outcome == "unclear":
        ET.SubElement(case, "skipped", type="unclear", message=_text(what)).text = _text(detail)
        return "skipped"
    if v is not None:
        ET.SubElement(case, "system-out").text = _text(f"{what}\n{detail}")
    return "passed"
