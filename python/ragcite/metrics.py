"""ragcite's checks as a metric for the eval frameworks: DeepEval and RAGAS.

The score of an answer is the share of its claim sentences that are supported: sentences whose
verdict is ``supported``, over the sentences whose verdict is anything but ``no-claim``. The
reason lists the sentences that are not supported, each with its verdict and what ragcite found
(the numbers no cited chunk holds, the markers that point nowhere, a suggested citation, ...).

    >>> from ragcite import metrics
    >>> result = metrics.score_answer(
    ...     "The tower is 330 metres tall [1]. It opened in 1925 [1].",
    ...     ["The tower is 330 metres tall. It opened in 1889."],
    ... )
    >>> result.score
    0.5

The framework-free core is :func:`score` (a report of :func:`ragcite.check` in, a
:class:`CitationScore` out) and :func:`score_answer` (an answer and its chunks in). The framework
classes are made when first used, so that this module imports without the frameworks:

- ``DeepEvalMetric``: a DeepEval ``BaseMetric`` (``pip install deepeval``). It reads a test
  case's ``actual_output`` and ``retrieval_context``.
- ``RagasMetric``: a RAGAS collections metric, ``ascore(response=..., retrieved_contexts=...)``
  returning a ``MetricResult`` with the reason, for RAGAS experiments (``pip install ragas``).
- ``RagasSingleTurnMetric``: a RAGAS ``SingleTurnMetric`` for ``ragas.evaluate()`` on an
  ``EvaluationDataset`` of ``SingleTurnSample`` s (``response`` and ``retrieved_contexts``),
  which takes scores only.

None of them calls a model or the network. In every one, the first retrieved context is the
chunk that ``[1]`` cites, the second ``[2]``, and so on.

Decisions:

- **No claim sentence** (an answer of greetings, headings or connectives only): the score is
  1.0, since nothing in the answer is unsupported, as ragcite's gate passes such an answer; the
  reason says there was nothing to check, and :attr:`CitationScore.claims` is 0 for those who
  want to set such answers aside. An empty answer is an input error (:class:`ragcite.InputError`),
  as it is for :func:`ragcite.check`.
- **weak-support fails**: its support is below the threshold, so it is not supported.
- Every verdict other than ``supported`` and ``no-claim`` fails (``contradicted``,
  ``number-mismatch``, ``misquote``, ``weak-support``, ``unsupported-citation``,
  ``uncited-claim``).
- Chunks that nobody cites do not lower the score: it is about the answer's sentences. A marker
  that names no chunk beside a supporting one leaves its sentence supported; the reason names it.
- The answer is read as plain text (``answer_format="text"``): the frameworks hold the answer's
  text, and a text that happens to look like JSON is not to be read as a provider's response.
  Pass ``answer_format="auto"`` (or a provider's name) to read whole responses as
  :func:`ragcite.check` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List

from ._score import (
    METRIC_NAME,
    CitationScore,
    FailingSentence,
    _chunks_of as _chunks_of,
    score,
    score_answer,
)

if TYPE_CHECKING:  # pragma: no cover - for type checkers, which may have the frameworks
    from ._deepeval import DeepEvalMetric as DeepEvalMetric
    from ._ragas import RagasMetric as RagasMetric
    from ._ragas import RagasSingleTurnMetric as RagasSingleTurnMetric

__all__ = [
    "CitationScore",
    "FailingSentence",
    "METRIC_NAME",
    "score",
    "score_answer",
]

# The public classes are this module's, whichever file defines them (pickles, reprs, docs).
CitationScore.__module__ = FailingSentence.__module__ = __name__

# The framework classes, made on first use: (module, package, framework, version tested).
_LAZY = {
    "DeepEvalMetric": ("._deepeval", "deepeval", "DeepEval", "4.3.1"),
    "RagasMetric": ("._ragas", "ragas", "RAGAS", "0.4.3"),
    "RagasSingleTurnMetric": ("._ragas", "ragas", "RAGAS", "0.4.3"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, package, framework, tested = _LAZY[name]
    import importlib

    try:
        module = importlib.import_module(module_name, __package__)
    except ModuleNotFoundError as error:
        if error.name == package:
            raise ImportError(
                f"ragcite.metrics.{name} needs {framework}, which is not installed: "
                f"pip install {package}"
            ) from error
        if error.name and error.name.startswith(package + "."):
            raise ImportError(
                f"ragcite.metrics.{name} needs a {framework} that has {error.name} "
                f"(it was tested with {package} {tested})"
            ) from error
        raise
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(__all__) | set(_LAZY))
