"""The Python API: the same verdicts as the command line, every input type it takes, and its
errors."""

import dataclasses
import json
import subprocess

import pytest

import ragcite
import ragcite.aggregate
import ragcite.metrics
from conftest import REPO, TESTDATA

EIFFEL_VERDICTS = ["supported", "number-mismatch", "unsupported-citation", "uncited-claim"]


def verdicts(report):
    return [sentence["verdict"] for sentence in report["result"]["sentences"]]


def cli_json(console_script, *args):
    """The JSON document the console script prints for `args`."""
    done = subprocess.run(
        [console_script, *args, "--format", "json", "--isolated"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def without_paths(report):
    """The report without the names of its inputs, which differ by design: the command line
    names the files, the API `<answer>` and `<chunks>`."""
    report = json.loads(json.dumps(report))
    report["inputs"]["answer"].pop("path")
    report["inputs"]["chunks"].pop("path")
    return report


# The worked example


def test_worked_example_gives_its_verdicts(eiffel):
    answer, chunks = eiffel
    report = ragcite.check(answer, chunks)
    assert verdicts(report) == EIFFEL_VERDICTS
    assert report["gate"]["passed"] is False
    assert report["inputs"]["answer"]["path"] == "<answer>"
    assert report["inputs"]["chunks"]["path"] == "<chunks>"


def test_worked_example_is_the_command_lines_document(eiffel, console_script):
    answer, chunks = eiffel
    from_api = ragcite.check(answer, chunks)
    from_cli = cli_json(
        console_script,
        "check",
        str(TESTDATA / "eiffel" / "answer.md"),
        str(TESTDATA / "eiffel" / "chunks.json"),
    )
    assert without_paths(from_api) == without_paths(from_cli)


def test_options_reach_the_checker(eiffel):
    answer, chunks = eiffel
    strict = ragcite.check(answer, chunks, threshold=1.0)
    assert strict["inputs"]["threshold"] == 1.0
    # At the highest threshold the one supported sentence is no longer supported.
    assert "supported" not in verdicts(strict)
    german = ragcite.check("Der Turm ist 330 Meter hoch [1].", ["Der Turm ist 330 Meter hoch."], lang="de")
    assert german["inputs"]["lang"] == "de"
    assert verdicts(german) == ["supported"]
    # A paragraph's closing marker covers its uncited sentence under the paragraph scope.
    paragraph = "The tower is 330 metres tall. It opened in 1889 [1]."
    source = ["The tower is 330 metres tall. It opened in 1889."]
    assert verdicts(ragcite.check(paragraph, source))[0] == "uncited-claim"
    inherited = ragcite.check(paragraph, source, citation_scope="paragraph")
    assert verdicts(inherited) == ["supported", "supported"]
    assert inherited["result"]["sentences"][0]["inheritedFrom"] == 2


def test_a_house_marker_form(tmp_path):
    answer = "The Eiffel Tower is 330 metres tall {{cite:a}}. It opened in 1888 {{cite:b}}."
    chunks = [{"id": "a", "text": SOURCE}, {"id": "b", "text": "It opened in 1889."}]
    # Without the form, the sentences cite nothing.
    assert verdicts(ragcite.check(answer, chunks)) == ["uncited-claim", "uncited-claim"]
    house = r"\{\{cite:(\w+)\}\}"
    report = ragcite.check(answer, chunks, marker=house)
    assert verdicts(report) == ["supported", "number-mismatch"]
    assert [s["cited"] for s in report["result"]["sentences"]] == [["a"], ["b"]]
    many = ragcite.check_many([(answer, chunks)], marker=house)
    assert verdicts(many[0]) == ["supported", "number-mismatch"]
    records = [{"answer": answer, "contexts": chunks}]
    counts = ragcite.batch(records, marker=house)["records"][0]["counts"]
    assert (counts["supported"], counts["numberMismatch"], counts["uncitedClaim"]) == (1, 1, 0)
    with pytest.raises(ragcite.InputError, match="capture group"):
        ragcite.check(answer, chunks, marker=r"\{\{cite:\w+\}\}")
    with pytest.raises(TypeError):
        ragcite.check(answer, chunks, marker=3)


def test_records_under_a_key_of_their_own(tmp_path):
    record = {"answer": "The Eiffel Tower is 330 metres tall [1].", "contexts": [SOURCE]}
    path = tmp_path / "export.json"
    path.write_text(json.dumps({"meta": {"n": 1}, "payload": {"items": [record, record]}}))
    report = ragcite.batch(path, records="payload.items")
    assert [r["counts"]["supported"] for r in report["records"]] == [1, 1]
    with pytest.raises(TypeError):
        ragcite.batch(path, records=3)


def test_same_input_same_document(eiffel):
    answer, chunks = eiffel
    first = json.dumps(ragcite.check(answer, chunks), sort_keys=True)
    assert all(json.dumps(ragcite.check(answer, chunks), sort_keys=True) == first for _ in range(5))


# Every input type


SENTENCE = "The Eiffel Tower is 330 metres tall [1]."
SOURCE = "The Eiffel Tower is 330 metres tall and opened in 1889."


@dataclasses.dataclass
class FakeLangChainDocument:
    """What langchain_core.documents.Document offers: page_content, metadata and an id."""

    page_content: str
    metadata: dict
    id: object = None


class FakeTextNode:
    """What a LlamaIndex TextNode offers: text, node_id and metadata."""

    def __init__(self, text, node_id, metadata):
        self.text = text
        self.node_id = node_id
        self.metadata = metadata


class FakeNodeWithScore:
    """What a LlamaIndex NodeWithScore offers: the node and its score."""

    def __init__(self, node, score):
        self.node = node
        self.score = score


@pytest.mark.parametrize(
    "chunks",
    [
        [SOURCE],
        ({"id": "1", "text": SOURCE},),
        [{"id": "eiffel", "text": SOURCE}],
        json.dumps([{"id": "1", "text": SOURCE}]),
        f"[1] {SOURCE}\n",
        f"id,text\n1,{SOURCE}\n",
        f"## 1\n\n{SOURCE}\n",
        [FakeLangChainDocument(SOURCE, {"source": "eiffel.pdf"})],
        [FakeLangChainDocument(SOURCE, {}, id="doc-9")],
        [FakeTextNode(SOURCE, "5b2f6c1e-0d3a-4f7e-9c1a-2b3c4d5e6f70", {"file_name": "eiffel.pdf"})],
        [FakeNodeWithScore(FakeTextNode(SOURCE, "n1", {}), 0.9)],
        SOURCE.encode("utf-8"),
    ],
    ids=[
        "list-of-str",
        "tuple-of-dicts",
        "dict-with-word-id",
        "json-string",
        "bracket-blocks",
        "csv",
        "markdown-headings",
        "langchain-document",
        "langchain-document-with-id",
        "llamaindex-node",
        "llamaindex-node-with-score",
        "bytes",
    ],
)
def test_every_chunk_type_is_read(chunks):
    report = ragcite.check(SENTENCE, chunks)
    assert verdicts(report) == ["supported"], report["warnings"]
    assert report["result"]["counts"]["chunks"] == 1


def test_langchain_metadata_is_kept_for_source_citations():
    chunks = [
        FakeLangChainDocument("Paris is the capital of France.", {"source": "france.pdf"}),
        FakeLangChainDocument(SOURCE, {"source": "eiffel.pdf"}),
    ]
    report = ragcite.check("The Eiffel Tower is 330 metres tall (source: eiffel.pdf).", chunks)
    assert verdicts(report) == ["supported"]


def test_provider_response_as_dict_string_and_object(console_script):
    path = TESTDATA / "responses" / "openai-chat.json"
    chunks_path = TESTDATA / "responses" / "chunks.json"
    response = json.loads(path.read_text(encoding="utf-8"))
    chunks = json.loads(chunks_path.read_text(encoding="utf-8"))
    from_cli = cli_json(console_script, "check", str(path), str(chunks_path))
    assert from_cli["inputs"]["answer"]["format"] == "openai"

    class SdkObject:
        """An SDK response object (pydantic's model_dump, as openai's ChatCompletion has)."""

        def model_dump(self, mode="python"):
            assert mode == "json"
            return response

    for answer in (response, json.dumps(response), SdkObject()):
        report = ragcite.check(answer, chunks)
        assert without_paths(report) == without_paths(from_cli)


def test_answer_format_forces_prose():
    response = {"choices": [{"message": {"content": SENTENCE}}]}
    as_prose = ragcite.check(json.dumps(response), [SOURCE], answer_format="text")
    assert as_prose["inputs"]["answer"]["format"] == "text"


def test_no_chunks_takes_the_sources_the_response_carries(console_script):
    path = TESTDATA / "stacks" / "bedrock-kb" / "response.json"
    from_cli = cli_json(console_script, "check", str(path))
    response = json.loads(path.read_text(encoding="utf-8"))
    report = ragcite.check(response)
    assert verdicts(report) == verdicts(from_cli)
    assert report["result"]["counts"] == from_cli["result"]["counts"]


# Errors


def test_input_error_is_a_value_error_with_the_command_lines_message(tmp_path, console_script):
    assert issubclass(ragcite.InputError, ValueError)
    unknown = '{"result": 1, "status": "ok"}'
    with pytest.raises(ragcite.InputError) as raised:
        ragcite.check(unknown, [SOURCE])
    (tmp_path / "answer.json").write_text(unknown, encoding="utf-8")
    (tmp_path / "chunks.json").write_text(json.dumps([SOURCE]), encoding="utf-8")
    done = subprocess.run(
        [console_script, "check", "answer.json", "chunks.json", "--isolated"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 2
    line = done.stderr.strip()
    assert line == "ragcite: error: " + str(raised.value).replace("<answer>", "answer.json")


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ragcite.check(SENTENCE, [SOURCE], threshold=3), "outside 0.1..1"),
        (lambda: ragcite.check(SENTENCE, [SOURCE], lang="xx"), "'xx'"),
        (lambda: ragcite.check(SENTENCE, [SOURCE], answer_format="yaml"), "'yaml'"),
        (lambda: ragcite.check("", [SOURCE]), "<answer>: the answer is empty"),
        (lambda: ragcite.check(SENTENCE, "{"), "<chunks>"),
        (lambda: ragcite.check(SENTENCE), "<answer>"),
        (lambda: ragcite.check(b"\xff\xfe\x00bad", [SOURCE]), "<answer>"),
        (lambda: ragcite.verify_quote("a document", "  "), "the quote is empty"),
        (lambda: ragcite.verify_quote(b"ok \xff", "ok"), "<document>: "),
        (lambda: ragcite.check_many([(SENTENCE, [SOURCE]), ("", [SOURCE])]), "records[1]: "),
        (lambda: ragcite.check_many([{"chunks": [SOURCE]}]), "records[0]: has no `answer` key"),
        (lambda: ragcite.batch("/nonexistent/runs.jsonl"), "/nonexistent/runs.jsonl: cannot read"),
    ],
)
def test_bad_input_raises_input_error(call, message):
    with pytest.raises(ragcite.InputError) as raised:
        call()
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_unknown_objects_are_a_type_error():
    with pytest.raises(TypeError):
        ragcite.check(SENTENCE, [object()])
    with pytest.raises(TypeError):
        ragcite.check(object(), [SOURCE])
    with pytest.raises(TypeError):
        ragcite.batch([{"answer": SENTENCE}], max_everything=1)
    with pytest.raises(TypeError):
        ragcite.check(SENTENCE, [SOURCE], threshold="0.5")


def test_huge_and_binary_inputs_are_errors_not_crashes():
    with pytest.raises(ragcite.InputError):
        ragcite.check(bytes(range(256)) * 4096, [SOURCE])
    nested = "[" * 100_000 + "]" * 100_000
    with pytest.raises(ragcite.InputError):
        ragcite.check(SENTENCE, nested)
    report = ragcite.check(" ".join([SENTENCE] * 20_000), [SOURCE])
    assert report["result"]["counts"]["sentences"] == 20_000


# verify_quote


def test_verify_quote_finds_and_explains():
    document = "The Eiffel Tower\u2014completed in 1889\u2014is 330 metres tall."
    found = ragcite.verify_quote(document, "Completed in 1889-is 330 metres")
    assert found["found"] is True
    start, end = found["offsets"]
    assert document[start:end] == "completed in 1889\u2014is 330 metres"
    missed = ragcite.verify_quote(document, "completed in 1887-is 330 metres")
    assert missed["found"] is False
    assert missed["offsets"] is None
    assert "1889" in missed["closest"]["text"]
    assert ragcite.verify_quote(document.encode("utf-8"), "330 metres tall")["found"] is True


def test_verify_quote_is_the_command_lines_document(tmp_path, console_script):
    document = (TESTDATA / "eiffel" / "chunks.json").read_text(encoding="utf-8")
    (tmp_path / "doc.txt").write_text(document, encoding="utf-8")
    for quote in ("330 metres tall", "331 metres tall"):
        done = subprocess.run(
            [console_script, "quote", "doc.txt", quote, "--format", "json"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=False,
        )
        assert json.loads(done.stdout) == ragcite.verify_quote(document, quote)


# batch


def test_batch_of_a_file_is_the_command_lines_document(console_script):
    path = str(TESTDATA / "ci" / "batch.jsonl")
    assert ragcite.batch(path) == cli_json(console_script, "batch", path)


def test_batch_of_records_and_options():
    lines = (TESTDATA / "ci" / "batch.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip().endswith("}")]
    records = [r for r in records if isinstance(r.get("response"), str)]
    report = ragcite.batch(records)
    assert report["inputs"]["files"] == ["<records>.jsonl"]
    assert report["aggregate"]["records"] == len(records)
    # The limits by keyword: with every record allowed to fail, the gate passes.
    lenient = ragcite.batch(records, max_failing_records=len(records), max_uncited_rate=1.0)
    assert lenient["gate"]["passed"] is True
    assert lenient["aggregate"] == report["aggregate"]
    # The contradiction limits reach the command line and its document.
    contradicted = ragcite.batch(records, max_contradicted=2, max_contradicted_rate=0.5)
    assert contradicted["inputs"]["limits"]["perRecord"]["maxContradicted"] == 2
    assert contradicted["inputs"]["limits"]["maxContradictedRate"] == 0.5
    # So do the abstention limits, unlimited by default.
    assert report["inputs"]["limits"]["perRecord"]["maxAbstentions"] is None
    abstaining = ragcite.batch(records, max_abstentions=1, max_abstention_rate=0.25)
    assert abstaining["inputs"]["limits"]["perRecord"]["maxAbstentions"] == 1
    assert abstaining["inputs"]["limits"]["maxAbstentionRate"] == 0.25
    renamed = [{"q": r["id"], "a": r["response"], "ctx": r["retrieved_contexts"]} for r in records]
    by_fields = ragcite.batch(renamed, fields={"id": "q", "answer": "a", "contexts": ["ctx"]})
    assert by_fields["aggregate"] == report["aggregate"]


def test_a_field_path_that_fans_out_is_an_input_error():
    # 150 sources, each holding a list of its own: `a[].^` goes back to the record once per
    # source, so the path reaches 150^4 values (it once took 3 GiB and killed the interpreter).
    sources = [{"a": [], "text": "Paris is in France."} for _ in range(150)]
    records = [{"answer": "Paris is in France [1].", "a": sources}]
    with pytest.raises(ragcite.InputError, match="climbs back above the items"):
        ragcite.batch(records, fields={"contexts": "a[].^.a[].^.a[].^.a[]"})
    # The same sources through a path that reaches each once are read.
    report = ragcite.batch(records, fields={"contexts": "a[].text"})
    assert report["records"][0]["counts"]["chunks"] == 150


# The support model

#: A model file that gives every cited sentence the support sigmoid(3) = 0.9526: one tree of one
#: leaf (the format of crates/ragcite/src/support/model.rs).
CONSTANT_MODEL = {
    "format": "ragcite-support-model",
    "version": 1,
    "kind": "trees",
    "features": [{"name": "recall"}],
    "base": 3.0,
    "trees": [{"feature": [-1], "threshold": [0], "left": [-1], "right": [-1], "value": [0.0]}],
}

#: Supported by the shipped model (0.57), weakly supported by the formula (0.35).
PARIS = ("Paris has about 2.1 million people [3].", TESTDATA / "eiffel" / "chunks.json")


def supports(report):
    return [sentence.get("support") for sentence in report["result"]["sentences"]]


@pytest.fixture
def shipped_model_file(tmp_path):
    """The shipped model's own file (crates/ragcite/src/support/model/model.json), copied: a
    model file that gives the shipped model's reports."""
    shipped = REPO / "crates" / "ragcite" / "src" / "support" / "model" / "model.json"
    path = tmp_path / "support.json"
    path.write_text(shipped.read_text(encoding="utf-8"), "utf-8")
    return path


def test_model_chooses_what_scores_support(eiffel):
    answer, chunks = eiffel
    shipped = ragcite.check(answer, chunks)
    formula = ragcite.check(answer, chunks, model="formula")
    assert shipped["inputs"]["model"] == "shipped"
    assert ragcite.check(answer, chunks, model="shipped") == shipped
    assert formula["inputs"]["model"] == "formula"
    # Sentence 2 of the worked example: 0.425 by the formula, about 0.59 by the shipped model.
    assert supports(formula)[1] == 0.425
    assert 0.55 < supports(shipped)[1] < 0.65
    # And a verdict that the model decides.
    text, chunks_file = PARIS
    paris_chunks = chunks_file.read_text(encoding="utf-8")
    assert verdicts(ragcite.check(text, paris_chunks)) == ["supported"]
    assert verdicts(ragcite.check(text, paris_chunks, model="formula")) == ["weak-support"]


def test_a_model_file_as_str_or_path(eiffel, shipped_model_file, tmp_path, monkeypatch):
    answer, chunks = eiffel
    shipped = ragcite.check(answer, chunks)
    for given in (str(shipped_model_file), shipped_model_file):
        report = ragcite.check(answer, chunks, model=given)
        assert report["inputs"]["model"] == str(shipped_model_file)
        assert report["result"] == shipped["result"]
    # A PathLike is always a file, even one named `formula`; so is a str `-`.
    monkeypatch.chdir(tmp_path)
    for name in ("formula", "-"):
        (tmp_path / name).write_text(json.dumps(CONSTANT_MODEL), encoding="utf-8")
    from pathlib import Path

    constant = ragcite.check(answer, chunks, model=Path("formula"))
    assert constant["inputs"]["model"] in ("./formula", ".\\formula")
    assert supports(constant)[:2] == [0.9526, 0.9526]
    assert supports(ragcite.check(answer, chunks, model="-"))[:2] == [0.9526, 0.9526]


def test_model_in_check_many_batch_and_aggregate(eiffel, shipped_model_file):
    answer, chunks = eiffel
    text, chunks_file = PARIS
    records = [(answer, chunks), {"answer": text, "chunks": chunks_file.read_text(encoding="utf-8")}]
    many = ragcite.check_many(records, model="formula")
    assert [r["inputs"]["model"] for r in many] == ["formula", "formula"]
    assert supports(many[0])[1] == 0.425
    assert verdicts(many[1]) == ["weak-support"]
    from_file = ragcite.check_many(records, model=shipped_model_file)
    assert [r["result"] for r in from_file] == [r["result"] for r in ragcite.check_many(records)]
    # batch and aggregate.counts: the weakly supported record fails by the formula only.
    rows = [{"answer": text, "contexts": [c["text"] for c in chunks]}]
    assert ragcite.batch(rows)["aggregate"]["counts"]["weakSupport"] == 0
    by_formula = ragcite.batch(rows, model="formula")
    assert by_formula["inputs"]["model"] == "formula"
    assert by_formula["aggregate"]["counts"]["weakSupport"] == 1
    assert ragcite.aggregate.counts(rows, model="formula")["weakSupport"] == 1
    assert ragcite.aggregate.counts(rows)["weakSupport"] == 0
    # And the metrics.
    scored = ragcite.metrics.score_answer(text, [c["text"] for c in chunks], support_model="formula")
    assert scored.report["inputs"]["model"] == "formula"
    assert scored.score == 0.0


def test_a_bad_model_raises_input_error(eiffel, tmp_path):
    answer, chunks = eiffel
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**CONSTANT_MODEL, "format": "something else"}), encoding="utf-8")
    calls = [
        lambda model: ragcite.check(answer, chunks, model=model),
        lambda model: ragcite.check_many([(answer, chunks)], model=model),
        lambda model: ragcite.check_many([], model=model),
        lambda model: ragcite.batch([{"answer": answer, "contexts": ["x"]}], model=model),
        lambda model: ragcite.metrics.score_answer(answer, chunks, support_model=model),
    ]
    for call in calls:
        with pytest.raises(ragcite.InputError) as raised:
            call(bad)
        assert str(raised.value).startswith(f"{bad}: not a ragcite support model: "), raised.value
        with pytest.raises(ragcite.InputError) as raised:
            call(str(tmp_path / "missing.json"))
        assert "missing.json" in str(raised.value)
    with pytest.raises(TypeError):
        ragcite.check(answer, chunks, model=3)


