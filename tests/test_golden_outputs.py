"""Behaviour kept byte for byte: every documented record scored and every documented script played give the
outputs in `tests/golden/`, which were generated from main before the games were restructured.

`python tests/test_golden_outputs.py --write` writes them anew (an explicit step, never done by a test run).
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import tempfile
from pathlib import Path

import pytest

from firmware_host import cli

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.jsonl"))
SCRIPTS = sorted((ROOT / "docs" / "scripts").glob("*.script"))


def _cli(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(list(args))
    return f"{out.getvalue()}exit {code}\n"


def score_outputs(example: Path) -> dict[str, str]:
    return {
        f"{example.stem}.score.de.txt": _cli("score", str(example)),
        f"{example.stem}.score.en.txt": _cli("score", str(example), "--lang", "en"),
        f"{example.stem}.score.json": _cli("score", str(example), "--json"),
    }


def script_outputs(script: Path) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as state:
        # The goldens do not depend on the word lists a machine has installed (wngerman, wamerican).
        config = Path(state) / "no-system-lists.toml"
        config.write_text("[dictionary]\nsystem = false\n", encoding="utf-8")
        frames = _cli("sim", "--script", str(script), "--frames", "--state-dir", state, "--config", str(config))
        games = _cli("journal", "list", "--state-dir", state)
        record = _cli("journal", "export", "--state-dir", state) if "no games yet" not in games else ""
    # The journal's list carries the wall-clock date of each game: keep only the other columns.
    listed = "\n".join(" ".join(line.split()[2:] if i else line.split()) for i, line in enumerate(games.splitlines()))
    record = re.sub(r', "at": "[^"]*"', "", record)  # the wall-clock label of each line
    return {
        f"{script.stem}.frames.txt": frames,
        f"{script.stem}.games.txt": listed + "\n",
        f"{script.stem}.record.jsonl": record,
    }


def _all() -> dict[str, str]:
    outputs: dict[str, str] = {}
    for example in EXAMPLES:
        outputs.update(score_outputs(example))
    for script in SCRIPTS:
        outputs.update(script_outputs(script))
    return outputs


@pytest.mark.slow
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_scoring_each_example_record_is_unchanged(example):
    for name, text in score_outputs(example).items():
        assert text == (GOLDEN / name).read_text(encoding="utf-8"), name


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_playing_each_script_gives_the_same_frames_and_record(script):
    for name, text in script_outputs(script).items():
        assert text == (GOLDEN / name).read_text(encoding="utf-8"), name


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.mkdir(exist_ok=True)
    for name, text in _all().items():
        (GOLDEN / name).write_text(text, encoding="utf-8")
        print(f"wrote tests/golden/{name}")
