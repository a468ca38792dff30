"""``stammtisch bench server``: load-test the real server with websocket clients.

See :mod:`stammtisch.server.loadtest` for what is driven and measured.
"""

from __future__ import annotations

import typer

from stammtisch.cli.output import json_line


def server_command(
    tables: int = typer.Option(..., "--tables", min=1, help="Tables of four client bots."),
    seconds: float = typer.Option(30.0, "--seconds", min=0.5,
                                  help="Measured seconds (after the warm-up)."),
    think: float = typer.Option(500.0, "--think", min=0.0,
                                help="Mean think time of a client in ms (uniform ±50 %)."),
    warmup: float = typer.Option(5.0, "--warmup", min=0.0,
                                 help="Seconds of play before measuring."),
    json_out: bool = typer.Option(False, "--json", help="Print the figures as one line of JSON."),
    db: str = typer.Option("", "--db", help="Database URL for the server "
                           "(default: a temporary SQLite file)."),
    client_procs: int = typer.Option(1, "--client-procs", min=1,
                                     help="Client processes (tables split among them)."),
    compression: bool = typer.Option(True, "--compression/--no-compression",
                                     help="Offer permessage-deflate, as browsers do."),
    seed: int | None = typer.Option(None, "--seed", help="Seed the clients' choices."),
    auth_storm: bool = typer.Option(False, "--auth-storm", help="In the window, fire 30 "
                                    "registrations and 30 wrong logins at once, again and "
                                    "again, and measure a probe table's pings and actions."),
    games: str = typer.Option("mucken", "--games", help="The tables' games, comma-separated, "
                              "round-robin over the tables (mucken, schafkopf, mulatschak, "
                              "mus)."),
    mulatschak_seats: str = typer.Option("4", "--mulatschak-seats", help="Seat counts of the "
                                         "Mulatschak tables, comma-separated, round-robin "
                                         "(3-6; e.g. 3,4,5,6)."),
    workers: int = typer.Option(1, "--workers", min=1, help="Run 'serve --workers N --redis "
                                "URL' (N > 1 needs --db postgresql://...)."),
    redis: str = typer.Option("redis://127.0.0.1:6379/0", "--redis",
                              help="Redis URL for --workers N > 1."),
    verify: bool = typer.Option(True, "--verify/--no-verify", help="After the run, check "
                                "every acknowledged action against the stored games."),
) -> None:
    """Start the server, play TABLES tables over websockets and report latency and memory."""
    from stammtisch.cli.extras import require

    require("stammtisch bench server", "httpx", "websockets")
    from stammtisch.server.loadtest import LoadConfig, run_loadtest

    try:
        seat_counts = [int(x) for x in mulatschak_seats.split(",") if x.strip()]
        cfg = LoadConfig(tables=tables, seconds=seconds, think_ms=think, warmup=warmup, db=db,
                         client_procs=client_procs, compression=compression, seed=seed,
                         auth_storm=auth_storm,
                         games=[g.strip() for g in games.split(",") if g.strip()],
                         mulatschak_seats=seat_counts, workers=workers, redis=redis,
                         verify=verify)
        result = run_loadtest(cfg)
    except ValueError as e:
        typer.echo(f"stammtisch bench server: {e}", err=True)
        raise typer.Exit(2) from None
    if json_out:
        typer.echo(json_line(result))
    else:
        typer.echo(
            f"{result['tables']} tables, {result['clients']} clients, think {think:g} ms, "
            f"{result['seconds']:g} s measured after {warmup:g} s warm-up\n"
            f"  actions/s        {result['actions_per_s']}  ({result['actions']} actions)\n"
            f"  every view ms    p50 {result['p50_ms']}  p95 {result['p95_ms']}  "
            f"p99 {result['p99_ms']}  max {result['max_ms']}\n"
            f"  own update ms    p50 {result['own_p50_ms']}  p95 {result['own_p95_ms']}  "
            f"p99 {result['own_p99_ms']}  max {result['own_max_ms']}\n"
            + "".join(f"  {g:<16} p50 {r['p50_ms']}  p95 {r['p95_ms']}  p99 {r['p99_ms']}"
                      f"  ({r['actions']} actions)\n" for g, r in result["per_game"].items())
            + f"  errors           {result['errors']}  {result['error_codes'] or ''}  "
            f"lost {result['lost_actions']} of {result['acked_actions']} acknowledged\n"
            f"  server peak RSS  {result['server_peak_rss_mb']} MiB  (at the end "
            f"{result['server_rss_end_mb']} MiB)\n"
            f"  server CPU       {result['server_cpu_s']} s  ({result['server_cpu_pct']} %"
            f" of one core)\n"
            f"  client CPU       {result['bench_cpu_s']} s in {result['client_procs']} "
            f"process(es) ({result['client_machine_share_pct']} % of the machine); "
            f"loop lag p99 {result['client_lag_p99_ms']} ms\n"
            f"  other load       {result['other_cpu_s']} CPU s of the machine's "
            f"{result['cpus']} cores went to other processes")
        if "auth_storm" in result:
            st = result["auth_storm"]
            typer.echo(
                f"  auth storm       {st['rounds']} rounds of {st['per_round'][0]} "
                f"registrations + {st['per_round'][1]} wrong logins; register "
                f"{st['register_status']}, login {st['login_status']}\n"
                f"  probe ping ms    p50 {st['ping']['p50_ms']}  p99 {st['ping']['p99_ms']}  "
                f"max {st['ping']['max_ms']}  (n {st['ping']['n']})\n"
                f"  probe action ms  p50 {st['action']['p50_ms']}  p99 "
                f"{st['action']['p99_ms']}  max {st['action']['max_ms']}  "
                f"(n {st['action']['n']})")
    if result["errors"]:
        raise typer.Exit(1)
