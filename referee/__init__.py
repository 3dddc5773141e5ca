"""mahjong-referee: replay a hand record, re-derive every legal action, flag violations, settle."""

REFEREE_VERSION = "0.1.0"
SCHEMA_VERSION = 1
