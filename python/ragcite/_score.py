"""The framework-free core of :mod:`ragcite.metrics`: an answer's citation score and its reason.

The framework adapters (``_deepeval``, ``_ragas``) and :mod:`ragcite.metrics` import it; it
imports neither, so that the package's modules form no cycle.
"""

from __future__ import annotations

import dataclasses
import math
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import InputError, check


#: The RAGAS metrics' name: the column of their scores in RAGAS's results.
METRIC_NAME = "ragcite_citation_support"

#: How many failing sentences a reason lists; the rest are counted.
MAX_LISTED = 10

#: A sentence is cut to this many characters in a reason.
MAX_SENTENCE_CHARS = 200

SUPPORTED = "supported"
NO_CLAIM = "no-claim"


@dataclasses.dataclass(frozen=True)
class FailingSentence:
    """A claim sentence that is not supported."""

    #: Its 1-based position among the answer's sentences.
    index: int
    #: Its verdict: ``contradicted``, ``number-mismatch``, ``misquote``, ``weak-support``,
    #: ``unsupported-citation`` or ``uncited-claim``.
    verdict: str
    #: The sentence as written in the answer, markers included.
    sentence: str
    #: What ragcite found, each a short phrase (``"not in the cited chunks: 1888"``).
    details: Tuple[str, ...] = ()

    def __str__(self) -> str:
        line = f'sentence {self.index}, {self.verdict}: "{_cut(self.sentence)}"'
        if self.details:
            line += " (" + "; ".join(self.details) + ")"
        return line


@dataclasses.dataclass(frozen=True)
class CitationScore:
    """The score of one answer, and why."""

    #: Supported claim sentences over claim sentences, from 0 to 1; 1.0 when there is no claim.
    score: float
    #: The failing sentences with their verdicts, or why there are none. Deterministic.
    reason: str
    #: Claim sentences: those whose verdict is not ``no-claim``.
    claims: int
    #: Claim sentences whose verdict is ``supported``.
    supported: int
    #: Every claim sentence that is not supported, in answer order.
    failing: Tuple[FailingSentence, ...] = ()
    #: The report of :func:`ragcite.check` the score was read from.
    report: Optional[Mapping[str, Any]] = dataclasses.field(
        default=None, repr=False, compare=False
    )


def score(report: Mapping[str, Any]) -> CitationScore:
    """Scores a report of :func:`ragcite.check` (the ``ragcite check --format json`` document).

    Returns a :class:`CitationScore`: ``score`` is the share of claim sentences whose verdict is
    ``supported`` (1.0 when there is no claim sentence), ``reason`` lists the others. Raises
    ``ValueError`` when ``report`` is not such a report.
    """
    sentences = _sentences(report)
    threshold = _threshold(report)
    claims = 0
    supported = 0
    failing: List[FailingSentence] = []
    for position, sentence in enumerate(sentences, start=1):
        verdict = sentence.get("verdict")
        if not isinstance(verdict, str):
            raise ValueError(f"not a ragcite check report: sentence {position} has no verdict")
        if verdict == NO_CLAIM:
            continue
        claims += 1
        if verdict == SUPPORTED:
            supported += 1
            continue
        index = sentence.get("index")
        failing.append(
            FailingSentence(
                index=index if isinstance(index, int) else position,
                verdict=verdict,
                sentence=_text(sentence),
                details=_details(sentence, threshold),
            )
        )
    value = 1.0 if claims == 0 else supported / claims
    reason = _reason(value, claims, supported, len(sentences), failing, _unknown_markers(report))
    return CitationScore(
        score=value,
        reason=reason,
        claims=claims,
        supported=supported,
        failing=tuple(failing),
        report=report,
    )


