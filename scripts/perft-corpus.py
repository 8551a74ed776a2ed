#!/usr/bin/env python3
"""Runs every perft line of the shared corpus through `slowfuse perft`.

Usage (from the repository root, after `cargo build --release`):

    python3 scripts/perft-corpus.py [--min-nodes N] [--max-nodes N]
        [--binary target/release/slowfuse] [--corpus ../shared/corpus/perft]

Lines are run smallest first, one `slowfuse perft --variant V --fen F
--depth D` each, and the count printed on the command's last line is held
against the record. Records written under other rules than lichess's
(`# rules:` lines in a suite) are run too and reported apart: there a
different count is expected. A progress line on stderr shows the nodes
counted so far. The exit status is 1 when a lichess-rules count differs or a
command fails.
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

# Suite variant names that are antichess under other rules (castling allowed,
# FICS suicide), as in crates/rules/tests/corpus_perft.rs.
VARIANTS = {"chess": "standard", "giveaway": "antichess", "suicide": "antichess"}


def read_suite(path):
    """Yields (rules, id, epd, depth, nodes) for each perft line of a suite."""
    variant, rules, record, epd = None, "lichess", None, None
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("# variant:"):
            variant = line.split(":", 1)[1].strip()
        elif line.startswith("# rules:"):
            rules = line.split(":", 1)[1].strip()
        elif line.startswith("id "):
            record = line[3:].strip()
        elif line.startswith("epd "):
            epd = line[4:].strip()
        elif line.startswith("perft "):
            _, depth, nodes = line.split()
            yield VARIANTS.get(variant, variant), rules, record, epd, int(depth), int(nodes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="../shared/corpus/perft")
    parser.add_argument("--binary", default=None)
    parser.add_argument("--min-nodes", type=int, default=0)
    parser.add_argument("--max-nodes", type=int, default=None)
    args = parser.parse_args()

    binary = args.binary or os.path.join(
        os.environ.get("CARGO_TARGET_DIR", "target"), "release", "slowfuse"
    )
    lines = []
    for suite in sorted(Path(args.corpus).glob("*/*.perft")):
        for variant, rules, record, epd, depth, nodes in read_suite(suite):
            if nodes >= args.min_nodes and (args.max_nodes is None or nodes <= args.max_nodes):
                lines.append((nodes, suite.name, variant, rules, record, epd, depth))
    lines.sort(key=lambda line: line[0])
    total = sum(line[0] for line in lines)

    matched = other_rules_differ = other_rules_agree = 0
    failures = []
    done = 0
    started = time.monotonic()
    for index, (nodes, suite, variant, rules, record, epd, depth) in enumerate(lines, 1):
        command = [binary, "perft", "--variant", variant, "--fen", epd, "--depth", str(depth)]
        run = subprocess.run(command, capture_output=True, text=True)
        output = run.stdout.strip().splitlines()
        counted = int(output[-1]) if run.returncode == 0 and output else None
        if rules != "lichess":
            if counted == nodes:
                other_rules_agree += 1
            else:
                other_rules_differ += 1
        elif counted == nodes:
            matched += 1
        else:
            failures.append(
                f"{suite} {record} depth {depth}: expected {nodes}, got "
                f"{counted if counted is not None else run.stderr.strip()}"
            )
        done += nodes
        elapsed = time.monotonic() - started
        print(
            f"\r{index}/{len(lines)} lines, {done / 1e9:.1f}/{total / 1e9:.1f} G nodes, "
            f"{elapsed:.0f} s",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    elapsed = time.monotonic() - started
    print(
        f"{len(lines)} perft lines ({total:,} nodes) in {elapsed:.0f} s: {matched} matched, "
        f"{len(failures)} differed or failed; other rule sets: {other_rules_differ} differed "
        f"(expected), {other_rules_agree} agreed"
    )
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
