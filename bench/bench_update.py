"""The cost of each step of an update (issue 41), in seconds and MB, on this machine.

    python bench/bench_update.py [--file RELEASE] [--state DIR]

Without `--file` it builds a release of this checkout for this machine first (`wordtable release build
--target here`; needs pip and an index). Then, into a throw-away /opt/wordtable: the file checked and
unpacked, the environment made, the locked dependencies and wordtable installed offline, the health check
on a copy of `--state` (default: an empty state directory). The figures are this machine's: a Pi Zero 2 W
is several times slower, an emulated one slower still.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_host.update import apply
from firmware_host.update.layout import Layout
from firmware_host.update.release import build_release, pip_env, this_machine, unpack_release


def megabytes(path: Path) -> float:
    if path.is_file():
        return path.stat().st_size / 1e6
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path)
    parser.add_argument("--state", type=Path)
    args = parser.parse_args()
    rows: list[tuple[str, float, str]] = []
    with tempfile.TemporaryDirectory(prefix="bench-update-") as work_name:
        work = Path(work_name)
        file = args.file
        if file is None:
            file = work / "here.wtrelease"
            started = time.perf_counter()
            build_release(Path(__file__).resolve().parents[1], file, target=this_machine())
            rows.append(("release build (pip wheel + pip download)", time.perf_counter() - started,
                         f"file {megabytes(file):.1f} MB"))
        layout = Layout(work / "opt")
        layout.releases.mkdir(parents=True)
        box = apply.Box(layout, args.state or work / "state", None, sys.executable)
        started = time.perf_counter()
        unpacked = unpack_release(file, work / "unpacked")
        rows.append(("check and unpack", time.perf_counter() - started, f"{megabytes(work / 'unpacked'):.1f} MB"))
        target = layout.release_dir(unpacked.manifest.release)
        offline = ["--no-index", "--find-links", str(unpacked.wheels), "--no-cache-dir", "--quiet"]
        python = str(target / "bin" / "python")
        for what, command in (
            ("make the environment", [sys.executable, "-m", "venv", "--system-site-packages", str(target)]),
            ("install the locked dependencies", [python, "-m", "pip", "install", *offline, "--require-hashes",
                                                 "-r", str(unpacked.lock)]),
            ("install wordtable", [python, "-m", "pip", "install", *offline, "--no-deps",
                                   str(unpacked.project_wheel())]),
        ):
            started = time.perf_counter()
            subprocess.run(command, check=True, env=pip_env())
            rows.append((what, time.perf_counter() - started, f"environment {megabytes(target):.1f} MB"))
        started = time.perf_counter()
        apply.check_health(target, box, lambda text: None)
        rows.append(("health check (start on a copy, first frame)", time.perf_counter() - started, ""))
        shutil.rmtree(target)
    for what, seconds, size in rows:
        print(f"{what:<46} {seconds:7.1f} s  {size}")


if __name__ == "__main__":
    main()