def score_answer(
    answer: Any,
    chunks: Any,
    *,
    support_threshold: float = 0.5,
    lang: str = "en",
    answer_format: str = "text",
    support_model: Optional[Union[str, "os.PathLike[str]"]] = None,
    question: Optional[str] = None,
) -> CitationScore:
    """Checks ``answer`` against ``chunks`` with :func:`ragcite.check` and scores it.

    ``chunks``: what :func:`ragcite.check` takes; a list of strings is cited as ``[1]``,
    ``[2]``, ... ``support_threshold`` is ragcite's ``threshold`` (0.1 to 1), the support a
    sentence's cited chunk must reach; ``lang`` the language of its stemmer and stop words.
    ``answer_format`` is ``"text"`` unless told: see the module's notes. ``support_model`` is
    ragcite's ``model``, what scores support: ``None`` the model built in, ``"formula"``, or
    the path of a model file. Raises :class:`ragcite.InputError` for input ragcite cannot read
    (an empty answer, an unknown language, a threshold out of range, a file that is not a
    ragcite support model). ``question``: the question the answer replies to, whose figures
    are context, not claims.
    """
    report = check(
        answer,
        chunks,
        threshold=support_threshold,
        lang=lang,
        answer_format=answer_format,
        model=support_model,
        question=question,
    )
    return score(report)


def _validate_options(
    support_threshold: Any, lang: Any, answer_format: Any, support_model: Any = None
) -> None:
    """Raises :class:`ragcite.InputError` (or ``TypeError``) now for options that
    :func:`ragcite.check` would refuse later, with ragcite's own message."""
    check(
        "ok",
        [],
        threshold=support_threshold,
        lang=lang,
        answer_format=answer_format,
        model=support_model,
    )


def _validate_score_threshold(threshold: Any) -> float:
    """The pass mark on the score, a number from 0 to 1, as a float."""
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise TypeError(f"threshold must be a number from 0 to 1, not {type(threshold).__name__}")
    if math.isnan(threshold) or not 0 <= threshold <= 1:
        raise ValueError(f"threshold must be from 0 to 1, not {threshold!r}")
    return float(threshold)


def _chunks_of(contexts: Any, field: str) -> List[Any]:
    """A framework's list of retrieved contexts as chunks for :func:`ragcite.check`.

    Strings stay strings (cited by position). An item with ``context`` and ``source`` (DeepEval's
    ``RetrievedContextData``) becomes a chunk whose text is the context and whose other name is
    the source, still cited by position. ``field`` names the framework's field in errors.
    """
    if isinstance(contexts, (str, bytes)) or not isinstance(contexts, Sequence):
        raise InputError(
            f"{field} must be a list of strings, not {type(contexts).__name__}"
        )
    chunks: List[Any] = []
    for position, item in enumerate(contexts):
        if isinstance(item, str):
            chunks.append(item)
        elif isinstance(getattr(item, "context", None), str):
            chunk: Dict[str, Any] = {"text": item.context}
            source = getattr(item, "source", None)
            if isinstance(source, str) and source:
                chunk["source"] = source
            chunks.append(chunk)
        else:
            raise InputError(
                f"{field}[{position}] must be a string, not {type(item).__name__}"
            )
    return chunks


def _sentences(report: Any) -> List[Mapping[str, Any]]:
    if not isinstance(report, Mapping):
        raise ValueError(
            f"not a ragcite check report: a {type(report).__name__}, not a dict "
            "(pass what ragcite.check returns)"
        )
    result = report.get("result")
    sentences = result.get("sentences") if isinstance(result, Mapping) else None
    if not isinstance(sentences, list) or not all(isinstance(s, Mapping) for s in sentences):
        raise ValueError("not a ragcite check report: it has no result.sentences list")
    return sentences


def _threshold(report: Mapping[str, Any]) -> Optional[float]:
    inputs = report.get("inputs")
    value = inputs.get("threshold") if isinstance(inputs, Mapping) else None
    return float(value) if isinstance(value, (int, float)) else None


def _unknown_markers(report: Mapping[str, Any]) -> List[str]:
    result = report.get("result")
    markers = result.get("unknownMarkers") if isinstance(result, Mapping) else None
    return [str(m) for m in markers] if isinstance(markers, list) else []


