"""`mjref simulate`: placeholder until the self-play generator lands (issue 3)."""


def add_simulate_command(sub) -> None:
    sim = sub.add_parser("simulate", help="generate self-play hand records (not built yet)")
    sim.set_defaults(func=lambda args: print("mjref simulate: not built yet") or 2)
