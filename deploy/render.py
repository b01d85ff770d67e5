"""Render Roost's kustomizations offline, without kustomize or kubectl.

``kubectl kustomize`` / ``kustomize build`` cannot be installed on the
project's machines or in CI, so this module renders ``deploy/k8s`` itself. It
implements exactly the subset of kustomize that those kustomizations use and
refuses everything else with a :class:`RenderError`, so that a kustomization
that renders here renders the same with real kustomize (checked against the
real Go kustomize engine by ``tests/deploy/test_deploy_render.py`` wherever
that engine is available; see docs/DEPLOY.md).

Supported ``kustomization.yaml`` fields:

- ``resources``: local YAML files (inside the kustomization's folder, as
  kustomize's default load restrictor demands) and local kustomization folders
  (which may lie outside, e.g. ``../../base``). Duplicate objects are an error.
- ``namespace``: sets ``metadata.namespace`` on every namespaced object.
- ``labels``: entries with ``pairs`` and ``includeTemplates``; adds the pairs
  to ``metadata.labels`` and, with ``includeTemplates``, to pod templates and
  a CronJob's job template (not to volume claim templates, as kustomize).
  ``includeSelectors: true`` and the deprecated ``commonLabels`` are refused:
  selectors are immutable, so overlays must never rewrite them.
- ``images``: ``name`` with ``newName`` / ``newTag`` / ``digest``, applied to
  the containers and init containers of pods, pod templates and CronJobs.
- ``replicas``: ``name`` and ``count`` for Deployments, ReplicaSets,
  StatefulSets and ReplicationControllers.
- ``patches``: strategic-merge patches from a ``path``, either aimed by the
  patch's own kind and name or at every object a ``target`` (``kind`` and an
  optional plain ``name``) selects. Maps merge, ``null`` deletes a key, and a
  list merges by its Kubernetes merge key only where :data:`MERGE_KEYS` knows
  it; lists in :data:`ATOMIC_LISTS` are replaced; any other list in a patch is
  refused rather than guessed. JSON 6902 patches and ``$patch`` directives are
  refused.

Transformers run in kustomize's order: patches, namespace, labels, replicas,
images; sub-kustomizations are rendered completely first. Output is sorted in
kustomize's default ("legacy") order and keys are sorted, like kustomize's.

Usage: ``python -m deploy.render deploy/k8s/overlays/prod > prod.yaml``.
"""

from __future__ import annotations

import copy
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
KUSTOMIZE_API = "kustomize.config.k8s.io/v1beta1"
SUPPORTED_FIELDS = frozenset(
    {"apiVersion", "kind", "resources", "namespace", "labels", "images", "replicas", "patches"}
)

# Kinds that live outside namespaces (kustomize leaves their namespace unset).
CLUSTER_SCOPED_KINDS = frozenset(
    {
        "Namespace",
        "ClusterRole",
        "ClusterRoleBinding",
        "CustomResourceDefinition",
        "PersistentVolume",
        "StorageClass",
        "PriorityClass",
        "IngressClass",
        "RuntimeClass",
        "MutatingWebhookConfiguration",
        "ValidatingWebhookConfiguration",
        "APIService",
        "CSIDriver",
        "Node",
    }
)
# Kinds whose namespace handling in kustomize goes beyond metadata.namespace.
UNSUPPORTED_KINDS = frozenset({"RoleBinding", "ClusterRoleBinding"})

