"""The load-test Job's command line is one the real `roost` CLI accepts."""

from __future__ import annotations

from pathlib import Path

import yaml

from clients.cli.main import build_parser

JOB = Path(__file__).resolve().parents[2] / "deploy" / "k8s" / "loadtest" / "job.yaml"


def test_the_load_test_job_runs_a_valid_roost_tournament() -> None:
    """Deploy issue: a Job runs a tournament against the deployed services."""
    documents = [d for d in yaml.safe_load_all(JOB.read_text()) if d]
    job = next(d for d in documents if d["kind"] == "Job")
    container = job["spec"]["template"]["spec"]["containers"][0]
    args = container["args"]
    assert args[0] == "roost"
    parsed = build_parser().parse_args(args[1:])
    assert parsed.command == "tournament"
    assert parsed.target and parsed.target.endswith(":50054")
    assert parsed.games == 50