def test_a_figure_the_question_states_is_context():
    answer = "A 12 year old who attempted suicide should see a psychiatrist at once [1]."
    chunks = ["A child who attempted suicide should see a psychiatrist at once."]
    verdict = lambda report: report["result"]["sentences"][0]["verdict"]  # noqa: E731
    assert verdict(ragcite.check(answer, chunks)) == "number-mismatch"
    question = "-- Should a 12 year old who attempted suicide see a psychiatrist?"
    assert verdict(ragcite.check(answer, chunks, question=question)) == "supported"
    assert verdict(ragcite.check(answer, chunks, question="A 13 year old?")) == "number-mismatch"
    with pytest.raises(TypeError):
        ragcite.check(answer, chunks, question=12)


# Issue 38: what the API took without a word.


@pytest.mark.parametrize("answer", [None, 5, 2.5, True])
def test_an_answer_that_is_no_text_or_response_is_a_type_error(answer):
    # `None` was checked as the text "null", `5` as "5".
    with pytest.raises(TypeError, match="answer must be"):
        ragcite.check(answer, [SOURCE])
    with pytest.raises(TypeError, match="answer must be"):
        ragcite.check_many([(answer, [SOURCE])])


@pytest.mark.parametrize(
    "call",
    [
        lambda: ragcite.check("The tower is tall \ud800 [1].", [SOURCE]),
        lambda: ragcite.check(SENTENCE, ["The tower \udfff is tall."]),
        lambda: ragcite.check(SENTENCE, [{"id": "1", "text": "The tower \ud800 is tall."}]),
        lambda: ragcite.check({"answer": "Tall \ud800.", "citations": []}, [SOURCE]),
        lambda: ragcite.check(SENTENCE, [SOURCE], question="How tall \ud800?"),
        lambda: ragcite.check(SENTENCE, [SOURCE], marker="(\ud800)"),
        lambda: ragcite.check_many([("The tower \ud800 [1].", [SOURCE])]),
        lambda: ragcite.verify_quote("The tower \ud800 is tall.", "tower"),
        lambda: ragcite.verify_quote("The tower is tall.", "tower \ud800"),
    ],
)
def test_a_lone_surrogate_is_an_input_error(call):
    # It raised UnicodeEncodeError, which is no InputError.
    with pytest.raises(ragcite.InputError, match="lone surrogate") as raised:
        call()
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    "limits, message",
    [
        ({"max_uncited": -1}, "max_uncited must be a whole number of 0 or more, not -1"),
        ({"max_bad_records": -3}, "max_bad_records must be a whole number of 0 or more, not -3"),
        ({"max_uncited_rate": -0.1}, "max_uncited_rate must be a number from 0 to 1, not -0.1"),
        ({"max_abstention_rate": 1.5}, "max_abstention_rate must be a number from 0 to 1, not 1.5"),
    ],
)
def test_a_limit_out_of_range_is_a_value_error(limits, message):
    # `max_uncited=-1` gave "unexpected argument '-1' found".
    records = [{"answer": SENTENCE, "contexts": [SOURCE]}]
    with pytest.raises(ValueError, match=message) as raised:
        ragcite.batch(records, **limits)
    assert "unexpected argument" not in str(raised.value)


