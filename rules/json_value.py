"""The value a JSON document decodes to, as one recursive type, so strict typing follows a record into the rules.

A value read from a record is one of these until the reader has checked its shape; after
``isinstance`` the type checker knows which.
"""

from __future__ import annotations

from typing import TypeAlias

JSON: TypeAlias = dict[str, "JSON"] | list["JSON"] | str | int | float | bool | None
"""A decoded JSON value: an object, a list, text, a number, true or false, or null."""
