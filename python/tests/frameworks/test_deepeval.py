"""ragcite.metrics.DeepEvalMetric against the real DeepEval: LLMTestCase, evaluate(),
assert_test(), its error handling. No LLM, no network (see conftest.py)."""

from __future__ import annotations

import asyncio

import pytest

import ragcite

from conftest import EIFFEL_REASON, SUPPORTED_ANSWER, eiffel, require

deepeval = require("deepeval")

from deepeval.errors import MissingTestCaseParamsError  # noqa: E402
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig, ErrorConfig  # noqa: E402
from deepeval.metrics import BaseMetric  # noqa: E402
from deepeval.test_case import LLMTestCase  # noqa: E402

from ragcite.metrics import DeepEvalMetric  # noqa: E402

QUIET = DisplayConfig(print_results=False, show_indicator=False)


def _case(answer: str, chunks, **fields) -> LLMTestCase:
    return LLMTestCase(input="Tell me about the Eiffel Tower.", actual_output=answer,
                       retrieval_context=chunks, **fields)


@pytest.fixture(autouse=True)
def _in_a_temporary_folder(tmp_path, monkeypatch):
    # evaluate() writes its run files into the working directory.
    monkeypatch.chdir(tmp_path)


def test_it_is_a_deepeval_metric_with_deepevals_attributes() -> None:
    metric = DeepEvalMetric()
    assert isinstance(metric, BaseMetric)
    assert metric.__name__ == "Citation Support (ragcite)"
    assert (metric.threshold, metric.strict_mode, metric.async_mode, metric.include_reason) == (
        0.5, False, True, True)
    assert metric.evaluation_model == (
        f"ragcite {ragcite.__version__} (lexical, no LLM; support threshold 0.5, lang en, "
        "answer format text)"
    )
    assert (metric.score, metric.reason, metric.success, metric.error) == (None, None, None, None)
    # Another support model is another evaluation model for DeepEval's cache.
    assert DeepEvalMetric(support_model="formula").evaluation_model.endswith(
        "answer format text, support model formula)"
    )


def test_measure_the_worked_example() -> None:
    answer, chunks = eiffel()
    metric = DeepEvalMetric()
    assert metric.measure(_case(answer, chunks)) == 0.25
    assert (metric.score, metric.success, metric.error) == (0.25, False, None)
    assert metric.reason == EIFFEL_REASON
    assert metric.is_successful() is False
    assert [f.verdict for f in metric.result.failing] == [
        "number-mismatch", "unsupported-citation", "uncited-claim"]


def test_success_is_score_at_least_threshold() -> None:
    answer, chunks = eiffel()
    case = _case(answer, chunks)
    at = DeepEvalMetric(threshold=0.25)
    above = DeepEvalMetric(threshold=0.26)
    at.measure(case)
    above.measure(case)
    assert (at.success, above.success) == (True, False)


def test_a_supported_answer_passes_even_in_strict_mode() -> None:
    _, chunks = eiffel()
    metric = DeepEvalMetric(strict_mode=True)
    assert metric.measure(_case(SUPPORTED_ANSWER, chunks)) == 1.0
    assert (metric.threshold, metric.success) == (1.0, True)
    assert metric.reason == "All 2 claim sentences are supported by the chunks they cite."


def test_strict_mode_scores_zero_unless_every_claim_is_supported() -> None:
    answer, chunks = eiffel()
    metric = DeepEvalMetric(threshold=0.1, strict_mode=True)
    assert metric.measure(_case(answer, chunks)) == 0.0
    assert (metric.threshold, metric.success) == (1.0, False)
    assert metric.reason == EIFFEL_REASON


def test_include_reason_false_leaves_the_reason_out() -> None:
    answer, chunks = eiffel()
    metric = DeepEvalMetric(include_reason=False)
    metric.measure(_case(answer, chunks))
    assert (metric.score, metric.reason) == (0.25, None)


def test_no_claim_scores_one_and_passes() -> None:
    metric = DeepEvalMetric(threshold=1.0)
    assert metric.measure(_case("Hello! Thanks for asking.", ["The tower is tall."])) == 1.0
    assert metric.success is True
    assert metric.reason.startswith("No claim sentence to check")


def test_ragcite_options_reach_the_check() -> None:
    chunks = ["The Eiffel Tower is a wrought-iron lattice tower in Paris. It is 330 metres tall."]
    case = _case("The lattice tower in Paris is admired by many visitors [1].", chunks)
    assert DeepEvalMetric().measure(case) == 1.0
    strict = DeepEvalMetric(support_threshold=0.9)
    assert strict.measure(case) == 0.0
    assert strict.result.failing[0].verdict == "weak-support"
    assert "support threshold 0.9" in strict.evaluation_model


