"""ragcite: a fast, deterministic linter for answers written by retrieval-augmented generation.

It finds the sentences that cite nothing, that cite a chunk which does not say what they say,
whose numbers or quotations changed on the way, the markers that point nowhere and the chunks
nobody used: lexically, in microseconds, with no model and no network.

    >>> import ragcite
    >>> report = ragcite.check("The tower is 330 metres tall [1].", ["The tower is 330 metres tall."])
    >>> report["result"]["sentences"][0]["verdict"]
    'supported'

Every function returns the document the command line prints with ``--format json`` (see
docs/formats.md), as Python dicts and lists. Bad input raises :class:`InputError` with the line
the command line prints after ``ragcite: error:``. The functions read no configuration file.
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from . import _native
from ._native import InputError, __version__

__all__ = [
    "InputError",
    "__version__",
    "batch",
    "check",
    "check_many",
    "verify_quote",
]


def check(
    answer: Any,
    chunks: Any = None,
    *,
    threshold: float = 0.5,
    lang: str = "auto",
    answer_format: str = "auto",
    model: Optional[Union[str, "os.PathLike[str]"]] = None,
    question: Optional[str] = None,
    citation_scope: str = "sentence",
    marker: Optional[str] = None,
    claim_threshold: float = 0.4,
    claim_model: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> dict:
    """Checks one answer against its chunks, as ``ragcite check --format json`` does.

    ``answer``: the answer text with its citation markers, or a provider's whole response
    (a JSON string, a dict, or an SDK object with ``model_dump()``, such as an OpenAI
    ``ChatCompletion``), read as ``--answer-format`` says (``auto`` recognises it).

    ``chunks``: a list of strings (cited as ``[1]``, ``[2]``, ...), of dicts (``{"id", "text"}``
    or any chunk shape the command line reads), of LangChain ``Document``s or LlamaIndex nodes
    (anything with ``page_content`` or ``text``); or one string in any chunk format (JSON, JSON
    Lines, ``[1]`` blocks, CSV, Markdown headings). ``None`` takes the sources the response
    carries (Bedrock, Azure On Your Data, Perplexity, ...).

    ``threshold`` is the support a sentence's cited chunk must reach (0.1 to 1); ``lang`` the
    language of the stemmer, stop words and number format (``en``, ``de``, ``fr``, ...), or
    ``auto`` (the default) to detect it from the answer.

    ``model`` is what scores support, as ``--model``: ``None`` (or ``"shipped"``) the model
    built in, ``"formula"`` the hand-weighted score, or the path of a model file (a ``str`` or
    an ``os.PathLike`` such as a ``pathlib.Path``; a ``PathLike`` is always a file, even one
    named ``formula``). ``inputs.model`` in the report says which was used.

    ``question`` is the question the answer replies to, as ``--question``: a figure it states is
    context, not a claim the answer must cite.

    ``citation_scope`` is what a marker covers, as ``--citation-scope``: ``"sentence"``, or
    ``"paragraph"`` (the markers ending a paragraph also cover its earlier uncited sentences).

    ``marker`` is your own marker form besides the built-in ones, as ``--marker``: a regular
    expression whose one capture group is the label (``r"\\{\\{cite:(\\w+)\\}\\}"``). A pattern
    that cannot name a label raises :class:`InputError`.

    ``claim_threshold`` and ``claim_model`` are ``--claim-threshold`` (0 to 1) and
    ``--claim-model``: the claim score an English sentence without a citation must reach to be an
    uncited claim, and what scores it (``None`` or ``"shipped"`` the model built in, ``"rules"``
    the phrase rules alone, or the path of a file written by ``ragcite train --claims``).

    Returns the report: ``result.sentences`` (each with its ``verdict``), ``result.chunks``,
    ``result.counts``, ``gate`` and ``inputs`` (the answer is named ``<answer>``, the chunks
    ``<chunks>``). Raises :class:`InputError` for input ragcite cannot read, and for a model
    file that is not a ragcite support model.
    """
    options = _check_options(threshold, lang, answer_format, model, citation_scope, marker)
    options += _claim_options(claim_threshold, claim_model)
    if question is not None:
        if not isinstance(question, str):
            raise TypeError(f"question must be a str or None, not {type(question).__name__}")
        # One argument, so that a question starting with `-` is not read as an option.
        options.append(f"--question={_unicode(question, '<question>')}")
    return json.loads(_native.check(_answer_bytes(answer), _chunks_bytes(chunks), options))


def check_many(
    records: Iterable[Any],
    *,
    threshold: float = 0.5,
    lang: str = "auto",
    answer_format: str = "auto",
    model: Optional[Union[str, "os.PathLike[str]"]] = None,
    citation_scope: str = "sentence",
    marker: Optional[str] = None,
    claim_threshold: float = 0.4,
    claim_model: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> list:
    """Checks many answers on every core, with the interpreter released: :func:`check` for each.

    ``records``: ``(answer, chunks)`` pairs, or mappings with ``answer`` and (optionally)
    ``chunks`` and ``question``, each as :func:`check` takes them. Returns one report per record, in order. An
    unreadable record raises :class:`InputError` naming its index (``records[3]: ...``).
    ``model`` is :func:`check`'s, read once for all the records (a bad model file raises
    :class:`InputError` before any record is checked). ``citation_scope``, ``marker``,
    ``claim_threshold`` and ``claim_model`` are :func:`check`'s.
    """
    options = _check_options(threshold, lang, answer_format, model, citation_scope, marker)
    options += _claim_options(claim_threshold, claim_model)
    pairs = []
    for index, record in enumerate(records):
        if isinstance(record, Mapping):
            if "answer" not in record:
                raise InputError(f"records[{index}]: has no `answer` key")
            answer, chunks = record["answer"], record.get("chunks")
            question = record.get("question")
            if question is not None and not isinstance(question, str):
                raise TypeError(
                    f"records[{index}]: question must be a str or None, "
                    f"not {type(question).__name__}"
                )
        elif isinstance(record, (tuple, list)) and len(record) == 2:
            answer, chunks = record
            question = None
        else:
            raise InputError(
                f"records[{index}]: is a {type(record).__name__}, not an (answer, chunks) pair "
                "or a mapping with `answer` and `chunks`"
            )
        if question is not None:
            question = _unicode(question, f"records[{index}].question")
        pairs.append((_answer_bytes(answer), _chunks_bytes(chunks), question))
    return [json.loads(report) for report in _native.check_many(pairs, options)]


def verify_quote(document: Union[str, bytes], quote: str) -> dict:
    """Whether ``quote`` is in ``document``, as ``ragcite quote --format json`` says.

    The match is exact after normalisation (Unicode NFKC, dashes, quotation marks, white
    space, case). Returns ``found``, ``offsets``, ``byteOffsets`` and ``start``, ``end`` (line
    and column) of the match, and when it is not found the ``closest`` passage with its
    ``similarity``, ``differingWords`` and place, or ``None`` when no passage is close. A
    ``False`` proves the exact words are not there, not that the document does not say the same
    thing in other words.
    """
    if not isinstance(quote, str):
        raise TypeError(f"quote must be a str, not {type(quote).__name__}")
    _unicode(quote, "<quote>")
    if isinstance(document, str):
        document = _utf8(document, "<document>")
    elif not isinstance(document, (bytes, bytearray)):
        raise TypeError(f"document must be a str or bytes, not {type(document).__name__}")
    report, _found = _native.verify_quote(bytes(document), quote)
    return json.loads(report)


#: The limits of ``ragcite batch``, by their keyword (each is ``--max-...`` on the command line).
_BATCH_LIMITS = (
    "max_uncited",
    "max_number_mismatch",
    "max_unsupported",
    "max_unknown_markers",
    "max_misquotes",
    "max_contradicted",
    "max_weak",
    "max_abstentions",
    "max_uncited_rate",
    "max_number_mismatch_rate",
    "max_unsupported_rate",
    "max_contradicted_rate",
    "max_abstention_rate",
    "max_failing_records",
    "max_bad_records",
)


def batch(
    path_or_records: Any,
    *,
    threshold: float = 0.5,
    lang: str = "auto",
    fields: Optional[Mapping[str, Union[str, Sequence[str]]]] = None,
    model: Optional[Union[str, "os.PathLike[str]"]] = None,
    marker: Optional[str] = None,
    records: Optional[str] = None,
    claim_threshold: float = 0.4,
    claim_model: Optional[Union[str, "os.PathLike[str]"]] = None,
    **limits: Any,
) -> dict:
    """Checks every record of transcript files, or of records you hold, as ``ragcite batch
    --format json`` does; returns its document (``summary``, ``gate``, ``records``).

    ``path_or_records``: a path (or a list of paths) to JSON Lines, JSON, CSV, promptfoo, RAGAS,
    DeepEval or trace-export files; ``bytes`` of JSON Lines; or an iterable of record dicts in
    any transcript schema ``batch`` reads (``{"answer", "chunks"}``, RAGAS ``{"response",
    "retrieved_contexts"}``, ...). Bytes and records are named ``<records>.jsonl`` in the report.

    ``fields`` maps ``answer``, ``contexts`` or ``id`` to a path (or paths) in each record, as
    ``--field KEY=PATH`` does; ``records`` is the path to the array of records in a JSON file
    that holds them under a key of its own, as ``--records PATH`` does. ``limits`` are the gate's limits by keyword: ``max_uncited``,
    ``max_number_mismatch``, ``max_unsupported``, ``max_unknown_markers``, ``max_misquotes``,
    ``max_contradicted``, ``max_weak``, ``max_abstentions``, ``max_uncited_rate``,
    ``max_number_mismatch_rate``, ``max_unsupported_rate``, ``max_contradicted_rate``,
    ``max_abstention_rate``, ``max_failing_records``,
    ``max_bad_records``; ``report["gate"]["passed"]`` says whether they
    held. ``model`` is what scores support, ``marker`` your own marker form, and
    ``claim_threshold`` and ``claim_model`` what tells claims, as in :func:`check`. Raises :class:`InputError` for
    a file that cannot be read, or a model file that is not a ragcite support model.
    """
    options = _batch_options(threshold, lang, fields, limits, model, marker)
    options += _claim_options(claim_threshold, claim_model)
    if records is not None:
        if not isinstance(records, str):
            raise TypeError(f"records must be a str or None, not {type(records).__name__}")
        options.append(f"--records={records}")
    return json.loads(_run_batch(path_or_records, "json", options))


def _run_batch(path_or_records: Any, output: str, options: list) -> str:
    """The output of ``ragcite batch --format OUTPUT OPTIONS`` over paths, JSON Lines bytes or
    records."""
    if isinstance(path_or_records, (str, os.PathLike)):
        return _native.batch([os.fspath(path_or_records)], None, output, options)[0]
    if isinstance(path_or_records, (bytes, bytearray, memoryview)):
        return _native.batch([], bytes(path_or_records), output, options)[0]
    if isinstance(path_or_records, (list, tuple)) and path_or_records and all(
        isinstance(p, (str, os.PathLike)) for p in path_or_records
    ):
        return _native.batch([os.fspath(p) for p in path_or_records], None, output, options)[0]
    lines = b"".join(_json_line(record) for record in path_or_records)
    return _native.batch([], lines, output, options)[0]


def _json_line(record: Any) -> bytes:
    """A record as one line of JSON Lines. A string with a lone surrogate cannot be UTF-8: it
    is escaped, and batch counts the record as bad, as it would in a file."""
    try:
        return (json.dumps(_plain(record), ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(_plain(record)) + "\n").encode("utf-8")


def _batch_options(
    threshold: Any,
    lang: Any,
    fields: Any,
    limits: Mapping[str, Any],
    model: Any = None,
    marker: Any = None,
) -> list:
    """The command-line options of :func:`batch`'s keywords."""
    options = _check_options(threshold, lang, None, model, marker=marker)
    for key, paths in (fields or {}).items():
        for path in [paths] if isinstance(paths, str) else paths:
            options += ["--field", f"{key}={path}"]
    for name, value in limits.items():
        if name not in _BATCH_LIMITS:
            raise TypeError(f"batch() got an unexpected keyword argument '{name}'")
        options.append("--" + name.replace("_", "-") + "=" + _limit(name, value))
    return _unicode_options(options)


