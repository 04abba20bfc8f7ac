"""Hooks of the schemathesis run in test/schemathesis.test.ts (loaded through SCHEMATHESIS_HOOKS)."""

import schemathesis


def _segments(path):
    return path.strip("/").split("/")


def _matches(template, path):
    a, b = _segments(template), _segments(path)
    return len(a) == len(b) and all(t.startswith("{") or t == s for t, s in zip(a, b))


def _more_specific(other, template):
    """Whether `other` wins over `template` for a path both match: a literal segment before a template one."""
    for o, t in zip(_segments(other), _segments(template)):
        if o != t:
            return not o.startswith("{") and t.startswith("{")
    return False


SAFE_INTEGER = 2**53 - 1


def _has_unsafe_integer(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > SAFE_INTEGER
    if isinstance(value, dict):
        return any(_has_unsafe_integer(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_unsafe_integer(item) for item in value)
    return False


def _spells_another_path(case):
    """Whether a templated path is filled in to spell a more specific path of the document.

    OpenAPI matches concrete paths before templated ones: `/api/v1/data/batch` is the batch resource, not the
    collection "batch" of `/api/v1/data/{collection}`, and `/api/v1/data/jobs/{id}` is a job, not a document of the
    collection "jobs". Such a request belongs to that other path: its answer (the other operation's, or 405 for a
    method the other path lacks) cannot be judged by this operation's description. The other path's own
    operations, and the 405 check of its missing methods, test it.
    """
    template = case.operation.path
    if "{" not in template:
        return False
    path = case.formatted_path
    return any(
        _more_specific(other, template) and _matches(other, path) for other in case.operation.schema.raw_schema["paths"]
    )


@schemathesis.hook
def filter_case(context, case):
    """Leave out the cases the run cannot judge.

    - A templated path that spells another path of the document (above).
    - A body with an integer past 2^53: a JSON number the server cannot keep exactly is refused with 400
      (docs/api.md, "What a document may hold"), and JSON Schema cannot tell an integer literal from a float
      one, so the document cannot say which numbers are too large. test/input-limits.test.ts sends them.
    """
    if _spells_another_path(case):
        return False
    return not _has_unsafe_integer(case.body)
