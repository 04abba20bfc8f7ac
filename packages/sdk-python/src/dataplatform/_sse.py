"""Server-sent events (the event stream format of the HTML standard), read line by line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional


@dataclass(frozen=True)
class ServerSentEvent:
    """One event: its ``id:``, ``event:`` type (``message`` by default) and ``data:`` text."""

    id: Optional[str]
    event: str
    data: str


class EventDecoder:
    """Feeds lines in, hands complete events out; comments (keep-alive lines) are skipped."""

    def __init__(self) -> None:
        self._data: List[str] = []
        self._event: Optional[str] = None
        self._id: Optional[str] = None
        self.last_event_id: Optional[str] = None

    def feed(self, line: str) -> Optional[ServerSentEvent]:
        """One line without its end; returns an event when the line is the blank one that ends it."""
        if line == "":
            if not self._data and self._event is None:
                # An id alone (a stream's start point) is still the last event id, as in the HTML standard.
                if self._id is not None:
                    self.last_event_id, self._id = self._id, None
                return None
            event = ServerSentEvent(id=self._id, event=self._event or "message", data="\n".join(self._data))
            if self._id is not None:
                self.last_event_id = self._id
            self._data, self._event, self._id = [], None, None
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        return None
