"""The async table runner: clocks, seats (human or computer), claim windows, persistence hooks."""

from .clock import Clock, FakeClock, RealClock
from .runner import TableRunner
from .seats import Seat, SeatInfo, TableConfig
from .sink import EventSink, MemorySink, NullSink
from .state import TableError

__all__ = ["Clock", "EventSink", "FakeClock", "MemorySink", "NullSink", "RealClock", "Seat", "SeatInfo",
           "TableConfig", "TableError", "TableRunner"]
