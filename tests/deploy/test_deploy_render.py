"""deploy/render.py: the offline kustomize subset renders what real kustomize renders."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from deploy import render as render_module
from deploy.render import RenderError, render, split_image, strategic_merge
from tests.deploy import real_kustomize
from tests.deploy.manifests import K8S, LOADTEST, OVERLAYS

CASES = Path(__file__).resolve().parent / "kustomize_cases"
# kustomization folder -> output recorded from real kustomize (api v0.21.3).
RECORDED = {
    "images_labels": (CASES / "images_labels", CASES / "images_labels" / "expected.yaml"),
    "patches": (CASES / "patches" / "overlay", CASES / "patches" / "expected.yaml"),
}
PROJECT_KUSTOMIZATIONS = {
    str(path.parent.relative_to(K8S)): path.parent for path in K8S.rglob("kustomization.yaml")
}


def load_all(text: str) -> list[dict]:
    return [doc for doc in yaml.safe_load_all(text) if doc is not None]


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_renders_what_real_kustomize_rendered(case: str) -> None:
    folder, expected = RECORDED[case]
    assert render(folder) == load_all(expected.read_text())


def test_every_project_kustomization_renders() -> None:
    assert {"base", "redis", "overlays/dev", "overlays/prod", "loadtest"} <= set(
        PROJECT_KUSTOMIZATIONS
    )
    assert PROJECT_KUSTOMIZATIONS["loadtest"] == LOADTEST
    assert PROJECT_KUSTOMIZATIONS["overlays/prod"] == OVERLAYS["prod"]
    for folder in PROJECT_KUSTOMIZATIONS.values():
        assert render(folder), folder


@pytest.mark.parametrize("name", sorted(PROJECT_KUSTOMIZATIONS))
def test_project_kustomizations_match_real_kustomize(name: str) -> None:
    library = real_kustomize.library_path()
    if library is None:
        pytest.skip("no real kustomize here (set ROOST_KUSTOMIZE_LIB, see docs/DEPLOY.md)")
    folder = PROJECT_KUSTOMIZATIONS[name]
    assert render(folder) == load_all(real_kustomize.build(folder, library))


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_recorded_cases_still_match_real_kustomize(case: str) -> None:
    library = real_kustomize.library_path()
    if library is None:
        pytest.skip("no real kustomize here (set ROOST_KUSTOMIZE_LIB, see docs/DEPLOY.md)")
    folder, expected = RECORDED[case]
    assert load_all(real_kustomize.build(folder, library)) == load_all(expected.read_text())


def test_render_yaml_round_trips_and_cli_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    folder = RECORDED["patches"][0]
    assert load_all(render_module.render_yaml(folder)) == render(folder)
    assert render_module.main([str(folder)]) == 0
    assert load_all(capsys.readouterr().out) == render(folder)
    assert render_module.main([]) == 2


def test_cli_reports_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert render_module.main([str(tmp_path)]) == 1
    assert "no kustomization.yaml" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("image", "parts"),
    [
        ("roost", ("roost", None, None)),
        ("roost:dev", ("roost", "dev", None)),
        ("reg.io:5000/a/roost", ("reg.io:5000/a/roost", None, None)),
        ("reg.io:5000/roost:1.2@sha256:ab", ("reg.io:5000/roost", "1.2", "sha256:ab")),
        ("roost@sha256:ab", ("roost", None, "sha256:ab")),
    ],
)
def test_split_image(image: str, parts: tuple) -> None:
    assert split_image(image) == parts


def test_strategic_merge_maps_and_keyed_lists() -> None:
    base = {
        "a": {"keep": 1, "drop": 2},
        "containers": [{"name": "x", "args": ["1", "2"]}, {"name": "y"}],
    }
    patch = {
        "a": {"drop": None, "new": {"n": None, "m": 1}},
        "containers": [{"name": "y", "image": "i"}, {"name": "z", "args": ["3"]}],
    }
    merged = strategic_merge(base, patch)
    assert merged == {
        "a": {"keep": 1, "new": {"m": 1}},
        "containers": [
            {"name": "y", "image": "i"},
            {"name": "z", "args": ["3"]},
            base["containers"][0],
        ],
    }
    assert base["a"] == {"keep": 1, "drop": 2}, "the input must not change"


def test_strategic_merge_replaces_atomic_lists() -> None:
    base = {"containers": [{"name": "x", "args": ["1", "2"], "command": ["a"]}]}
    patch = {"containers": [{"name": "x", "args": ["3"]}]}
    assert strategic_merge(base, patch)["containers"] == [
        {"name": "x", "args": ["3"], "command": ["a"]}
    ]


@pytest.mark.parametrize(
    ("base", "patch", "message"),
    [
        ({"ports": [{"containerPort": 1}]}, {"ports": [{"containerPort": 2}]}, "no known patch"),
        ({"x": 1}, {"$patch": "replace"}, "$patch"),
        ({"env": [{"name": "A"}]}, {"env": [{"value": "1"}]}, "merge key"),
        ({"env": [{"value": "1"}]}, {"env": [{"name": "A"}]}, "merge key"),
    ],
)
def test_strategic_merge_refuses_what_it_cannot_do_like_kustomize(
    base: dict, patch: dict, message: str
) -> None:
    with pytest.raises(RenderError, match=message.replace("$", r"\$")):
        strategic_merge(base, patch)


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return folder


CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: '1'}\n"
DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  selector: {matchLabels: {app: d}}
  template:
    metadata: {labels: {app: d}}
    spec: {containers: [{name: server, image: app}]}
"""


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"kustomization.yaml": "resources: [c.yaml]\ncommonLabels: {a: b}\n"}, "unsupported"),
        ({"kustomization.yaml": "configMapGenerator: []\n"}, "unsupported kustomization"),
        ({"kustomization.yaml": "kind: Component\n"}, "components"),
        ({"kustomization.yaml": "apiVersion: v1\n"}, "apiVersion"),
        ({"kustomization.yaml": "resources: [missing.yaml]\n"}, "does not exist"),
        ({"kustomization.yaml": "resources: [https://x/y]\n"}, "only local"),
        (
            {
                "kustomization.yaml": "resources: [c.yaml]\nlabels:\n"
                "  - pairs: {a: b}\n    includeSelectors: true\n"
            },
            "includeSelectors",
        ),
        ({"kustomization.yaml": "resources: [c.yaml, c.yaml]\n"}, "duplicate"),
        (
            {"kustomization.yaml": "resources: [c.yaml]\nreplicas: [{name: c, count: 2}]\n"},
            "no workload",
        ),
        (
            {"kustomization.yaml": "resources: [d.yaml]\nreplicas: [{name: d, count: -1}]\n"},
            "non-negative",
        ),
        (
            {
                "kustomization.yaml": "resources: [c.yaml]\npatches: [{path: p.yaml}]\n",
                "p.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n",
            },
            "match one object",
        ),
        (
            {
                "kustomization.yaml": "resources: [c.yaml]\npatches: [{path: p.yaml}]\n",
                "p.yaml": "- op: add\n  path: /data/b\n  value: '2'\n",
            },
            "one strategic-merge",
        ),
        (
            {"kustomization.yaml": "resources: [c.yaml]\npatches: [{patch: 'x'}]\n"},
            "unsupported keys",
        ),
        (
            {
                "kustomization.yaml": "resources: [d.yaml]\n"
                "patches: [{path: p.yaml, target: {kind: Deployment, name: 'd.*'}}]\n",
                "p.yaml": DEPLOYMENT,
            },
            "plain name",
        ),
        (
            {
                "kustomization.yaml": "resources: [d.yaml]\n"
                "patches: [{path: p.yaml, target: {kind: StatefulSet}}]\n",
                "p.yaml": DEPLOYMENT,
            },
            "matches nothing",
        ),
        (
            {
                "kustomization.yaml": "resources: [r.yaml]\n",
                "r.yaml": "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"
                "metadata: {name: r}\n",
            },
            "not supported",
        ),
        (
            {
                "kustomization.yaml": "resources: [l.yaml]\n",
                "l.yaml": "apiVersion: v1\nkind: List\nitems: []\n",
            },
            "List",
        ),
        (
            {
                "kustomization.yaml": "resources: [n.yaml]\n",
                "n.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n",
            },
            "without metadata.name",
        ),
        ({"kustomization.yaml": "images: [{newTag: x}]\n"}, "without a name"),
    ],
)
def test_refuses_unsupported_or_broken_kustomizations(
    tmp_path: Path, files: dict[str, str], message: str
) -> None:
    write(tmp_path, {"c.yaml": CONFIGMAP, "d.yaml": DEPLOYMENT, **files})
    with pytest.raises(RenderError, match=message):
        render(tmp_path)