REPLICA_KINDS = frozenset({"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"})
TEMPLATE_KINDS = frozenset(
    {"Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "Job", "ReplicationController"}
)

# Strategic-merge keys of the list fields a patch may merge into, by field
# name (from the Kubernetes API's x-kubernetes-patch-merge-key).
MERGE_KEYS = {
    "containers": "name",
    "initContainers": "name",
    "env": "name",
    "volumes": "name",
    "volumeMounts": "mountPath",
}
# List fields without a merge key: a patch replaces them whole.
ATOMIC_LISTS = frozenset(
    {
        "args",
        "command",
        "drop",
        "add",
        "accessModes",
        "envFrom",
        "volumeClaimTemplates",
        "metrics",
        "ingress",
        "egress",
    }
)

# kustomize's legacy output order (api/resid/gvk.go).
ORDER_FIRST = (
    "Namespace",
    "ResourceQuota",
    "StorageClass",
    "CustomResourceDefinition",
    "ServiceAccount",
    "PodSecurityPolicy",
    "Role",
    "ClusterRole",
    "RoleBinding",
    "ClusterRoleBinding",
    "ConfigMap",
    "Secret",
    "Endpoints",
    "Service",
    "LimitRange",
    "PriorityClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "Deployment",
    "StatefulSet",
    "CronJob",
    "PodDisruptionBudget",
)
ORDER_LAST = ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")

_PLAIN_NAME = re.compile(r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")

Obj = dict[str, Any]


class RenderError(Exception):
    """A kustomization is broken or uses a feature this renderer refuses."""


def render(path: str | Path) -> list[Obj]:
    """Render the kustomization in folder ``path`` into a sorted list of objects."""
    return sort_objects(_render_dir(Path(path).resolve(), ()))


def render_yaml(path: str | Path) -> str:
    """Render ``path`` as a multi-document YAML stream, as ``kustomize build`` prints it."""
    return dump(render(path))


def dump(objects: Iterable[Obj]) -> str:
    """YAML documents separated by ``---``, keys sorted."""
    return yaml.safe_dump_all(list(objects), sort_keys=True, default_flow_style=False)


def object_id(obj: Obj) -> tuple[str, str, str, str]:
    """(group, kind, namespace, name): what kustomize uses to tell objects apart."""
    api_version = str(obj.get("apiVersion", ""))
    group = api_version.rpartition("/")[0]
    meta = obj.get("metadata") or {}
    return (group, str(obj.get("kind", "")), str(meta.get("namespace", "")), str(meta["name"]))


def sort_objects(objects: list[Obj]) -> list[Obj]:
    """Sort like kustomize's default ("legacy") reorder."""

    def key(obj: Obj) -> tuple[int, str, str, str]:
        kind = obj["kind"]
        if kind in ORDER_FIRST:
            rank = ORDER_FIRST.index(kind) - len(ORDER_FIRST)
        elif kind in ORDER_LAST:
            rank = ORDER_LAST.index(kind) + 1
        else:
            rank = 0
        group, version = _group_version(obj)
        gvk = f"{group or '~G'}_{version or '~V'}_{kind}"
        meta = obj.get("metadata") or {}
        return (rank, gvk, meta.get("namespace") or "~X", meta["name"])

    return sorted(objects, key=key)


def _group_version(obj: Obj) -> tuple[str, str]:
    group, _, version = str(obj.get("apiVersion", "")).rpartition("/")
    return group, version


# ---------------------------------------------------------------- loading


def _kustomization_file(folder: Path) -> Path:
    for name in KUSTOMIZATION_FILES:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    raise RenderError(f"{folder}: no kustomization.yaml")


def _load_kustomization(folder: Path) -> dict[str, Any]:
    path = _kustomization_file(folder)
    data = yaml.safe_load(path.read_text()) or {}
    if not isinstance(data, dict):
        raise RenderError(f"{path}: not a mapping")
    unknown = sorted(set(data) - SUPPORTED_FIELDS)
    if unknown:
        raise RenderError(f"{path}: unsupported kustomization fields {unknown}")
    if data.get("apiVersion", KUSTOMIZE_API) != KUSTOMIZE_API:
        raise RenderError(f"{path}: apiVersion must be {KUSTOMIZE_API}")
    if data.get("kind", "Kustomization") != "Kustomization":
        raise RenderError(f"{path}: kind must be Kustomization (components are not supported)")
    return data


def _load_objects(path: Path) -> list[Obj]:
    objects = []
    for doc in yaml.safe_load_all(path.read_text()):
        if doc is None:
            continue
        if not isinstance(doc, dict) or "kind" not in doc or "apiVersion" not in doc:
            raise RenderError(f"{path}: every document must be a Kubernetes object")
        if doc["kind"].endswith("List"):
            raise RenderError(f"{path}: List objects are not supported")
        if doc["kind"] in UNSUPPORTED_KINDS:
            raise RenderError(f"{path}: {doc['kind']} is not supported by this renderer")
        if not (doc.get("metadata") or {}).get("name"):
            raise RenderError(f"{path}: {doc['kind']} without metadata.name")
        objects.append(doc)
    return objects


def _within(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def _render_dir(folder: Path, stack: tuple[Path, ...]) -> list[Obj]:
    if folder in stack:
        raise RenderError(f"{folder}: kustomization cycle")
    spec = _load_kustomization(folder)
    objects: list[Obj] = []
    seen: set[tuple[str, str, str, str]] = set()
    for entry in _as_list(spec.get("resources"), "resources", folder):
        if not isinstance(entry, str) or "://" in entry or entry.startswith("github.com/"):
            raise RenderError(f"{folder}: only local resources are supported, got {entry!r}")
        target = (folder / entry).resolve()
        if target.is_dir():
            loaded = _render_dir(target, (*stack, folder))
        elif target.is_file():
            if not _within(target, folder):
                raise RenderError(
                    f"{folder}: file {entry!r} is outside the kustomization root "
                    "(kustomize's load restrictor refuses it)"
                )
            loaded = _load_objects(target)
        else:
            raise RenderError(f"{folder}: resource {entry!r} does not exist")
        for obj in loaded:
            oid = object_id(obj)
            if oid in seen:
                raise RenderError(f"{folder}: duplicate object {oid}")
            seen.add(oid)
            objects.append(obj)

    objects = copy.deepcopy(objects)
    for patch in _as_list(spec.get("patches"), "patches", folder):
        _apply_patch(objects, patch, folder)
    if spec.get("namespace"):
        _set_namespace(objects, spec["namespace"])
    for entry in _as_list(spec.get("labels"), "labels", folder):
        _add_labels(objects, entry, folder)
    for entry in _as_list(spec.get("replicas"), "replicas", folder):
        _set_replicas(objects, entry, folder)
    for entry in _as_list(spec.get("images"), "images", folder):
        _set_image(objects, entry, folder)
    return objects


def _as_list(value: Any, field: str, folder: Path) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise RenderError(f"{folder}: {field} must be a list")
    return value


def _check_keys(entry: Any, allowed: set[str], field: str, folder: Path) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise RenderError(f"{folder}: each {field} entry must be a mapping")
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise RenderError(f"{folder}: unsupported keys {unknown} in {field}")
    return entry


# ---------------------------------------------------------------- transformers


def _set_namespace(objects: list[Obj], namespace: str) -> None:
    for obj in objects:
        if obj["kind"] not in CLUSTER_SCOPED_KINDS:
            obj.setdefault("metadata", {})["namespace"] = namespace


def _template_label_maps(obj: Obj) -> list[dict[str, Any]]:
    """The label maps ``includeTemplates`` writes to, created when missing."""
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return []
    found = []
    kind = obj["kind"]
    if kind in TEMPLATE_KINDS:
        template = spec.setdefault("template", {})
        found.append(template.setdefault("metadata", {}).setdefault("labels", {}))
    if kind == "CronJob":
        job = spec.setdefault("jobTemplate", {})
        found.append(job.setdefault("metadata", {}).setdefault("labels", {}))
        pod = job.setdefault("spec", {}).setdefault("template", {})
        found.append(pod.setdefault("metadata", {}).setdefault("labels", {}))
    return found


def _add_labels(objects: list[Obj], entry: Any, folder: Path) -> None:
    entry = _check_keys(entry, {"pairs", "includeSelectors", "includeTemplates"}, "labels", folder)
    if entry.get("includeSelectors"):
        raise RenderError(f"{folder}: labels.includeSelectors is refused (selectors are immutable)")
    pairs = entry.get("pairs") or {}
    if not isinstance(pairs, dict) or not all(isinstance(v, str) for v in pairs.values()):
        raise RenderError(f"{folder}: labels.pairs must map names to strings")
    for obj in objects:
        targets = [obj.setdefault("metadata", {})]
        for meta in targets:
            if meta.get("labels") is None:
                meta["labels"] = {}
            meta["labels"].update(pairs)
        if entry.get("includeTemplates"):
            for labels in _template_label_maps(obj):
                labels.update(pairs)


def _set_replicas(objects: list[Obj], entry: Any, folder: Path) -> None:
    entry = _check_keys(entry, {"name", "count"}, "replicas", folder)
    count = entry.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise RenderError(f"{folder}: replicas count must be a non-negative integer")
    matched = [
        obj
        for obj in objects
        if obj["kind"] in REPLICA_KINDS and obj["metadata"]["name"] == entry.get("name")
    ]
    if not matched:
        raise RenderError(f"{folder}: replicas: no workload named {entry.get('name')!r}")
    for obj in matched:
        obj.setdefault("spec", {})["replicas"] = count


def split_image(image: str) -> tuple[str, str | None, str | None]:
    """``name[:tag][@digest]`` -> (name, tag, digest); a registry port is not a tag."""
    name, _, digest = image.partition("@")
    tag = None
    slash = name.rfind("/")
    colon = name.rfind(":")
    if colon > slash:
        name, tag = name[:colon], name[colon + 1 :]
    return name, tag, digest or None


def _pod_specs(obj: Obj) -> list[dict[str, Any]]:
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return []
    if obj["kind"] == "Pod":
        return [spec]
    if obj["kind"] == "CronJob":
        spec = (spec.get("jobTemplate") or {}).get("spec") or {}
    pod = (spec.get("template") or {}).get("spec")
    return [pod] if isinstance(pod, dict) else []


def _set_image(objects: list[Obj], entry: Any, folder: Path) -> None:
    entry = _check_keys(entry, {"name", "newName", "newTag", "digest"}, "images", folder)
    if not entry.get("name"):
        raise RenderError(f"{folder}: images entry without a name")
    for obj in objects:
        for pod in _pod_specs(obj):
            for field in ("initContainers", "containers"):
                for container in pod.get(field) or []:
                    name, tag, digest = split_image(str(container.get("image", "")))
                    if name != entry["name"]:
                        continue
                    # A new tag or digest replaces both the old tag and digest.
                    if entry.get("newTag") or entry.get("digest"):
                        tag = str(entry["newTag"]) if entry.get("newTag") else None
                        digest = entry.get("digest")
                    image = entry.get("newName") or name
                    if tag:
                        image += f":{tag}"
                    if digest:
                        image += f"@{digest}"
                    container["image"] = image


# ---------------------------------------------------------------- patches


def _apply_patch(objects: list[Obj], entry: Any, folder: Path) -> None:
    entry = _check_keys(entry, {"path", "target"}, "patches", folder)
    if "path" not in entry:
        raise RenderError(f"{folder}: only patches from a path are supported")
    path = (folder / entry["path"]).resolve()
    if not _within(path, folder) or not path.is_file():
        raise RenderError(f"{folder}: patch {entry['path']!r} missing or outside the root")
    docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
    if len(docs) != 1 or not isinstance(docs[0], dict):
        raise RenderError(f"{path}: a patch file must hold one strategic-merge patch object")
    patch = docs[0]
    if "kind" not in patch or not (patch.get("metadata") or {}).get("name"):
        raise RenderError(f"{path}: a strategic-merge patch needs kind and metadata.name")

    target = entry.get("target")
    if target is None:
        group = _group_version(patch)[0]
        namespace = patch["metadata"].get("namespace")
        matched = [
            obj
            for obj in objects
            if obj["kind"] == patch["kind"]
            and obj["metadata"]["name"] == patch["metadata"]["name"]
            and _group_version(obj)[0] == group
            and (namespace is None or obj["metadata"].get("namespace") == namespace)
        ]
        if len(matched) != 1:
            raise RenderError(f"{path}: patch must match one object, matched {len(matched)}")
    else:
        target = _check_keys(target, {"kind", "name"}, "patches.target", folder)
        if "kind" not in target:
            raise RenderError(f"{folder}: patches.target needs a kind")
        name = target.get("name")
        if name is not None and not _PLAIN_NAME.match(name):
            raise RenderError(f"{folder}: patches.target.name must be a plain name (no regex)")
        matched = [
            obj
            for obj in objects
            if obj["kind"] == target["kind"] and (name is None or obj["metadata"]["name"] == name)
        ]
        if not matched:
            raise RenderError(f"{path}: patch target {target} matches nothing")
        if any(obj["kind"] != patch["kind"] for obj in matched):
            raise RenderError(f"{path}: patch kind differs from its target's")

    body = {k: v for k, v in patch.items() if k not in ("apiVersion", "kind")}
    # The patch's name only aims it; with a target it must not rename anything.
    body["metadata"] = {k: v for k, v in body.get("metadata", {}).items() if k != "name"}
    body["metadata"].pop("namespace", None)
    if not body["metadata"]:
        del body["metadata"]
    for obj in matched:
        merged = strategic_merge(obj, body, (obj["kind"],))
        obj.clear()
        obj.update(merged)


def strategic_merge(base: Any, patch: Any, path: tuple[str, ...] = ()) -> Any:
    """Merge ``patch`` into a copy of ``base`` with strategic-merge-patch rules.

    Maps merge key by key and ``None`` deletes a key. Lists merge by the key in
    :data:`MERGE_KEYS` or are replaced when in :data:`ATOMIC_LISTS`; any other
    list raises :class:`RenderError`, since getting it wrong would silently
    differ from kustomize.
    """
    where = ".".join(path)
    if isinstance(patch, dict):
        if any(str(key).startswith("$") for key in patch):
            raise RenderError(f"{where}: $patch directives are not supported")
        if not isinstance(base, dict):
            return _strip_nulls(patch)
        out = copy.deepcopy(base)
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            elif key in out:
                out[key] = strategic_merge(out[key], value, (*path, str(key)))
            else:
                out[key] = _strip_nulls(value)
        return out
    if isinstance(patch, list):
        field = path[-1] if path else ""
        if field in ATOMIC_LISTS:
            return _strip_nulls(patch)
        merge_key = MERGE_KEYS.get(field)
        if merge_key is None:
            raise RenderError(
                f"{where}: list field {field!r} has no known patch strategy in this renderer"
            )
        if not isinstance(base, list):
            base = []
        by_key = {}
        for existing in base:
            if not isinstance(existing, dict) or merge_key not in existing:
                raise RenderError(f"{where}: an item lacks its merge key {merge_key!r}")
            by_key[existing[merge_key]] = existing
        # As kustomize (kyaml merge2): the patch's items first, in the patch's
        # order, then the untouched items in their original order.
        out = []
        for item in patch:
            if not isinstance(item, dict) or merge_key not in item:
                raise RenderError(f"{where}: every item must carry its merge key {merge_key!r}")
            existing = by_key.get(item[merge_key])
            if existing is None:
                out.append(_strip_nulls(item))
            else:
                out.append(strategic_merge(existing, item, path))
        patched = {item[merge_key] for item in patch}
        out.extend(copy.deepcopy(b) for b in base if b[merge_key] not in patched)
        return out
    return patch


def _strip_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_strip_nulls(v) for v in value]
    return value


def main(argv: list[str] | None = None) -> int:
    """``python -m deploy.render DIR``: print the rendered kustomization."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m deploy.render KUSTOMIZATION_DIR", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(render_yaml(args[0]))
    except RenderError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
