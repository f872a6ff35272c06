"""The DeepEval metric of :mod:`ragcite.metrics`. Imported only when it is used: it needs
``deepeval``."""

from __future__ import annotations

import os
from typing import Any, List, Optional, Tuple, Union

from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics import BaseMetric
from deepeval.test_case import LLMTestCase

from . import __version__
from ._score import (
    CitationScore,
    _chunks_of,
    _validate_options,
    _validate_score_threshold,
    score_answer,
)

__all__ = ["DeepEvalMetric"]


class DeepEvalMetric(BaseMetric):
    """Citation support as a DeepEval metric: the share of the answer's claim sentences that the
    chunks they cite support, checked by ragcite (lexically: no LLM, no network).

    It reads a test case's ``actual_output`` (the answer, with its citation markers) and
    ``retrieval_context`` (the chunks: ``[1]`` cites the first). ``score`` is from 0 to 1 (1.0
    when no sentence states a claim), ``reason`` lists the sentences that are not supported with
    their verdicts, and ``success`` is ``score >= threshold``. ``result`` holds the whole
    :class:`ragcite.metrics.CitationScore` (its ``failing`` sentences, ragcite's ``report``).

    Options:

    - ``threshold``: the pass mark on the score (0.5, as DeepEval's own metrics).
    - ``support_threshold``: ragcite's ``threshold``, the support a sentence's cited chunk must
      reach (0.1 to 1, default 0.5).
    - ``lang``: the language of ragcite's stemmer and stop words (``en``, ``de``, ``fr``, ...).
    - ``support_model``: ragcite's ``model``, what scores support (``None``: the model built
      in; ``"formula"``; or the path of a model file).
    - ``answer_format``: how ragcite reads ``actual_output`` (``text`` unless told).
    - ``include_reason`` (default ``True``; ``False`` leaves ``reason`` ``None``),
      ``strict_mode`` (the threshold becomes 1 and any failing sentence scores 0),
      ``async_mode`` and ``verbose_mode`` (``verbose_logs`` then lists every sentence's
      verdict) as in DeepEval.

    An empty or missing ``actual_output``, or a missing ``retrieval_context``, raises DeepEval's
    ``MissingTestCaseParamsError`` (``evaluate()`` then follows its ``ErrorConfig``); input that
    ragcite cannot read raises :class:`ragcite.InputError`. Either is kept in ``error`` too.

    ``evaluation_model`` names ragcite's version and options, so DeepEval's result cache never
    hands back a score made with other options.
    """

    def __init__(
        self,
        threshold: float = 0.5,
        *,
        support_threshold: float = 0.5,
        lang: str = "en",
        answer_format: str = "text",
        support_model: Optional[Union[str, "os.PathLike[str]"]] = None,
        include_reason: bool = True,
        strict_mode: bool = False,
        async_mode: bool = True,
        verbose_mode: bool = False,
    ) -> None:
        _validate_options(support_threshold, lang, answer_format, support_model)
        self.threshold = 1.0 if strict_mode else _validate_score_threshold(threshold)
        self.support_threshold = support_threshold
        self.lang = lang
        self.answer_format = answer_format
        self.support_model = support_model
        self.include_reason = include_reason
        self.strict_mode = strict_mode
        self.async_mode = async_mode
        self.verbose_mode = verbose_mode
        self.evaluation_model = (
            f"ragcite {__version__} (lexical, no LLM; support threshold {support_threshold}, "
            f"lang {lang}, answer format {answer_format}{_model_name(support_model)})"
        )
        self.evaluation_cost = 0.0
        self.result: Optional[CitationScore] = None

    def measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """Checks the test case, sets ``score``, ``reason``, ``success`` and ``result``, and
        returns the score. DeepEval's private keyword arguments (``_show_indicator``, ...) are
        accepted and ignored: there is nothing slow to show progress for."""
        self.score = None
        self.reason = None
        self.success = None
        self.error = None
        self.result = None
        self.verbose_logs = None
        try:
            answer, chunks = self._inputs(test_case)
            result = score_answer(
                answer,
                chunks,
                support_threshold=self.support_threshold,
                lang=self.lang,
                answer_format=self.answer_format,
                support_model=self.support_model,
                question=test_case.input if isinstance(test_case.input, str) else None,
            )
        except Exception as error:
            self.error = str(error)
            self.success = False
            raise
        self.result = result
        if self.strict_mode and result.score < 1.0:
            self.score = 0.0
        else:
            self.score = result.score
        self.reason = result.reason if self.include_reason else None
        self.success = self.is_successful()
        if self.verbose_mode:
            self.verbose_logs = _verdicts(result)
        return self.score

    async def a_measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """The same as :meth:`measure`: a check takes microseconds and waits on nothing."""
        return self.measure(test_case, *args, **kwargs)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Citation Support (ragcite)"

    def _inputs(self, test_case: Any) -> Tuple[str, List[Any]]:
        if not isinstance(test_case, LLMTestCase):
            raise ValueError(
                f"{self.__name__} measures an LLMTestCase, not a {type(test_case).__name__}"
            )
        answer = test_case.actual_output
        missing = []
        if not isinstance(answer, str) or not answer.strip():
            missing.append("'actual_output'")
        if test_case.retrieval_context is None:
            missing.append("'retrieval_context'")
        if missing:
            raise MissingTestCaseParamsError(
                f"{' and '.join(missing)} cannot be None or empty for the "
                f"'{self.__name__}' metric"
            )
        assert isinstance(answer, str)
        return answer, _chunks_of(test_case.retrieval_context, "retrieval_context")


def _model_name(model: Any) -> str:
    """The support model as ``evaluation_model`` names it after the other options: nothing for
    the model built in (as before there was a choice), else ``, support model formula`` or the
    file's path."""
    if model is None:
        return ""
    return f", support model {os.fsdecode(os.fspath(model))}"


def _verdicts(result: CitationScore) -> str:
    report = result.report or {}
    lines = [f"Score: {result.score}", "Verdicts:"]
    for sentence in report.get("result", {}).get("sentences", []):
        index, verdict = sentence.get("index"), sentence.get("verdict")
        lines.append(f"  {index}. {verdict}: {sentence.get('sentence')}")
    lines.append(f"Reason: {result.reason}")
    return "\n".join(lines)
