"""ragcite.metrics.RagasMetric and RagasSingleTurnMetric against the real RAGAS:
SingleTurnSample, EvaluationDataset, evaluate(), experiments. No LLM, no network (see
conftest.py)."""

from __future__ import annotations

import asyncio
import math

import pytest

import ragcite

from conftest import EIFFEL_REASON, SUPPORTED_ANSWER, eiffel, require

ragas = require("ragas")

from ragas import EvaluationDataset, SingleTurnSample, evaluate, experiment  # noqa: E402
from ragas.dataset import Dataset  # noqa: E402
from ragas.metrics.base import MetricWithEmbeddings, MetricWithLLM, SingleTurnMetric  # noqa: E402
from ragas.metrics.collections.base import BaseMetric  # noqa: E402
from ragas.metrics.result import MetricResult  # noqa: E402

from ragcite.metrics import RagasMetric, RagasSingleTurnMetric  # noqa: E402

# evaluate() is deprecated in RAGAS 0.4 in favour of experiments, and says so.
pytestmark = pytest.mark.filterwarnings("ignore:a?evaluate\\(\\) is deprecated:DeprecationWarning")

NAME = "ragcite_citation_support"
ALL_SUPPORTED = "All 2 claim sentences are supported by the chunks they cite."


def _sample(response: str, contexts) -> SingleTurnSample:
    return SingleTurnSample(
        user_input="Tell me about the Eiffel Tower.", response=response, retrieved_contexts=contexts
    )


def test_the_single_turn_metric_needs_no_model() -> None:
    metric = RagasSingleTurnMetric()
    assert isinstance(metric, SingleTurnMetric)
    assert not isinstance(metric, (MetricWithLLM, MetricWithEmbeddings))
    assert metric.name == NAME
    assert metric.required_columns == {"SINGLE_TURN": {"response", "retrieved_contexts"}}


def test_evaluate_an_evaluation_dataset() -> None:
    answer, chunks = eiffel()
    dataset = EvaluationDataset(
        samples=[
            _sample(answer, chunks),
            _sample(SUPPORTED_ANSWER, chunks),
            _sample("Hello! Thanks for asking.", chunks),
        ]
    )
    result = evaluate(dataset, metrics=[RagasSingleTurnMetric()], show_progress=False)
    assert result.scores == [{NAME: 0.25}, {NAME: 1.0}, {NAME: 1.0}]
    assert result[NAME] == [0.25, 1.0, 1.0]
    assert result.to_pandas()[NAME].tolist() == [0.25, 1.0, 1.0]


def test_evaluate_passes_the_options_on() -> None:
    chunks = ["The Eiffel Tower is a wrought-iron lattice tower in Paris. It is 330 metres tall."]
    dataset = EvaluationDataset(
        samples=[_sample("The lattice tower in Paris is admired by many visitors [1].", chunks)]
    )
    metrics = [
        RagasSingleTurnMetric(),
        RagasSingleTurnMetric(name="strict_citations", support_threshold=0.9),
    ]
    result = evaluate(dataset, metrics=metrics, show_progress=False)
    assert result.scores == [{NAME: 1.0, "strict_citations": 0.0}]


def test_evaluate_turns_a_bad_sample_into_nan_or_raises_when_told() -> None:
    answer, chunks = eiffel()
    dataset = EvaluationDataset(samples=[_sample(answer, chunks), _sample("", chunks)])
    result = evaluate(dataset, metrics=[RagasSingleTurnMetric()], show_progress=False)
    first, second = result[NAME]
    assert first == 0.25 and math.isnan(second)
    with pytest.raises(ValueError, match="response is missing"):
        evaluate(
            dataset, metrics=[RagasSingleTurnMetric()], show_progress=False, raise_exceptions=True
        )


def test_single_turn_ascore_as_ragas_calls_it() -> None:
    answer, chunks = eiffel()
    metric = RagasSingleTurnMetric()
    assert asyncio.run(metric.single_turn_ascore(_sample(answer, chunks))) == 0.25
    assert metric.single_turn_score(_sample(SUPPORTED_ANSWER, chunks)) == 1.0