def test_refuses_files_outside_the_root_but_not_folders(tmp_path: Path) -> None:
    write(tmp_path / "base", {"kustomization.yaml": "resources: [c.yaml]\n", "c.yaml": CONFIGMAP})
    write(tmp_path / "ok", {"kustomization.yaml": "resources: [../base]\nnamespace: n\n"})
    assert render(tmp_path / "ok")[0]["metadata"] == {"name": "c", "namespace": "n"}
    write(tmp_path / "bad", {"kustomization.yaml": "resources: [../base/c.yaml]\n"})
    with pytest.raises(RenderError, match="outside the kustomization root"):
        render(tmp_path / "bad")


def test_refuses_cycles(tmp_path: Path) -> None:
    write(tmp_path / "a", {"kustomization.yaml": "resources: [../b]\n"})
    write(tmp_path / "b", {"kustomization.yaml": "resources: [../a]\n"})
    with pytest.raises(RenderError, match="cycle"):
        render(tmp_path / "a")


def test_namespace_skips_cluster_scoped_objects(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "kustomization.yaml": "namespace: n\nresources: [all.yaml]\n",
            "all.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n---\n" + CONFIGMAP,
        },
    )
    namespace, configmap = render(tmp_path)
    assert "namespace" not in namespace["metadata"]
    assert configmap["metadata"]["namespace"] == "n"
