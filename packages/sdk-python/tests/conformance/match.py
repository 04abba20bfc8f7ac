"""The matchers of spec/conformance/README.md ("Variables", "Matchers"), with JavaScript's JSON semantics."""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List

_WHOLE = re.compile(r"^\{\{\s*([$\w.-]+)\s*\}\}$")
_PART = re.compile(r"\{\{\s*([$\w.-]+)\s*\}\}")
#: A field or header that is not there (JSON has no undefined; the format does).
MISSING = object()


def path_value(root: Any, path: str) -> Any:
    value = root
    for part in path.split("."):
        if isinstance(value, dict):
            value = value.get(part, MISSING)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return MISSING
        if value is MISSING:
            return MISSING
    return value


def lookup(variables: Dict[str, Any], path: str) -> Any:
    value = path_value(variables, path)
    if value is MISSING:
        raise LookupError(f"unknown variable {{{{{path}}}}}")
    return value


def json_text(value: Any) -> str:
    """JSON as JavaScript writes it: no spaces, non-ASCII kept."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def interpolate(value: Any, variables: Dict[str, Any]) -> Any:
    if isinstance(value, str):
        whole = _WHOLE.match(value)
        if whole:
            return lookup(variables, whole.group(1))

        def part(match: "re.Match[str]") -> str:
            found = lookup(variables, match.group(1))
            return found if isinstance(found, str) else json_text(found)

        return _PART.sub(part, value)
    if isinstance(value, list):
        return [interpolate(item, variables) for item in value]
    if isinstance(value, dict):
        return {key: interpolate(item, variables) for key, item in value.items()}
    return value


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "undefined"


def _equal(a: Any, b: Any) -> bool:
    # JSON equality: true is not 1, and 1 equals 1.0.
    if _type_of(a) != _type_of(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def show(value: Any) -> str:
    text = "nothing" if value is MISSING else json_text(value)
    return text[:300] + "…" if len(text) > 300 else text


def _is_operator(matcher: Dict[str, Any]) -> bool:
    return bool(matcher) and all(key.startswith("$") for key in matcher)


def mismatches(actual: Any, matcher: Any, variables: Dict[str, Any], at: str) -> List[str]:
    """Every way ``actual`` differs from ``matcher``, each naming where; empty when it matches."""
    if isinstance(matcher, str):
        expected = interpolate(matcher, variables)
        return [] if _equal(actual, expected) else [f"{at}: expected {show(expected)}, got {show(actual)}"]
    if isinstance(matcher, list):
        if not isinstance(actual, list):
            return [f"{at}: expected an array, got {show(actual)}"]
        if len(actual) != len(matcher):
            return [f"{at}: expected {len(matcher)} items, got {len(actual)}"]
        return [m for i, item in enumerate(matcher) for m in mismatches(actual[i], item, variables, f"{at}.{i}")]
    if isinstance(matcher, dict):
        if _is_operator(matcher):
            return _operator_mismatches(actual, matcher, variables, at)
        if not isinstance(actual, dict):
            return [f"{at}: expected an object, got {show(actual)}"]
        out: List[str] = []
        for key, sub in matcher.items():
            if key not in actual:
                absent = isinstance(sub, dict) and sub.get("$absent") is True
                if not absent:
                    out.append(f"{at}.{key}: missing, expected {show(sub)}")
                continue
            out.extend(mismatches(actual[key], sub, variables, f"{at}.{key}"))
        return out
    return [] if _equal(actual, matcher) else [f"{at}: expected {show(matcher)}, got {show(actual)}"]


def _operator_mismatches(actual: Any, operator: Dict[str, Any], variables: Dict[str, Any], at: str) -> List[str]:
    out: List[str] = []
    for name, argument in operator.items():
        if name == "$any":
            if actual is MISSING:
                out.append(f"{at}: missing")
        elif name == "$absent":
            if actual is not MISSING:
                out.append(f"{at}: expected nothing, got {show(actual)}")
        elif name == "$type":
            kind = _type_of(actual) if actual is not MISSING else "undefined"
            if argument == "integer" and kind == "number" and float(actual).is_integer():
                kind = "integer"
            if kind != argument:
                out.append(f"{at}: expected a value of type {argument}, got {show(actual)}")
        elif name == "$regex":
            if not isinstance(actual, str) or not re.search(str(argument), actual):
                out.append(f"{at}: expected a string matching /{argument}/, got {show(actual)}")
        elif name == "$length":
            # JavaScript counts UTF-16 code units; so does the format.
            length = len(actual.encode("utf-16-le")) // 2 if isinstance(actual, str) else (
                len(actual) if isinstance(actual, list) else None
            )
            if length != argument:
                out.append(f"{at}: expected length {argument}, got {show(actual)}")
        elif name == "$contains":
            if not isinstance(actual, list) or not any(not mismatches(i, argument, variables, at) for i in actual):
                out.append(f"{at}: expected an array with an item like {show(argument)}, got {show(actual)}")
        else:
            out.append(f"{at}: unknown matcher {name}")
    return out
