"""Game records: a whole game (setup, first position, every move and chance outcome in order,
who played it, clocks and comments) as one JSON document, format `boardbot-record` version 1
(docs/records.md; schema engine/schemas/record.schema.json).

`record_from_json` / `record_to_json` and `read_record` / `write_record` convert; `replay` plays a
record out under the rules and names the JSON path of the first move that does not fit;
`RecordBuilder` writes one while a game is played.
"""

from boardbot.engine.record_codec import (
    read_record,
    record_bytes,
    record_from_bytes,
    record_from_json,
    record_to_json,
    write_record,
)
from boardbot.engine.record_model import (
    MAX_RECORD_BYTES,
    MAX_RECORD_MOVES,
    RECORD_FORMAT,
    RECORD_VERSION,
    Record,
    RecordedMove,
    RecordError,
)
from boardbot.engine.record_replay import (
    RecordBuilder,
    ReplayedPosition,
    recorded_action,
    replay,
    result_of,
)

__all__ = [
    "MAX_RECORD_BYTES",
    "MAX_RECORD_MOVES",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "Record",
    "RecordBuilder",
    "RecordError",
    "RecordedMove",
    "ReplayedPosition",
    "read_record",
    "record_bytes",
    "record_from_bytes",
    "record_from_json",
    "record_to_json",
    "recorded_action",
    "replay",
    "result_of",
    "write_record",
]