def test_verbose_mode_lists_every_verdict() -> None:
    answer, chunks = eiffel()
    metric = DeepEvalMetric(verbose_mode=True)
    metric.measure(_case(answer, chunks))
    assert metric.verbose_logs.splitlines()[:6] == [
        "Score: 0.25",
        "Verdicts:",
        "  1. supported: The Eiffel Tower is 330 metres tall [1].",
        "  2. number-mismatch: It was completed in 1888 for the World's Fair [2].",
        "  3. unsupported-citation: "
        "It was designed by the engineering company of Gustave Eiffel [3].",
        "  4. uncited-claim: Around 7 million people visit it every year.",
    ]


def test_a_measure_as_deepevals_async_runner_calls_it() -> None:
    answer, chunks = eiffel()
    metric = DeepEvalMetric()
    score = asyncio.run(metric.a_measure(_case(answer, chunks), _show_indicator=False))
    assert (score, metric.reason) == (0.25, EIFFEL_REASON)


def test_retrieved_context_data_is_cited_by_position_and_source() -> None:
    from deepeval.test_case.llm_test_case import RetrievedContextData

    contexts = [RetrievedContextData(context="The tower is 330 metres tall.", source="tower.pdf")]
    metric = DeepEvalMetric(threshold=1.0)
    assert metric.measure(_case("The tower is 330 metres tall [1].", contexts)) == 1.0
    by_source = _case("The tower is 330 metres tall (source: tower.pdf).", contexts)
    assert metric.measure(by_source) == 1.0


@pytest.mark.parametrize(
    "fields, missing",
    [
        ({"actual_output": "The tower is tall [1].", "retrieval_context": None},
         "'retrieval_context'"),
        ({"actual_output": "", "retrieval_context": ["x"]}, "'actual_output'"),
        ({"actual_output": None, "retrieval_context": None},
         "'actual_output' and 'retrieval_context'"),
    ],
)
def test_missing_fields_raise_deepevals_missing_params_error(fields, missing) -> None:
    metric = DeepEvalMetric()
    case = LLMTestCase(input="q", **fields)
    with pytest.raises(MissingTestCaseParamsError, match=missing):
        metric.measure(case)
    assert metric.error.startswith(missing)
    assert (metric.success, metric.score) == (False, None)
    assert metric.is_successful() is False


def test_bad_options_raise_when_the_metric_is_made() -> None:
    with pytest.raises(ragcite.InputError, match="outside 0.1..1"):
        DeepEvalMetric(support_threshold=2)
    with pytest.raises(ragcite.InputError, match="'xx'"):
        DeepEvalMetric(lang="xx")
    with pytest.raises(ValueError, match="threshold must be from 0 to 1"):
        DeepEvalMetric(threshold=1.5)


@pytest.mark.parametrize("run_async", [True, False])
def test_evaluate_end_to_end(run_async: bool) -> None:
    answer, chunks = eiffel()
    cases = [_case(answer, chunks), _case(SUPPORTED_ANSWER, chunks)]
    result = deepeval.evaluate(
        test_cases=cases,
        metrics=[DeepEvalMetric()],
        async_config=AsyncConfig(run_async=run_async),
        display_config=QUIET,
    )
    rows = sorted(
        ((r.actual_output, r.success, [(m.name, m.score, m.success, m.reason, m.error)
                                       for m in r.metrics_data]) for r in result.test_results),
        key=lambda row: row[0] != answer,
    )
    assert rows == [
        (answer, False, [("Citation Support (ragcite)", 0.25, False, EIFFEL_REASON, None)]),
        (SUPPORTED_ANSWER, True, [(
            "Citation Support (ragcite)", 1.0, True,
            "All 2 claim sentences are supported by the chunks they cite.", None)]),
    ]
    evaluation_model = result.test_results[0].metrics_data[0].evaluation_model
    assert evaluation_model.startswith(f"ragcite {ragcite.__version__} (lexical, no LLM")


def test_evaluate_records_errors_as_deepeval_is_told_to() -> None:
    bad = LLMTestCase(input="q", actual_output="The tower is tall [1].")  # no retrieval_context
    with pytest.raises(MissingTestCaseParamsError):
        deepeval.evaluate(test_cases=[bad], metrics=[DeepEvalMetric()], display_config=QUIET)
    ignored = deepeval.evaluate(
        test_cases=[bad], metrics=[DeepEvalMetric()], display_config=QUIET,
        error_config=ErrorConfig(ignore_errors=True),
    )
    data = ignored.test_results[0].metrics_data[0]
    assert (data.success, data.score) == (False, None)
    assert "'retrieval_context' cannot be None or empty" in data.error
    skipped = deepeval.evaluate(
        test_cases=[bad], metrics=[DeepEvalMetric()], display_config=QUIET,
        error_config=ErrorConfig(skip_on_missing_params=True),
    )
    assert [r.metrics_data for r in skipped.test_results] == [[]]


def test_assert_test_passes_a_supported_answer_and_fails_the_worked_example() -> None:
    answer, chunks = eiffel()
    deepeval.assert_test(_case(SUPPORTED_ANSWER, chunks), [DeepEvalMetric(threshold=1.0)])
    with pytest.raises(AssertionError, match="Citation Support \\(ragcite\\)"):
        deepeval.assert_test(_case(answer, chunks), [DeepEvalMetric()])
