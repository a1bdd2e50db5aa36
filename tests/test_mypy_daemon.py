"""The plugin in the mypy daemon: after every edit, the findings ``mypy --no-incremental`` gives.

Two reproductions of what the daemon got wrong, mypy's own daemon crash recognised as such
(slow group), then a bounded run of the random edit
sequences of ``tests/gen/edits.py`` (records, an alias, an enum and constants in shared modules;
moves, deletions, syntax errors, marker and constant changes), each edit checked by the daemon
and by incremental mypy against ``--no-incremental``. The longer run is in the slow group, and
``python tests/gen/edits.py --sequences N --seed S`` runs any number.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from gen.edits import Outcome, Project, Workspace, check_edits, describe, run_sequence

NOT_CHECKED = (
    "app.py:9:2: note: Tool 'place' was not checked (Bounded comes from a module mypy does not follow); "
    "OLT001-OLT015 were skipped for it"
)


def _both(ws: Workspace) -> tuple[list[str], list[str]]:
    daemon, crash = ws.daemon()
    assert crash == ""
    return daemon, ws.reference()


def test_deleting_the_module_of_an_alias_a_tool_uses_gives_the_note_not_the_old_findings(tmp_path: Path) -> None:
    """Deleting ``aliases.py`` parses nothing: the plugin must not reuse the alias it lowered before."""
    ws = Workspace(tmp_path)
    start = Project(record_home="shared", alias_bounds=(5, 1))
    try:
        ws.write(start)
        daemon, reference = _both(ws)
        assert daemon == reference
        assert any("Parameter 'count': Range(5, 1) has its minimum above its maximum" in line for line in reference)
        ws.write(dataclasses.replace(start, alias_home=None))
        daemon, reference = _both(ws)
        assert NOT_CHECKED in reference
        assert daemon == reference
    finally:
        ws.stop()


def test_moving_a_record_out_of_a_module_that_is_then_deleted_does_not_stop_the_daemon(tmp_path: Path) -> None:
    """``Order`` moves from ``models.py`` into ``shared.py``, ``models.py`` is deleted and the imports
    follow: the daemon looked ``models`` up among the dependencies the plugin had reported."""
    ws = Workspace(tmp_path)
    start = Project(record_home="models", record_bounds=(9, 0))
    try:
        ws.write(start)
        daemon, reference = _both(ws)
        assert daemon == reference and any("Range(9, 0)" in line for line in reference)
        moved = dataclasses.replace(start, record_home="shared")
        ws.write(moved)
        assert not (tmp_path / "models.py").exists()
        daemon, reference = _both(ws)
        assert daemon == reference and any("Range(9, 0)" in line for line in reference)
        ws.write(start)  # and back
        daemon, reference = _both(ws)
        assert daemon == reference
    finally:
        ws.stop()


@pytest.mark.slow  # five checks and a replay of four daemon runs
def test_mypys_own_daemon_crash_is_recognised_and_not_counted(tmp_path: Path) -> None:
    """A syntax error added to ``app.py``, ``aliases.py`` (which it imports) deleted, the syntax error
    removed: the daemon stops with a ``KeyError`` with or without the plugin (docs/editors.md). The
    differential replays it without the plugin, records it as mypy's, and starts a new daemon."""
    start = Project(record_home="shared", record_bounds=(9, 0))
    broken = dataclasses.replace(start, broken=frozenset({"app"}))
    deleted = dataclasses.replace(broken, alias_home=None)
    mended = dataclasses.replace(deleted, broken=frozenset())
    again = dataclasses.replace(mended, alias_home="aliases")
    steps = [("add a syntax error", broken), ("delete", deleted), ("remove it", mended), ("restore", again)]
    outcome = check_edits(start, steps, tmp_path, Outcome(0, 0))
    crashes = [(c.edit, c.crash, c.mypys_own) for c in outcome.checks if c.crash]
    assert crashes == [("remove it", "mypy/dmypy_server.py direct_imports: KeyError: 'aliases'", True)]
    assert outcome.failures == []
    assert outcome.checks[-1].daemon == outcome.checks[-1].reference != []


def _differential(tmp_path: Path, seed: int, sequences: int, edits: int) -> None:
    problems: list[str] = []
    checks = 0
    for sequence in range(sequences):
        outcome = run_sequence(seed, sequence, edits, tmp_path / f"seq{sequence}")
        checks += len(outcome.checks)
        problems += describe(outcome)
    assert checks == sequences * (edits + 1)
    assert not problems, "\n".join(problems)


def test_random_edit_sequences_agree_with_no_incremental(tmp_path: Path) -> None:
    _differential(tmp_path, seed=7, sequences=1, edits=6)


@pytest.mark.slow
def test_longer_random_edit_sequences_agree_with_no_incremental(tmp_path: Path) -> None:
    _differential(tmp_path, seed=11, sequences=4, edits=12)