def _limit(name: str, value: Any) -> str:
    """A limit's value as its option takes it: a rate is a number from 0 to 1, any other limit a
    whole number of 0 or more. Out of range is a ``ValueError`` that names the keyword (the
    command line would read ``-1`` as an option of its own)."""
    if name.endswith("_rate"):
        text = _number(value)
        if not 0 <= value <= 1:
            raise ValueError(f"{name} must be a number from 0 to 1, not {text}")
        return text
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be a whole number of 0 or more, not {value}")
    return str(value)


def _claim_options(claim_threshold: Any, claim_model: Any) -> list:
    """``--claim-threshold`` and ``--claim-model`` of the keywords."""
    options = [f"--claim-threshold={_number(claim_threshold)}"]
    if claim_model is not None:
        if not isinstance(claim_model, (str, os.PathLike)):
            raise TypeError(
                f"claim_model must be a str, a path or None, not {type(claim_model).__name__}"
            )
        options.append(f"--claim-model={_unicode(os.fspath(claim_model), '<claim_model>')}")
    return _unicode_options(options)


def _check_options(
    threshold: Any,
    lang: Any,
    answer_format: Optional[str],
    model: Any = None,
    citation_scope: Any = "sentence",
    marker: Any = None,
) -> list:
    # `--option=value`, so that a negative number is not read as an option of its own.
    options = [f"--threshold={_number(threshold)}", "--lang", str(lang)]
    options += ["--citation-scope", str(citation_scope)]
    if marker is not None:
        if not isinstance(marker, str):
            raise TypeError(f"marker must be a str or None, not {type(marker).__name__}")
        # One argument, so that a pattern starting with `-` is not read as an option.
        options.append(f"--marker={_unicode(marker, '<marker>')}")
    if answer_format is not None:
        options += ["--answer-format", str(answer_format)]
    return _unicode_options(options + _model_options(model))


