# SPDX-License-Identifier: MIT
# Types of fastsha.hmac (python/fastsha/hmac.py).
import hmac as _std
from collections.abc import Callable
from types import ModuleType
from typing import Any

from typing_extensions import Buffer  # noqa: F401  (3.12: collections.abc.Buffer)

from ._fastsha import HMAC as HMAC

# a name hashlib.new() takes, a hash constructor, or a module with .new
_DigestMod = str | Callable[..., Any] | ModuleType

trans_5C: bytes
trans_36: bytes
digest_size: None

# digestmod is required (TypeError without it), as in the standard module.
# One of fastsha's algorithms gives fastsha's HMAC; any other digestmod
# (md5, a module with .new, ...) the standard module's.
def new(
    key: bytes | bytearray, msg: Buffer | None = None, digestmod: _DigestMod = ""
) -> HMAC | _std.HMAC: ...
def digest(key: Buffer, msg: Buffer, digest: _DigestMod) -> bytes: ...
def compare_digest(a: str | Buffer, b: str | Buffer, /) -> bool: ...

__all__ = ["HMAC", "compare_digest", "digest", "new"]
