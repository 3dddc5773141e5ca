"""`mjref audit`: placeholder until the Beam audit pipeline lands (issue 4)."""


def add_audit_command(sub) -> None:
    audit = sub.add_parser("audit", help="audit archives into Parquet tables (Beam)")
    audit.add_argument("inputs", nargs="+")
    audit.add_argument("--out", required=True)
    audit.set_defaults(func=lambda args: print("mjref audit: not built yet") or 2)
