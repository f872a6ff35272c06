"""The framework-free core of ragcite.metrics: score(report) and score_answer(answer, chunks)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

import ragcite
from ragcite import metrics

from conftest import EIFFEL_REASON, SUPPORTED_ANSWER, eiffel


def test_worked_example_scores_a_quarter_and_names_the_three_failing_sentences() -> None:
    answer, chunks = eiffel()
    result = metrics.score_answer(answer, chunks)
    assert result.score == 0.25
    assert (result.claims, result.supported) == (4, 1)
    assert [(f.index, f.verdict) for f in result.failing] == [
        (2, "number-mismatch"),
        (3, "unsupported-citation"),
        (4, "uncited-claim"),
    ]
    assert result.failing[0].details == ("not in the cited chunks: 1888",)
    assert result.reason == EIFFEL_REASON
    assert "330 metres" not in result.reason  # the supported sentence is not listed


def test_score_reads_the_report_that_ragcite_check_returns() -> None:
    answer, chunks = eiffel()
    report = ragcite.check(answer, chunks)
    result = metrics.score(report)
    assert (result.score, result.reason) == (0.25, EIFFEL_REASON)
    assert result.report is report


def _report(*verdicts: str) -> dict:
    """A hand-made report: one sentence per verdict, nothing else."""
    return {
        "inputs": {"threshold": 0.5},
        "result": {
            "sentences": [
                {"index": i, "sentence": f"Sentence {i}.", "verdict": verdict}
                for i, verdict in enumerate(verdicts, start=1)
            ],
            "unknownMarkers": [],
        },
    }


@pytest.mark.parametrize(
    "verdicts, expected",
    [
        (["supported", "no-claim", "weak-support", "supported", "no-claim"], 2 / 3),
        (["no-claim", "supported", "no-claim"], 1.0),
        (["weak-support"], 0.0),
        (["misquote", "supported", "supported", "supported"], 0.75),
        (["uncited-claim", "unsupported-citation", "number-mismatch", "supported"], 0.25),
    ],
)
def test_no_claim_sentences_do_not_count_and_weak_support_fails(verdicts, expected) -> None:
    result = metrics.score(_report(*verdicts))
    assert result.score == pytest.approx(expected)
    assert result.claims == sum(v != "no-claim" for v in verdicts)


def test_an_answer_without_a_claim_scores_one_and_says_so() -> None:
    result = metrics.score_answer("Hello! Thanks for asking.", ["The tower is 330 metres tall."])
    assert (result.score, result.claims, result.supported, result.failing) == (1.0, 0, 0, ())
    assert result.reason == (
        "No claim sentence to check (2 sentences, none states a checkable claim): "
        "nothing is unsupported."
    )


def test_an_answer_whose_claims_are_all_supported_scores_one() -> None:
    _, chunks = eiffel()
    result = metrics.score_answer(SUPPORTED_ANSWER, chunks)
    assert (result.score, result.claims, result.supported) == (1.0, 2, 2)
    assert result.reason == "All 2 claim sentences are supported by the chunks they cite."


def test_weak_support_is_below_the_threshold_and_fails() -> None:
    # The formula's scores, which the expected details were worked out with.
    chunks = ["The Eiffel Tower is a wrought-iron lattice tower in Paris. It is 330 metres tall."]
    result = metrics.score_answer(
        "The wrought-iron tower in Paris attracts huge crowds of tourists [1].",
        chunks,
        support_model="formula",
    )
    assert result.score == 0.0
    assert [f.verdict for f in result.failing] == ["weak-support"]
    assert result.failing[0].details == (
        "support 0.48 < threshold 0.5",
        "missing words: attracts, huge, crowds, tourists",
    )


def test_support_threshold_is_ragcites_threshold() -> None:
    chunks = ["The Eiffel Tower is a wrought-iron lattice tower in Paris. It is 330 metres tall."]
    answer = "The lattice tower in Paris is admired by many visitors [1]."
    # The formula's scores, which the expected details were worked out with.
    assert metrics.score_answer(answer, chunks, support_model="formula").score == 1.0
    strict = metrics.score_answer(
        answer, chunks, support_threshold=0.9, support_model="formula"
    )
    assert strict.score == 0.0
    assert strict.failing[0].verdict == "weak-support"
    assert strict.failing[0].details[0] == "support 0.50 < threshold 0.9"
    assert strict.report["inputs"]["threshold"] == 0.9


def test_lang_is_passed_to_ragcite() -> None:
    # The German stemmer finds Eiffelturm in Eiffeltürme, Weltausstellung in Weltausstellungen;
    # the English one does not.
    chunks = ["Der Eiffelturm wurde 1889 für die Weltausstellung in Paris gebaut."]
    answer = "Die Eiffeltürme wurden 1889 für die Weltausstellungen gebaut [1]."
    german = metrics.score_answer(answer, chunks, lang="de")
    assert (german.score, german.report["inputs"]["lang"]) == (1.0, "de")
    assert metrics.score_answer(answer, chunks).score == 0.0


def test_a_misquote_names_the_quotation() -> None:
    chunks = ["A 2019 report said that the tower was repainted every seven years by a team."]
    result = metrics.score_answer(
        'A 2019 report said that "the tower was repainted every five years" [1].', chunks
    )
    assert result.score == 0.0
    assert result.failing[0].verdict == "misquote"
    # `five years` is a figure in words, which the chunk's `seven years` does not hold.
    assert result.failing[0].details == (
        "not in the cited chunks: five",
        "quote not in chunk 1: “the tower was repainted every five years”",
    )


def test_a_contradicted_sentence_names_the_chunk_and_its_words() -> None:
    report = _report("contradicted", "supported")
    report["result"]["sentences"][0]["contradiction"] = {
        "kind": "polarity",
        "chunk": "2",
        "sentenceWords": "reduced",
        "chunkWords": "did not significantly reduce",
        "chunkSpan": {"start": 13, "end": 41},
        "passage": "Empagliflozin did not significantly reduce all-cause mortality.",
    }
    result = metrics.score(report)
    assert result.score == 0.5
    assert result.failing[0].verdict == "contradicted"
    assert result.failing[0].details == (
        "chunk 2 says “did not significantly reduce” (polarity)",
    )


def test_markers_that_name_no_chunk() -> None:
    chunks = ["The tower is 330 metres tall."]
    alone = metrics.score_answer("The tower is 330 metres tall [7].", chunks)
    assert alone.score == 0.0
    assert alone.failing[0].verdict == "unsupported-citation"
    assert alone.failing[0].details == ("no chunk for [7]", "suggested citation: [1]")
    beside = metrics.score_answer("The tower is 330 metres tall [1][7].", chunks)
    assert beside.score == 1.0
    assert beside.reason == (
        "The claim sentence is supported by the chunk it cites.\n"
        "Markers that name no chunk: [7]."
    )


def test_a_long_answer_lists_ten_failing_sentences_and_counts_the_rest() -> None:
    answer = " ".join(f"The tower had {n} visitors on day {n}." for n in range(1, 13))
    result = metrics.score_answer(answer, ["The tower is 330 metres tall."])
    assert (result.score, result.claims) == (0.0, 12)
    lines = result.reason.split("\n")
    assert lines[0] == "0 of 12 claim sentences supported (score 0). Not supported:"
    assert len(lines) == 12  # the heading, ten sentences, the count of the rest
    assert lines[10] == (
        '- sentence 10, uncited-claim: "The tower had 10 visitors on day 10." (cites nothing)'
    )
    assert lines[11] == "- … and 2 more"
    assert len(result.failing) == 12


def test_the_reason_is_deterministic() -> None:
    answer, chunks = eiffel()
    reasons = {metrics.score_answer(answer, chunks).reason for _ in range(20)}
    assert reasons == {EIFFEL_REASON}


def test_context_objects_with_a_source_are_chunks_named_by_it() -> None:
    class Context:  # the shape of DeepEval's RetrievedContextData
        def __init__(self, context: str, source: str) -> None:
            self.context, self.source = context, source

    chunks = metrics._chunks_of(
        [Context("The tower is 330 metres tall.", "tower.pdf"), "Paris is in France."],
        "retrieval_context",
    )
    assert chunks == [{"text": "The tower is 330 metres tall.", "source": "tower.pdf"},
                      "Paris is in France."]
    by_source = metrics.score_answer("The tower is 330 metres tall (source: tower.pdf).", chunks)
    by_position = metrics.score_answer("The tower is 330 metres tall [1].", chunks)
    assert (by_source.score, by_position.score) == (1.0, 1.0)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: metrics.score_answer("", ["x"]), "the answer is empty"),
        (lambda: metrics.score_answer("The tower is tall [1].", ["x"], support_threshold=5),
         "outside 0.1..1"),
        (lambda: metrics.score_answer("The tower is tall [1].", ["x"], lang="xx"), "'xx'"),
        (lambda: metrics._chunks_of("one string", "retrieved_contexts"),
         "retrieved_contexts must be a list of strings"),
        (lambda: metrics._chunks_of([3], "retrieved_contexts"),
         "retrieved_contexts[0] must be a string, not int"),
    ],
)
def test_bad_input_raises_input_error(call, message) -> None:
    with pytest.raises(ragcite.InputError, match=re.escape(message)):
        call()


@pytest.mark.parametrize("report", ["text", {"result": {}}, {"result": {"sentences": [{}]}}])
def test_score_refuses_what_is_not_a_report(report) -> None:
    with pytest.raises(ValueError, match="not a ragcite check report"):
        metrics.score(report)


def test_the_module_imports_without_the_frameworks_and_says_what_to_install() -> None:
    # A finder ahead of the others answers for deepeval and ragas as Python does when a
    # package is not installed.
    code = textwrap.dedent(
        """
        import sys

        class Absent:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("deepeval", "ragas"):
                    raise ModuleNotFoundError(f"No module named {name!r}", name=name)
                return None

        sys.meta_path.insert(0, Absent())
        import ragcite.metrics as m
        chunks = ["The tower is 330 metres tall."]
        print(m.score_answer("The tower is 330 metres tall [1].", chunks).score)
        for name in ("DeepEvalMetric", "RagasMetric", "RagasSingleTurnMetric"):
            try:
                getattr(m, name)
            except ImportError as error:
                print(error)
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert run.stdout.splitlines() == [
        "1.0",
        "ragcite.metrics.DeepEvalMetric needs DeepEval, which is not installed: "
        "pip install deepeval",
        "ragcite.metrics.RagasMetric needs RAGAS, which is not installed: pip install ragas",
        "ragcite.metrics.RagasSingleTurnMetric needs RAGAS, which is not installed: "
        "pip install ragas",
    ]


