"""Type stubs of the extension module; use the functions of `ragcite` instead."""

from typing import List, Optional, Sequence, Tuple

__all__ = [
    "__version__",
    "InputError",
    "main",
    "check",
    "check_many",
    "batch",
    "summarize",
    "verify_quote",
]

__version__: str

class InputError(ValueError):
    """An input ragcite cannot read, or an option it does not take."""

def main(args: Sequence[str]) -> int: ...
def check(answer: bytes, chunks: Optional[bytes], options: Sequence[str]) -> str: ...
def check_many(
    records: Sequence[Tuple[bytes, Optional[bytes], Optional[str]]], options: Sequence[str]
) -> List[str]: ...
def batch(
    files: Sequence[str], records: Optional[bytes], format: str, options: Sequence[str]
) -> Tuple[str, int]: ...
def summarize(totals: str, options: Sequence[str]) -> str: ...
def verify_quote(document: bytes, quote: str) -> Tuple[str, bool]: ...
