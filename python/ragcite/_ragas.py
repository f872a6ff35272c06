"""The RAGAS metrics of :mod:`ragcite.metrics`. Imported only when they are used: they need
``ragas``."""

from __future__ import annotations

import os
import typing as t
from dataclasses import dataclass, field

from ragas.dataset_schema import SingleTurnSample
from ragas.metrics.base import MetricType, SingleTurnMetric
from ragas.metrics.collections.base import BaseMetric
from ragas.metrics.result import MetricResult
from ragas.run_config import RunConfig

from ._score import METRIC_NAME, CitationScore, _chunks_of, _validate_options, score_answer

__all__ = ["RagasMetric", "RagasSingleTurnMetric"]


def _score(
    response: t.Any,
    retrieved_contexts: t.Any,
    support_threshold: float,
    lang: str,
    answer_format: str,
    support_model: t.Any = None,
    user_input: t.Any = None,
) -> CitationScore:
    # RAGAS's own metrics raise ValueError for a missing field; ragcite.InputError is one.
    if not isinstance(response, str) or not response.strip():
        raise ValueError("response is missing. Please add response to the test sample.")
    if retrieved_contexts is None:
        raise ValueError(
            "retrieved_contexts is missing. Please add retrieved_contexts to the test sample."
        )
    return score_answer(
        response,
        _chunks_of(retrieved_contexts, "retrieved_contexts"),
        support_threshold=support_threshold,
        lang=lang,
        answer_format=answer_format,
        support_model=support_model,
        # The question: a figure it states is context, not a claim the response must cite.
        question=user_input if isinstance(user_input, str) else None,
    )


class RagasMetric(BaseMetric):
    """Citation support as a RAGAS collections metric (the RAGAS 0.4 metric interface), for
    experiments: ``await metric.ascore(response=..., retrieved_contexts=...)`` (or ``score``,
    ``batch_score``) returns a ``MetricResult`` whose ``value`` is the share of the response's
    claim sentences that the chunks they cite support (1.0 when none states a claim) and whose
    ``reason`` lists the sentences that are not, with their verdicts. ``[1]`` cites the first
    retrieved context. No LLM, no embeddings, no network.

    ``support_threshold`` is ragcite's ``threshold`` (0.1 to 1), ``lang`` its language,
    ``answer_format`` how it reads the response (``text`` unless told), ``support_model`` its
    ``model`` (``None``: the model built in; ``"formula"``; or the path of a model file). A
    missing response or
    contexts raise ``ValueError``, as RAGAS's metrics do; input ragcite cannot read raises
    :class:`ragcite.InputError` (a ``ValueError``).
    """

    def __init__(
        self,
        name: str = METRIC_NAME,
        *,
        support_threshold: float = 0.5,
        lang: str = "en",
        answer_format: str = "text",
        support_model: t.Optional[t.Union[str, "os.PathLike[str]"]] = None,
    ) -> None:
        _validate_options(support_threshold, lang, answer_format, support_model)
        self.support_threshold = support_threshold
        self.lang = lang
        self.answer_format = answer_format
        self.support_model = support_model
        super().__init__(name=name, allowed_values=(0.0, 1.0))

    async def ascore(  # type: ignore[override]
        self,
        response: str,
        retrieved_contexts: t.List[str],
        user_input: t.Optional[str] = None,
    ) -> MetricResult:
        """Scores one response against its retrieved contexts; ``user_input``, the question,
        when given: a figure it states is context, not a claim the response must cite."""
        return self.score(response, retrieved_contexts, user_input)

    def score(  # type: ignore[override]
        self,
        response: str,
        retrieved_contexts: t.List[str],
        user_input: t.Optional[str] = None,
    ) -> MetricResult:
        """:meth:`ascore`, synchronously (outside a running event loop or inside one alike)."""
        result = _score(
            response,
            retrieved_contexts,
            self.support_threshold,
            self.lang,
            self.answer_format,
            self.support_model,
            user_input,
        )
        return MetricResult(value=result.score, reason=result.reason)


@dataclass
class RagasSingleTurnMetric(SingleTurnMetric):
    """Citation support as a RAGAS ``SingleTurnMetric``, for ``ragas.evaluate()`` on an
    ``EvaluationDataset`` of ``SingleTurnSample`` s: it reads ``response``,
    ``retrieved_contexts`` and, when there is one, ``user_input`` (the question, whose figures
    are context, not claims) and scores the share of the response's claim sentences that the
    chunks they cite support (1.0 when none states a claim). ``evaluate()`` keeps scores only:
    for the reason, use :class:`RagasMetric` or :func:`ragcite.metrics.score_answer`.

    It uses no LLM and no embeddings, so ``evaluate()`` sets up none for it. A sample without a
    response or contexts raises ``ValueError``, which ``evaluate()`` turns into NaN for that row
    unless ``raise_exceptions=True``.
    """

    name: str = METRIC_NAME
    _required_columns: t.Dict[MetricType, t.Set[str]] = field(
        default_factory=lambda: {
            MetricType.SINGLE_TURN: {"response", "retrieved_contexts", "user_input:optional"}
        }
    )
    support_threshold: float = 0.5
    lang: str = "en"
    answer_format: str = "text"
    support_model: t.Optional[t.Union[str, "os.PathLike[str]"]] = None

    def __post_init__(self) -> None:
        super().__post_init__()
        _validate_options(
            self.support_threshold, self.lang, self.answer_format, self.support_model
        )

    def init(self, run_config: RunConfig) -> None:
        """Nothing to set up: no model."""

    async def _single_turn_ascore(self, sample: SingleTurnSample, callbacks: t.Any) -> float:
        result = _score(
            sample.response,
            sample.retrieved_contexts,
            self.support_threshold,
            self.lang,
            self.answer_format,
            self.support_model,
            sample.user_input,
        )
        return result.score


RagasMetric.__module__ = "ragcite.metrics"
RagasSingleTurnMetric.__module__ = "ragcite.metrics"
