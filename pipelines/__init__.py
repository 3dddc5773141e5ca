"""Apache Beam pipelines over hand-record archives, and their Arrow schemas.

    schemas   the Arrow schema of every output table, declared once
    files     which archive files the inputs name (local, globs, cloud storage)
    reader    the corruption-tolerant splittable archive reader (frames + corrupt spans)
    rows      a verdict as table rows (pure: no Beam)
    judge     the referee step: payload -> rows, with decode/replay/exception errors
    tables    rows -> pyarrow Tables -> Parquet, one directory per table
    progress  a throttled records/s and bytes-read log line per worker
    manifest  counting from the data, the manifest, reconciliation, the summary table
    runner    the one place runners are chosen and built
    job       the whole audit as one composite PTransform, and running it
    audit     the `mjref audit` command line (thin)
"""