def test_the_collections_metric_returns_the_reason() -> None:
    answer, chunks = eiffel()
    metric = RagasMetric()
    assert isinstance(metric, BaseMetric)
    assert (metric.name, metric.allowed_values) == (NAME, (0.0, 1.0))
    result = asyncio.run(metric.ascore(response=answer, retrieved_contexts=chunks))
    assert isinstance(result, MetricResult)
    assert (result.value, result.reason) == (0.25, EIFFEL_REASON)
    sync = metric.score(response=SUPPORTED_ANSWER, retrieved_contexts=chunks)
    assert (sync.value, sync.reason) == (1.0, ALL_SUPPORTED)


def test_batch_score_and_score_inside_a_running_loop() -> None:
    answer, chunks = eiffel()
    metric = RagasMetric()
    batch = metric.batch_score(
        [
            {"response": answer, "retrieved_contexts": chunks},
            {"response": SUPPORTED_ANSWER, "retrieved_contexts": chunks},
        ]
    )
    assert [r.value for r in batch] == [0.25, 1.0]

    async def inside() -> float:
        return metric.score(response=answer, retrieved_contexts=chunks).value

    assert asyncio.run(inside()) == 0.25


def test_an_experiment_over_a_dataset() -> None:
    answer, chunks = eiffel()
    metric = RagasMetric()
    dataset = Dataset(name="eiffel", backend="inmemory")
    dataset.append({"id": "worked", "response": answer, "retrieved_contexts": chunks})
    dataset.append({"id": "fixed", "response": SUPPORTED_ANSWER, "retrieved_contexts": chunks})

    @experiment()
    async def citations(row):
        result = await metric.ascore(
            response=row["response"], retrieved_contexts=row["retrieved_contexts"]
        )
        return {"id": row["id"], "score": result.value, "reason": result.reason}

    rows = asyncio.run(citations.arun(dataset, name="citations"))
    assert sorted((row["id"], row["score"], row["reason"]) for row in rows) == [
        ("fixed", 1.0, ALL_SUPPORTED),
        ("worked", 0.25, EIFFEL_REASON),
    ]


@pytest.mark.parametrize(
    "response, contexts, error, message",
    [
        ("", ["x"], ValueError, "response is missing"),
        ("The tower is tall [1].", None, ValueError, "retrieved_contexts is missing"),
        ("The tower is tall [1].", "one string", ragcite.InputError,
         "retrieved_contexts must be a list of strings"),
    ],
)
def test_missing_fields_raise_value_error_as_ragas_metrics_do(
    response, contexts, error, message
) -> None:
    with pytest.raises(error, match=message):
        RagasMetric().score(response=response, retrieved_contexts=contexts)


def test_bad_options_raise_when_the_metric_is_made() -> None:
    with pytest.raises(ragcite.InputError, match="'xx'"):
        RagasMetric(lang="xx")
    with pytest.raises(ragcite.InputError, match="outside 0.1..1"):
        RagasSingleTurnMetric(support_threshold=2)


def test_the_question_a_sample_asks_is_context() -> None:
    # A figure the question states is no claim the response must cite: with `user_input`
    # stating the age, the sentence is supported; without, its `12` is a number mismatch.
    response = "A 12 year old who attempted suicide should see a psychiatrist at once [1]."
    contexts = ["A child who attempted suicide should see a psychiatrist at once."]
    asked = "Should a 12 year old who attempted suicide see a psychiatrist?"
    metric = RagasSingleTurnMetric()
    with_question = SingleTurnSample(user_input=asked, response=response, retrieved_contexts=contexts)
    without = SingleTurnSample(response=response, retrieved_contexts=contexts)
    assert metric.single_turn_score(with_question) == 1.0
    assert metric.single_turn_score(without) == 0.0
    result = evaluate(
        EvaluationDataset(samples=[with_question, without]), metrics=[metric], show_progress=False
    )
    assert result[NAME] == [1.0, 0.0]
    collections = RagasMetric()
    assert collections.score(response, contexts, user_input=asked).value == 1.0
    assert collections.score(response, contexts).value == 0.0