def _unicode_options(options: list) -> list:
    """``options``, once each is known to be Unicode text: the extension takes only such."""
    for option in options:
        _unicode(option, "an option")
    return options


def _model_options(model: Any) -> list:
    """``--model`` for ``model``: ``None`` is the shipped model; a name (``"shipped"``,
    ``"formula"``) or a path as a ``str``; an ``os.PathLike`` is always a path."""
    if model is None:
        return []
    if isinstance(model, os.PathLike):
        path = os.fsdecode(os.fspath(model))
        # A file called `formula` is not the formula.
        if path in ("shipped", "formula"):
            path = os.path.join(os.curdir, path)
    elif isinstance(model, str):
        path = model
    else:
        raise TypeError(
            "model must be None, 'shipped', 'formula' or the path of a model file, "
            f"not {type(model).__name__}"
        )
    # A file called `-`, never standard input.
    if path == "-":
        path = os.path.join(os.curdir, path)
    return ["--model=" + path]


def _number(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number, not {type(value).__name__}")
    return repr(value) if isinstance(value, float) else str(value)


def _answer_bytes(answer: Any) -> bytes:
    if isinstance(answer, str):
        return _utf8(answer, "<answer>")
    if isinstance(answer, (bytes, bytearray)):
        return bytes(answer)
    # A scalar is no answer: `None` would be checked as the text "null", `5` as "5".
    if answer is None or isinstance(answer, (bool, int, float)):
        raise TypeError(
            "answer must be a str, bytes, a response (a dict, a list or an SDK object), "
            f"not {type(answer).__name__}"
        )
    return _utf8(json.dumps(_plain(answer), ensure_ascii=False), "<answer>")


def _chunks_bytes(chunks: Any) -> Optional[bytes]:
    if chunks is None:
        return None
    if isinstance(chunks, str):
        return _utf8(chunks, "<chunks>")
    if isinstance(chunks, (bytes, bytearray)):
        return bytes(chunks)
    if isinstance(chunks, Mapping):
        return _utf8(json.dumps(_plain(chunks), ensure_ascii=False), "<chunks>")
    items = list(chunks)
    if all(isinstance(item, str) for item in items):
        return _utf8(json.dumps(items, ensure_ascii=False), "<chunks>")
    return _utf8(json.dumps([_chunk(item) for item in items], ensure_ascii=False), "<chunks>")


def _utf8(text: str, name: str) -> bytes:
    """``text`` as UTF-8; a lone surrogate (which no UTF-8 holds) is an :class:`InputError`
    naming ``name`` and the character, as invalid UTF-8 is on the command line."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InputError(
            f"{name}: a lone surrogate (U+{ord(text[e.start]):04X}) at character {e.start} is "
            "not Unicode text"
        ) from None


def _unicode(text: str, name: str) -> str:
    """``text``, once it is known to be Unicode text (see :func:`_utf8`)."""
    _utf8(text, name)
    return text


def _chunk(item: Any) -> Any:
    """One chunk as a JSON value the chunk reader takes."""
    if isinstance(item, str):
        return {"text": item}
    if isinstance(item, Mapping):
        return _plain(item)
    # LlamaIndex's NodeWithScore holds its node.
    node = getattr(item, "node", None)
    if node is not None and hasattr(node, "text"):
        item = node
    if hasattr(item, "page_content"):  # LangChain Document
        chunk = {"text": item.page_content}
        identifier = getattr(item, "id", None)
    elif hasattr(item, "text") and isinstance(item.text, str):  # LlamaIndex node
        chunk = {"text": item.text}
        identifier = getattr(item, "node_id", None) or getattr(item, "id_", None)
    else:
        return _plain(item)
    if identifier is not None:
        chunk["id"] = str(identifier)
    metadata = getattr(item, "metadata", None)
    if isinstance(metadata, Mapping):
        chunk["metadata"] = _plain(metadata)
    return chunk


def _plain(value: Any) -> Any:
    """A value json.dumps takes: SDK objects (pydantic models, dataclasses, ``to_dict()``) as
    their dicts."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "model_dump"):
        return _plain(value.model_dump(mode="json"))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value))
    if hasattr(value, "to_dict"):
        return _plain(value.to_dict())
    raise TypeError(f"cannot read a {type(value).__name__} as JSON")
