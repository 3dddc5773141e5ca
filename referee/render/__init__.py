"""Self-contained HTML pages: the dispute view of one hand (html.py, `mjref view`) and the pieces
the audit report (pipelines/report.py) shares with it (page.py: escaping, the page shell, the
stylesheet; tiles.py: the SVG tile faces).

Every page is one file with no network access: inline CSS, JS and SVG only, pinned down by a
Content-Security-Policy with `default-src 'none'`. Output is deterministic (same input, same
bytes) and every string that comes from a record is escaped.
"""
