"""What a report says besides results: steps that failed, steps that were skipped, warnings.

Small immutable records with named fields (``error.step``, ``warning.message``), so that
renderers, plugins and the CLI read attributes instead of looking up dictionary keys. Their
``to_dict()`` is what the JSON report has always written for them.
"""

from __future__ import annotations

import attrs

from .keys import PairKey

_text = attrs.validators.instance_of(str)


@attrs.frozen
class StepError:
    """A step that could not run on a benchmark, and why (the message of its ``DataError``).

    ``benchmark`` is ``"(suite)"`` when a suite-level step, or a step's suite summary, failed.
    """

    step: str = attrs.field(validator=_text)
    benchmark: str = attrs.field(validator=_text)
    message: str = attrs.field(validator=_text)

    def to_dict(self) -> dict[str, str]:
        return {"step": self.step, "benchmark": self.benchmark, "message": self.message}


@attrs.frozen
class StepSkip:
    """A step that does not apply to this input (a suite method given one benchmark), and why."""

    step: str = attrs.field(validator=_text)
    reason: str = attrs.field(validator=_text)

    def to_dict(self) -> dict[str, str]:
        return {"step": self.step, "reason": self.reason}


@attrs.frozen
class ReportWarning:
    """A warning of a report, with where it arose.

    ``step`` is a step id, or ``"(input)"`` for the checks of the input data; ``benchmark`` is
    ``"(suite)"`` for a suite-level result; ``key`` is the result's key (a system name or a
    :class:`PairKey`), None when the warning is not about one result's key.
    """

    step: str = attrs.field(validator=_text)
    benchmark: str = attrs.field(validator=_text)
    key: str | PairKey | None = attrs.field(validator=attrs.validators.optional(
        attrs.validators.instance_of((str, PairKey))))
    message: str = attrs.field(validator=_text)

    def to_dict(self) -> dict[str, str]:
        """``{"step", "benchmark", "key", "message"}``; the key as text (``""`` when None)."""
        return {"step": self.step, "benchmark": self.benchmark, "key": "" if self.key is None else str(self.key),
                "message": self.message}
