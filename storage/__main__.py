"""Maintenance commands.  DB is an SQLite file (or ``sqlite:///FILE``) or a ``postgresql://`` URL.

    python -m storage verify DB [--game ID ...] [--json] [--no-events] [--repair]
        Replay every game from its log and compare with the stored snapshot, events, seats to
        act, status and outcome; run the database's own integrity check.  Exit 0 when all is
        well, 1 when a problem was found, 2 when the database cannot be opened.  --repair
        rebuilds from the log the snapshot of each game whose log replays but whose snapshot is
        wrong or unreadable.
    python -m storage backup DB OUT
        A consistent copy of the SQLite file DB at OUT (SQLite online backup), safe while the
        bot runs.  (PostgreSQL: pg_dump.)
    python -m storage copy SOURCE TARGET [--json]
        Copy every row of SOURCE into the empty TARGET (created and migrated when missing), in
        one transaction, then read both again and compare each table's row count and SHA-256;
        exit 1 when they differ.  How an SQLite database moves to PostgreSQL.
    python -m storage migrate DB
        Bring DB to the latest schema (the bot does this at start-up) and print the version.
    python -m storage ratings DB --rebuild [--json]
        Compute every rating again from the stored results and seat hand-overs, in the order
        the games finished (storage/ratings.py says the policy), in one transaction; print how
        many games, rated games and rated people there are and how many ratings changed.
        After a change of policy this is how the history is rated again; on an untouched
        database nothing changes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import engine  # noqa: F401  (registers every game)
from storage.copy import CopyFailed, copy_database
from storage.database import Database, backup_file, parse_url, redacted
from storage.errors import CorruptGame, StorageError
from storage.games import GameRepository
from storage.ratings import RebuildReport, rebuild
from storage.sql import Tx
from storage.verify import verify_database

REPAIRABLE = {"snapshot_mismatch", "snapshot_unreadable", "to_act", "status", "outcome"}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m storage", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="replay every game and compare")
    verify.add_argument("db")
    verify.add_argument("--game", type=int, action="append", help="only this game (repeatable)")
    verify.add_argument("--json", action="store_true", help="print a JSON report")
    verify.add_argument("--no-events", action="store_true", help="skip comparing events")
    verify.add_argument("--repair", action="store_true", help="rebuild bad snapshots from logs")
    backup = commands.add_parser("backup", help="consistent online copy")
    backup.add_argument("db", type=Path)
    backup.add_argument("out", type=Path)
    migrate = commands.add_parser("migrate", help="apply pending migrations")
    migrate.add_argument("db")
    ratings = commands.add_parser("ratings", help="compute every rating again")
    ratings.add_argument("db")
    ratings.add_argument("--rebuild", action="store_true", required=True,
                         help="rebuild from the results (the only action today)")
    ratings.add_argument("--json", action="store_true", help="print a JSON report")
    copy = commands.add_parser("copy", help="copy a whole database and compare the copy")
    copy.add_argument("source")
    copy.add_argument("target")
    copy.add_argument("--json", action="store_true", help="print a JSON report")
    return parser


async def _verify(args: argparse.Namespace) -> int:
    db = await Database.open(args.db)
    try:
        report = await verify_database(db, game_ids=args.game, check_events=not args.no_events)
        repaired: list[int] = []
        if args.repair and report.problems:
            games = GameRepository(db)
            for game_id in sorted({p.game_id for p in report.problems if p.kind in REPAIRABLE}):
                try:
                    await games.rebuild_snapshot(game_id)
                    repaired.append(game_id)
                except (CorruptGame, StorageError) as exc:
                    print(f"game {game_id}: not repaired: {exc}", file=sys.stderr)
            if repaired:
                report = await verify_database(
                    db, game_ids=args.game, check_events=not args.no_events
                )
    finally:
        await db.close()
    if args.json:
        print(json.dumps({**report.to_json(), "repaired": repaired}, indent=2))
    else:
        for message in report.integrity:
            print(f"integrity_check: {message}")
        for problem in report.problems:
            print(problem)
        for game_id in repaired:
            print(f"game {game_id}: snapshot rebuilt from the log")
        verdict = "OK" if report.ok else f"{len(report.problems)} problem(s)"
        print(f"verified {report.games} games, {report.actions} actions: {verdict}")
    return 0 if report.ok else 1


async def _migrate(args: argparse.Namespace) -> int:
    db = await Database.open(args.db)
    try:
        print(f"schema version {await db.schema_version()}")
    finally:
        await db.close()
    return 0


RATING_TABLES = (
    "SELECT guild_id, game, user_id, mu, sigma, points, games, updated_at FROM ratings",
    "SELECT * FROM rating_changes",
    "SELECT id, rating FROM games WHERE rating IS NOT NULL",
)


async def _ratings(args: argparse.Namespace) -> int:
    db = await Database.open(args.db)
    try:

        async def body(tx: Tx) -> tuple[RebuildReport, int]:
            before = [set(map(tuple, await tx.fetchall(q))) for q in RATING_TABLES]
            report = await rebuild(tx)
            after = [set(map(tuple, await tx.fetchall(q))) for q in RATING_TABLES]
            return report, sum(len(a ^ b) for a, b in zip(before, after, strict=True))

        report, changed = await db.write(body)
    finally:
        await db.close()
    figures = {"games": report.games, "rated": report.rated, "people": report.people,
               "rows_changed": changed}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"rated {report.rated} of {report.games} finished games, {report.people} ratings;"
              f" {changed} row(s) differ from before")
    return 0


async def _copy(args: argparse.Namespace) -> int:
    source = await Database.open(args.source)
    try:
        target = await Database.open(args.target)
        try:
            report = await copy_database(source, target)
        finally:
            await target.close()
    except CopyFailed as exc:
        print(f"copy failed: {exc}", file=sys.stderr)
        return 1
    finally:
        await source.close()
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        for table in report.tables:
            print(f"{table.name:<18} {table.rows:>9} rows  sha256 {table.digest[:16]}")
        print(f"copied {report.rows} rows from {redacted(args.source)} to "
              f"{redacted(args.target)}: every table equal to its source")
    return 0


def _missing_file(db: str) -> bool:
    """Whether ``db`` names an SQLite file that does not exist (it would be created)."""
    backend, location = parse_url(db)
    if backend == "sqlite" and not Path(location).exists():
        print(f"no such file: {location}", file=sys.stderr)
        return True
    return False


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "verify":
            return 2 if _missing_file(args.db) else asyncio.run(_verify(args))
        if args.command == "backup":
            if not args.db.exists():
                print(f"no such file: {args.db}", file=sys.stderr)
                return 2
            out = backup_file(args.db, args.out)
            print(f"backup written to {out}")
            return 0
        if args.command == "ratings":
            return 2 if _missing_file(args.db) else asyncio.run(_ratings(args))
        if args.command == "copy":
            return 2 if _missing_file(args.source) else asyncio.run(_copy(args))
        return asyncio.run(_migrate(args))
    except (StorageError, sqlite3.Error, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