def _text(sentence: Mapping[str, Any]) -> str:
    for key in ("sentence", "text"):
        value = sentence.get(key)
        if isinstance(value, str):
            return value
    return ""


def _strings(sentence: Mapping[str, Any], key: str) -> List[str]:
    value = sentence.get(key)
    return [str(v) for v in value] if isinstance(value, list) else []


def _details(sentence: Mapping[str, Any], threshold: Optional[float]) -> Tuple[str, ...]:
    verdict = sentence.get("verdict")
    details: List[str] = []
    unknown = _strings(sentence, "unknownMarkers")
    if unknown:
        details.append("no chunk for " + ", ".join(f"[{m}]" for m in unknown))
    missing_numbers = _strings(sentence, "missingNumbers")
    if missing_numbers:
        details.append("not in the cited chunks: " + ", ".join(missing_numbers))
    contradiction = sentence.get("contradiction")
    if verdict == "contradicted" and isinstance(contradiction, Mapping):
        words = _cut(str(contradiction.get("chunkWords", "")), 80)
        kind = contradiction.get("kind")
        details.append(
            f"chunk {contradiction.get('chunk')} says “{words}”" + (f" ({kind})" if kind else "")
        )
    if verdict == "misquote":
        for quote in sentence.get("quotes") or []:
            if isinstance(quote, Mapping) and quote.get("found") is False:
                where = quote.get("chunk")
                text = _cut(str(quote.get("text", "")), 80)
                place = f"not in chunk {where}" if where else "not found"
                details.append(f"quote {place}: “{text}”")
                break
    if verdict in ("weak-support", "unsupported-citation") and sentence.get("cited"):
        support = sentence.get("support")
        if isinstance(support, (int, float)) and not isinstance(support, bool):
            below = f" < threshold {_number(threshold)}" if threshold is not None else ""
            details.append(f"support {support:.2f}{below}")
        deciding = sentence.get("decidingChunk")
        if isinstance(deciding, str) and len(_strings(sentence, "cited")) > 1:
            details.append(f"decided by chunk {deciding}")
        missing_words = _strings(sentence, "missingWords")
        if missing_words:
            shown = ", ".join(missing_words[:5]) + (", …" if len(missing_words) > 5 else "")
            details.append("missing words: " + shown)
    if verdict == "uncited-claim":
        details.append("cites nothing")
    suggested = sentence.get("suggestedCitation")
    if isinstance(suggested, str) and suggested:
        details.append(f"suggested citation: [{suggested}]")
    return tuple(details)


def _reason(
    value: float,
    claims: int,
    supported: int,
    sentences: int,
    failing: Sequence[FailingSentence],
    unknown_markers: Sequence[str],
) -> str:
    if claims == 0:
        noun = "sentence" if sentences == 1 else "sentences"
        lines = [
            f"No claim sentence to check ({sentences} {noun}, none states a checkable claim): "
            "nothing is unsupported."
        ]
    elif not failing:
        lines = [
            "The claim sentence is supported by the chunk it cites."
            if claims == 1
            else f"All {claims} claim sentences are supported by the chunks they cite."
        ]
    else:
        noun = "claim sentence" if claims == 1 else "claim sentences"
        lines = [
            f"{supported} of {claims} {noun} supported (score {_number(value)}). Not supported:"
        ]
        lines += [f"- {item}" for item in failing[:MAX_LISTED]]
        if len(failing) > MAX_LISTED:
            lines.append(f"- … and {len(failing) - MAX_LISTED} more")
    if unknown_markers:
        names = ", ".join(f"[{m}]" for m in unknown_markers)
        lines.append(f"Markers that name no chunk: {names}.")
    return "\n".join(lines)


def _number(value: Optional[float]) -> str:
    """A short decimal: 0.25, 0.33, 0.5, 1."""
    if value is None:
        return "?"
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text or "0"


def _cut(text: str, limit: int = MAX_SENTENCE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
