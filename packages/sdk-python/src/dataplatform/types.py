"""The API's objects as TypedDicts, generated from the contract: ``from dataplatform.types import Document``."""

from ._generated.models import *  # noqa: F403
from ._generated.models import __all__ as __all__