def test_a_count_limit_is_a_whole_number_and_a_negative_threshold_says_so():
    records = [{"answer": SENTENCE, "contexts": [SOURCE]}]
    with pytest.raises(TypeError, match="max_uncited must be a whole number"):
        ragcite.batch(records, max_uncited=1.5)
    assert ragcite.batch(records, max_uncited=0, max_uncited_rate=0)["gate"]["passed"] is True
    with pytest.raises(ragcite.InputError, match="outside 0.1..1") as raised:
        ragcite.check(SENTENCE, [SOURCE], threshold=-0.5)
    assert "unexpected argument" not in str(raised.value)


def test_the_claim_threshold_and_model_reach_every_check():
    """`claim_threshold` and `claim_model` are `--claim-threshold` and `--claim-model`: a
    pointer that states nothing to source is `background` by default, a claim at threshold 0
    and under the phrase rules alone; a bad threshold or model file raises."""
    answer = (
        "The tower is 330 metres tall [1].\n\nYou can download it from the official website.\n"
    )
    chunks = ["The Eiffel Tower is 330 metres tall."]

    def pointer(report):
        return report["result"]["sentences"][1]

    quiet = pointer(ragcite.check(answer, chunks))
    assert (quiet["verdict"], quiet["kind"]) == ("no-claim", "background")
    assert 0 <= quiet["claimScore"] < 0.4
    assert pointer(ragcite.check(answer, chunks, claim_threshold=0))["verdict"] == "uncited-claim"
    rules = pointer(ragcite.check(answer, chunks, claim_model="rules"))
    assert rules["verdict"] == "uncited-claim" and "claimScore" not in rules
    [many] = ragcite.check_many([(answer, chunks)], claim_threshold=0)
    assert pointer(many)["verdict"] == "uncited-claim"
    document = ragcite.batch([{"answer": answer, "contexts": chunks}], claim_threshold=0.6)
    assert document["inputs"]["claimThreshold"] == 0.6
    with pytest.raises(ragcite.InputError):
        ragcite.check(answer, chunks, claim_threshold=2)
    with pytest.raises(ragcite.InputError, match="claim model"):
        ragcite.check(answer, chunks, claim_model=__file__)
