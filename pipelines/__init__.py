"""Apache Beam pipelines over hand-record archives, and their Arrow schemas."""
