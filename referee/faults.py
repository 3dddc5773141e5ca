"""`mjref inject`: placeholder until labelled fault injection lands (issue 3)."""


def add_inject_command(sub) -> None:
    inject = sub.add_parser("inject", help="inject labelled faults into records (not built yet)")
    inject.set_defaults(func=lambda args: print("mjref inject: not built yet") or 2)