def test_a_framework_without_the_interface_is_named_with_the_version_tested() -> None:
    # A module that is no package stands for a version without the modules the classes use.
    code = textwrap.dedent(
        """
        import sys, types
        sys.modules["deepeval"] = types.ModuleType("deepeval")
        sys.modules["ragas"] = types.ModuleType("ragas")
        import ragcite.metrics as m
        for name in ("DeepEvalMetric", "RagasMetric"):
            try:
                getattr(m, name)
            except ImportError as error:
                print(error)
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert run.stdout.splitlines() == [
        "ragcite.metrics.DeepEvalMetric needs a DeepEval that has deepeval.errors "
        "(it was tested with deepeval 4.3.1)",
        "ragcite.metrics.RagasMetric needs a RAGAS that has ragas.dataset_schema "
        "(it was tested with ragas 0.4.3)",
    ]


def test_importing_the_module_imports_no_framework() -> None:
    code = (
        "import sys, ragcite.metrics; "
        "print(sorted(m for m in ('deepeval', 'ragas') if m in sys.modules))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert run.stdout.strip() == "[]"


def test_unknown_attributes_are_attribute_errors() -> None:
    with pytest.raises(AttributeError):
        metrics.NoSuchMetric  # noqa: B018


def test_the_module_docstring_example() -> None:
    import doctest

    failures, tried = doctest.testmod(metrics, verbose=False)
    assert (failures, tried) == (0, 3)
