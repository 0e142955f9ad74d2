"""The Kubernetes manifests and deployable configuration, checked offline.

Built-in kinds validate against kubernetes-validate's bundled (strict) schemas; custom
resources (KEDA, Prometheus Operator) against the structure their operators read. Then the
cross-checks no schema can make: every queue has its pool and autoscaler, grace periods
cover the time limits, memory limits cover the children, every metric named exists.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import jsonschema
import kubernetes_validate
import pytest
import yaml

from lease_parser.cli import cli
from lease_parser.metrics import METRIC_NAMES
from lease_parser.pipeline.routing import QUEUES, UNROUTED
from lease_parser.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "k8s"
CONFIG = ROOT / "config"
KUBERNETES_VERSION = "1.30"  # the oldest cluster version these manifests are written for

Doc = dict[str, Any]


def load(path: Path) -> list[Doc]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


MANIFEST_FILES = sorted(p for p in K8S.rglob("*.yaml") if p.name != "kustomization.yaml")
DOCS = [(path, doc) for path in MANIFEST_FILES for doc in load(path)]
CUSTOM_KINDS = {"ScaledObject", "PrometheusRule", "ServiceMonitor", "PodMonitor"}


def doc_id(item: tuple[Path, Doc]) -> str:
    path, doc = item
    return f"{path.relative_to(K8S)}:{doc['kind']}/{doc['metadata']['name']}"


def of_kind(kind: str, docs: list[tuple[Path, Doc]] = DOCS) -> list[Doc]:
    return [d for _, d in docs if d["kind"] == kind]


def worker_deployments() -> list[Doc]:
    return [
        d
        for d in of_kind("Deployment")
        if d["metadata"]["labels"].get("app.kubernetes.io/component") == "worker"
    ]


def container(deployment: Doc) -> Doc:
    containers = deployment["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return dict(containers[0])


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def deployment_for(queue: str) -> Doc:
    [deployment] = [d for d in worker_deployments() if consumed(d) == {queue}]
    return deployment


def consumed(deployment: Doc) -> set[str]:
    return set(option(container(deployment)["command"], "--queues").split(","))


def concurrency(deployment: Doc) -> int:
    return int(option(container(deployment)["command"], "--concurrency"))


def env_of(c: Doc) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in c.get("env", [])}


# -- schemas -------------------------------------------------------------------------------


@pytest.mark.parametrize("item", [i for i in DOCS if i[1]["kind"] not in CUSTOM_KINDS], ids=doc_id)
def test_every_builtin_manifest_validates_offline(item: tuple[Path, Doc]) -> None:
    _, doc = item
    kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)


def test_the_offline_validator_rejects_a_misspelt_field() -> None:
    hpa = dict(of_kind("HorizontalPodAutoscaler")[0])
    hpa["spec"] = {**hpa["spec"], "maxReplica": 3}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(hpa, KUBERNETES_VERSION, strict=True)


def closed(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object schema that, like a strict schema, refuses unknown (misspelt) fields."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


STRING = {"type": "string"}
INT = {"type": "integer", "minimum": 0}
DURATION = {"type": "string", "pattern": r"^([0-9]+(ms|s|m|h|d|w|y))+$"}
STRING_MAP = {"type": "object", "additionalProperties": STRING}
SELECTOR = closed({"matchLabels": STRING_MAP}, ("matchLabels",))
METADATA = closed({"name": STRING, "namespace": STRING, "labels": STRING_MAP}, ("name",))


def custom_resource(group_version: str, kind: str, spec: dict[str, Any]) -> dict[str, Any]:
    return closed(
        {
            "apiVersion": {"const": group_version},
            "kind": {"const": kind},
            "metadata": METADATA,
            "spec": spec,
        },
        ("apiVersion", "kind", "metadata", "spec"),
    )


# The fields the operators read (KEDA 2.x keda.sh/v1alpha1; Prometheus Operator
# monitoring.coreos.com/v1), closed so a typo fails here rather than being ignored.
CUSTOM_SCHEMAS = {
    "ScaledObject": custom_resource(
        "keda.sh/v1alpha1",
        "ScaledObject",
        closed(
            {
                "scaleTargetRef": closed({"name": STRING, "kind": STRING}, ("name",)),
                "minReplicaCount": INT,
                "maxReplicaCount": INT,
                "pollingInterval": INT,
                "cooldownPeriod": INT,
                "fallback": closed(
                    {"failureThreshold": INT, "replicas": INT}, ("failureThreshold", "replicas")
                ),
                "advanced": closed(
                    {"horizontalPodAutoscalerConfig": closed({"behavior": {"type": "object"}})}
                ),
                "triggers": {
                    "type": "array",
                    "minItems": 1,
                    "items": closed(
                        {
                            "type": {"enum": ["prometheus"]},
                            "metricType": {"enum": ["AverageValue", "Value"]},
                            "metadata": closed(
                                {
                                    "serverAddress": {"type": "string", "pattern": "^https?://"},
                                    "query": STRING,
                                    "threshold": {"type": "string", "pattern": r"^[0-9.]+$"},
                                    "activationThreshold": {
                                        "type": "string",
                                        "pattern": r"^[0-9.]+$",
                                    },
                                    "ignoreNullValues": {"enum": ["true", "false"]},
                                },
                                ("serverAddress", "query", "threshold"),
                            ),
                        },
                        ("type", "metadata"),
                    ),
                },
            },
            ("scaleTargetRef", "triggers"),
        ),
    ),
    "PrometheusRule": custom_resource(
        "monitoring.coreos.com/v1",
        "PrometheusRule",
        closed(
            {
                "groups": {
                    "type": "array",
                    "items": closed(
                        {
                            "name": STRING,
                            "rules": {
                                "type": "array",
                                "minItems": 1,
                                "items": closed(
                                    {
                                        "alert": {"type": "string", "pattern": "^[A-Za-z]+$"},
                                        "expr": STRING,
                                        "for": DURATION,
                                        "labels": closed(
                                            {"severity": {"enum": ["page", "warning"]}},
                                            ("severity",),
                                        ),
                                        "annotations": STRING_MAP,
                                    },
                                    ("alert", "expr", "labels", "annotations"),
                                ),
                            },
                        },
                        ("name", "rules"),
                    ),
                }
            },
            ("groups",),
        ),
    ),
    "ServiceMonitor": custom_resource(
        "monitoring.coreos.com/v1",
        "ServiceMonitor",
        closed(
            {
                "selector": SELECTOR,
                "endpoints": {
                    "type": "array",
                    "items": closed(
                        {
                            "port": STRING,
                            "path": STRING,
                            "interval": DURATION,
                            "scrapeTimeout": DURATION,
                        },
                        ("port",),
                    ),
                },
            },
            ("selector", "endpoints"),
        ),
    ),
    "PodMonitor": custom_resource(
        "monitoring.coreos.com/v1",
        "PodMonitor",
        closed(
            {
                "selector": SELECTOR,
                "podMetricsEndpoints": {
                    "type": "array",
                    "items": closed(
                        {"port": STRING, "path": STRING, "interval": DURATION}, ("port",)
                    ),
                },
            },
            ("selector", "podMetricsEndpoints"),
        ),
    ),
}


@pytest.mark.parametrize("item", [i for i in DOCS if i[1]["kind"] in CUSTOM_KINDS], ids=doc_id)
def test_every_custom_resource_has_the_structure_its_operator_reads(
    item: tuple[Path, Doc],
) -> None:
    _, doc = item
    jsonschema.validate(doc, CUSTOM_SCHEMAS[doc["kind"]])
    behavior = doc["spec"].get("advanced", {}).get("horizontalPodAutoscalerConfig", {})
    if "behavior" in behavior:
        # KEDA passes this to the HPA it creates: validate it as an HPA's behavior.
        hpa = dict(of_kind("HorizontalPodAutoscaler")[0])
        hpa["spec"] = {**hpa["spec"], "behavior": behavior["behavior"]}
        kubernetes_validate.validate(hpa, KUBERNETES_VERSION, strict=True)


def test_promql_expressions_are_balanced() -> None:
    for expr in promql_expressions():
        depth = 0
        for ch in re.sub(r'"[^"]*"', "", expr):
            depth += {"(": 1, "{": 1, "[": 1, ")": -1, "}": -1, "]": -1}.get(ch, 0)
            assert depth >= 0, expr
        assert depth == 0, expr


# -- kustomize ------------------------------------------------------------------------------


def kustomizations() -> Iterator[tuple[Path, Doc]]:
    for path in sorted(K8S.rglob("kustomization.yaml")):
        yield path.parent, yaml.safe_load(path.read_text())


def test_every_manifest_is_in_a_kustomization_and_every_reference_exists() -> None:
    referenced: set[Path] = set()
    for base, kustomization in kustomizations():
        for resource in kustomization.get("resources", []):
            target = (base / resource).resolve()
            assert target.exists(), f"{base}: {resource}"
            referenced.add(target)
        for generator in kustomization.get("configMapGenerator", []):
            for name in [*generator.get("files", []), *generator.get("envs", [])]:
                assert (base / name).is_file(), f"{base}: {name}"
    standalone = {K8S / "secrets.example.yaml", K8S / "prometheus-adapter" / "adapter-rules.yaml"}
    for path in MANIFEST_FILES:
        assert path in referenced or path in standalone, f"{path} is not deployed by anything"


def test_redis_conf_copy_is_the_projects_redis_conf() -> None:
    copy = (K8S / "base" / "redis.conf").read_text()
    assert copy == (ROOT / "redis" / "redis.conf").read_text(), (
        "k8s/base/redis.conf differs from redis/redis.conf: cp redis/redis.conf k8s/base/"
    )


@pytest.mark.skipif(
    shutil.which("kubectl") is None, reason="kubectl (with kustomize) not installed"
)
@pytest.mark.parametrize("overlay", ["", "keda"])
def test_kustomize_builds_and_the_build_validates(overlay: str) -> None:
    out = subprocess.run(
        ["kubectl", "kustomize", str(K8S / overlay)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    built = [d for d in yaml.safe_load_all(out.stdout) if d]
    kinds = {d["kind"] for d in built}
    # The workers' HPAs come with the default overlay only (KEDA scales them otherwise); the
    # API's CPU-based HPA is in the base, so in both.
    worker_hpas = {
        d["metadata"]["name"]
        for d in built
        if d["kind"] == "HorizontalPodAutoscaler" and d["metadata"]["name"] != "lease-api"
    }
    assert bool(worker_hpas) == (overlay == "")
    assert "lease-api" in {d["metadata"]["name"] for d in built if d["kind"] == "Deployment"}
    assert ("ScaledObject" in kinds) == (overlay == "keda")
    for doc in built:
        assert doc["kind"] == "Namespace" or doc["metadata"]["namespace"] == "lease-parser"
        if doc["kind"] not in CUSTOM_KINDS:
            kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)


def test_every_pod_runs_the_one_image_kustomize_names_at_this_version() -> None:
    from importlib.metadata import version

    [base] = [k for path, k in kustomizations() if path == K8S / "base"]
    [image] = base["images"]
    assert image["name"] == "lease-parser"
    assert image["newTag"] == version("lease-parser")  # what `make image` tags
    for doc in of_kind("Deployment"):
        for c in doc["spec"]["template"]["spec"]["containers"]:
            assert c["image"] == "lease-parser", doc["metadata"]["name"]
    assert "lease-parser" not in {
        k.get("images", [{}])[0].get("name") for path, k in kustomizations() if path != K8S / "base"
    }


# -- one pool and one autoscaler per queue --------------------------------------------------


def test_every_queue_has_exactly_one_worker_deployment_consuming_only_it() -> None:
    pools = [consumed(d) for d in worker_deployments()]
    assert sorted(sorted(p) for p in pools) == sorted([q] for q in QUEUES)
    assert all(UNROUTED not in p for p in pools)


@pytest.mark.parametrize("queue", QUEUES)
def test_every_queue_has_an_hpa_and_a_scaled_object_on_its_own_depth(queue: str) -> None:
    name = deployment_for(queue)["metadata"]["name"]
    [hpa] = [
        h for h in of_kind("HorizontalPodAutoscaler") if h["spec"]["scaleTargetRef"]["name"] == name
    ]
    [metric] = hpa["spec"]["metrics"]
    assert metric["type"] == "External"
    assert metric["external"]["metric"]["name"] == "lease_queue_depth"
    assert metric["external"]["metric"]["selector"] == {"matchLabels": {"queue": queue}}
    [scaled] = [s for s in of_kind("ScaledObject") if s["spec"]["scaleTargetRef"]["name"] == name]
    [trigger] = scaled["spec"]["triggers"]
    assert re.search(rf'lease_queue_depth\{{[^}}]*queue="{queue}"', trigger["metadata"]["query"])


@pytest.mark.parametrize("queue", QUEUES)
def test_autoscalers_target_ten_messages_per_worker_process(queue: str) -> None:
    deployment = deployment_for(queue)
    target = 10 * concurrency(deployment)
    name = deployment["metadata"]["name"]
    [hpa] = [
        h for h in of_kind("HorizontalPodAutoscaler") if h["spec"]["scaleTargetRef"]["name"] == name
    ]
    assert hpa["spec"]["metrics"][0]["external"]["target"] == {
        "type": "AverageValue",
        "averageValue": str(target),
    }
    [scaled] = [s for s in of_kind("ScaledObject") if s["spec"]["scaleTargetRef"]["name"] == name]
    assert scaled["spec"]["triggers"][0]["metricType"] == "AverageValue"
    assert scaled["spec"]["triggers"][0]["metadata"]["threshold"] == str(target)
    assert scaled["spec"]["maxReplicaCount"] == hpa["spec"]["maxReplicas"]


def test_one_pool_stays_up_under_keda_to_restore_unacked_messages() -> None:
    minimums = {
        s["spec"]["scaleTargetRef"]["name"]: s["spec"]["minReplicaCount"]
        for s in of_kind("ScaledObject")
    }
    assert 0 in minimums.values()  # scale to zero is the point of the KEDA variant
    assert minimums[deployment_for("lease_normalization")["metadata"]["name"]] >= 1
    for scaled in of_kind("ScaledObject"):
        assert scaled["spec"]["triggers"][0]["metadata"]["ignoreNullValues"] == "false"


# -- worker pods ----------------------------------------------------------------------------


# A soft shutdown's cold phase: cancel the children, re-queue their messages, close.
COLD_SHUTDOWN_MARGIN = 45


@pytest.mark.parametrize("queue", QUEUES)
def test_grace_period_covers_the_soft_shutdown_not_the_hard_time_limit(queue: str) -> None:
    c = container(deployment_for(queue))
    env = env_of(c)
    settings = Settings(soft_shutdown_timeout=env.get("LEASE_SOFT_SHUTDOWN_TIMEOUT", 30.0))
    grace = deployment_for(queue)["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    # SIGTERM is the worker's soft shutdown (the command remaps it; an env override would
    # bring back the warm shutdown that waits out the hard limit).
    assert "REMAP_SIGTERM" not in env
    assert c["command"][:2] == ["lease-parser", "worker"]
    assert grace >= settings.soft_shutdown_timeout + COLD_SHUTDOWN_MARGIN
    # ... and a rollout no longer waits for the longest task.
    assert grace < settings.time_limits.ocr.hard


def quantity(value: str) -> float:
    """A Kubernetes quantity ("1536Mi", "250m", "2") as a number of bytes or cores."""
    units = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "k": 1e3, "M": 1e6, "G": 1e9}
    match = re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(value))
    assert match, value
    return float(match[1]) * units.get(match[2], 1)


OVERHEAD = 256 * 2**20  # the worker's main process (~100 MB) and one probe (~80 MB)


@pytest.mark.parametrize("queue", QUEUES)
def test_memory_limit_holds_every_child_at_its_recycling_threshold(queue: str) -> None:
    c = container(deployment_for(queue))
    per_child = int(env_of(c)["LEASE_WORKER_MAX_MEMORY_PER_CHILD"]) * 1024
    limit = quantity(c["resources"]["limits"]["memory"])
    assert limit >= concurrency(deployment_for(queue)) * per_child + OVERHEAD
    assert quantity(c["resources"]["requests"]["memory"]) <= limit


def test_ocr_is_the_hungriest_pool_and_normalization_the_cheapest() -> None:
    def per_process(queue: str, what: str) -> float:
        c = container(deployment_for(queue))
        return quantity(c["resources"]["requests"][what]) / concurrency(deployment_for(queue))

    for what in ("cpu", "memory"):
        assert (
            per_process("lease_ocr", what)
            > per_process("lease_extraction", what)
            > per_process("lease_normalization", what)
        )


@pytest.mark.parametrize("queue", QUEUES)
def test_probes_ping_this_pods_own_worker(queue: str) -> None:
    c = container(deployment_for(queue))
    node = option(c["command"], "--hostname")
    assert node == f"{queue}@%h"
    for probe in ("startupProbe", "livenessProbe"):
        command = c[probe]["exec"]["command"]
        assert command[:2] == ["lease-parser", "healthcheck"]
        assert option(command, "--worker") == node
        check_timeout = float(option(command, "--timeout")) if "--timeout" in command else 5.0
        assert c[probe]["timeoutSeconds"] > check_timeout
    assert c["readinessProbe"]["exec"]["command"] == ["lease-parser", "healthcheck"]


@pytest.mark.parametrize("queue", QUEUES)
def test_worker_profiles_in_config_are_what_the_cluster_runs(queue: str) -> None:
    profile = read_env_file(CONFIG / "workers" / f"{queue}.env")
    c = container(deployment_for(queue))
    assert profile["WORKER_QUEUES"] == option(c["command"], "--queues")
    assert int(profile["WORKER_CONCURRENCY"]) == concurrency(deployment_for(queue))
    env = env_of(c)
    for name in ("LEASE_WORKER_MAX_MEMORY_PER_CHILD", "OMP_THREAD_LIMIT"):
        assert env[name] == profile[name]


def test_worker_metrics_are_served_and_scraped() -> None:
    [monitor] = of_kind("PodMonitor")
    for deployment in worker_deployments():
        c = container(deployment)
        env = env_of(c)
        assert env["PROMETHEUS_MULTIPROC_DIR"] in {m["mountPath"] for m in c["volumeMounts"]}
        ports = {p["name"]: p["containerPort"] for p in c["ports"]}
        assert ports["metrics"] == int(env["LEASE_WORKER_METRICS_PORT"])
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert monitor["spec"]["selector"]["matchLabels"].items() <= labels.items()


# -- every container's command line is one the CLI accepts -----------------------------------


def containers_and_probes() -> Iterator[tuple[str, list[str]]]:
    for kind in ("Deployment", "StatefulSet"):
        for doc in of_kind(kind):
            for c in doc["spec"]["template"]["spec"]["containers"]:
                yield f"{doc['metadata']['name']}", c["command"]
                for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
                    if "exec" in c.get(probe, {}):
                        yield f"{doc['metadata']['name']} {probe}", c[probe]["exec"]["command"]


@pytest.mark.parametrize(
    ("where", "command"),
    [x for x in containers_and_probes() if x[1][0] == "lease-parser"],
    ids=lambda x: x if isinstance(x, str) else None,
)
def test_every_lease_parser_command_line_parses(where: str, command: list[str]) -> None:
    name, *args = command[1:]
    subcommand = cli.get_command(click.Context(cli), name)
    assert subcommand is not None, where
    subcommand.make_context(name, list(args))  # raises on an unknown option


def test_env_references_resolve_in_order_and_secrets_are_the_documented_ones() -> None:
    secrets = {
        s["metadata"]["name"]: set(s["stringData"]) for s in load(K8S / "secrets.example.yaml")
    }
    assert not of_kind("Secret", [(p, d) for p, d in DOCS if p.name != "secrets.example.yaml"])
    for kind in ("Deployment", "StatefulSet"):
        for doc in of_kind(kind):
            for c in doc["spec"]["template"]["spec"]["containers"]:
                defined: set[str] = set()
                for e in c.get("env", []):
                    for ref in re.findall(r"\$\((\w+)\)", e.get("value", "")):
                        assert ref in defined, f"{doc['metadata']['name']}: {e['name']} uses {ref}"
                    ref = e.get("valueFrom", {}).get("secretKeyRef")
                    if ref:
                        assert ref["key"] in secrets[ref["name"]]
                    defined.add(e["name"])
                for ref in re.findall(r"\$\((\w+)\)", " ".join(c["command"])):
                    assert ref in defined


def test_services_select_pods_and_name_their_ports() -> None:
    workloads = of_kind("Deployment") + of_kind("StatefulSet")
    for service in of_kind("Service"):
        selector = service["spec"]["selector"]
        [pod] = [
            w["spec"]["template"]
            for w in workloads
            if selector.items() <= w["spec"]["template"]["metadata"]["labels"].items()
        ]
        names = {p["name"] for c in pod["spec"]["containers"] for p in c.get("ports", [])}
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in names


# -- metrics named by autoscalers and alerts exist ------------------------------------------


def promql_expressions() -> list[str]:
    exprs = [
        r["expr"]
        for doc in of_kind("PrometheusRule")
        for g in doc["spec"]["groups"]
        for r in g["rules"]
    ]
    exprs += [
        t["metadata"]["query"] for doc in of_kind("ScaledObject") for t in doc["spec"]["triggers"]
    ]
    for cm in of_kind("ConfigMap"):
        adapter = yaml.safe_load(cm["data"]["config.yaml"])
        exprs += [rule["seriesQuery"] for rule in adapter["externalRules"]]
    return exprs


def test_every_metric_an_autoscaler_or_alert_names_exists_in_metrics_py() -> None:
    named = {
        m["external"]["metric"]["name"]
        for h in of_kind("HorizontalPodAutoscaler")
        for m in h["spec"]["metrics"]
        if m["type"] == "External"
    }
    for expr in promql_expressions():
        # Metric names only: label values ("lease_ocr") are quoted.
        named |= set(re.findall(r"\blease_[a-z0-9_]+", re.sub(r'"[^"]*"', "", expr)))
    assert named
    for name in named:
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        assert name in METRIC_NAMES or base in METRIC_NAMES, name


def test_the_adapter_serves_lease_queue_depth_per_namespace_without_double_counting() -> None:
    [cm] = of_kind("ConfigMap")
    [rule] = yaml.safe_load(cm["data"]["config.yaml"])["externalRules"]
    assert rule["name"]["as"] == "lease_queue_depth"
    assert rule["resources"]["overrides"]["namespace"] == {"resource": "namespace"}
    # Two exporter replicas report the same depth: max, never sum.
    assert rule["metricsQuery"].startswith("max(")
    assert "by (queue)" in rule["metricsQuery"]


def alerts() -> dict[str, Doc]:
    return {
        r["alert"]: r
        for doc in of_kind("PrometheusRule")
        for g in doc["spec"]["groups"]
        for r in g["rules"]
    }


def test_dead_letters_page_and_review_depth_and_queue_age_warn() -> None:
    rules = alerts()
    assert re.fullmatch(r"max\(lease_dead_letter_depth\) > 0", rules["LeaseDeadLetters"]["expr"])
    assert rules["LeaseDeadLetters"]["labels"]["severity"] == "page"
    assert "lease_review_depth" in rules["LeaseReviewBacklog"]["expr"]
    assert rules["LeaseReviewBacklog"]["labels"]["severity"] == "warning"
    assert "lease_oldest_message_age_seconds" in rules["LeaseQueueStale"]["expr"]
    assert rules["LeaseQueueStale"]["labels"]["severity"] == "warning"


def test_every_alert_has_a_runbook_in_the_operations_notes() -> None:
    notes = (ROOT / "docs" / "operations.md").read_text()
    for name, rule in alerts().items():
        assert rule["annotations"]["runbook"] == f"docs/operations.md#{name.lower()}"
        assert re.search(rf"^#+ {name}\b", notes, re.MULTILINE), (
            f"docs/operations.md has no runbook for {name}"
        )


# -- deployable configuration ---------------------------------------------------------------


def read_env_file(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out[key] = value
    return out


@pytest.mark.parametrize(
    "path",
    [CONFIG / "example.env", CONFIG / "production.env.example", K8S / "base" / "config.env"],
    ids=lambda p: p.name,
)
def test_every_env_file_makes_valid_settings(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    values = read_env_file(path)
    assert values
    for key, value in values.items():
        value = os.path.expandvars(value.replace("${", "$").replace("}", ""))
        monkeypatch.setenv(key, value)
    load_settings()  # raises ConfigurationError naming the bad value


# -- the broker -----------------------------------------------------------------------------


def test_redis_runs_the_projects_config_with_its_password_from_a_secret() -> None:
    [redis_set] = of_kind("StatefulSet")
    c = container(redis_set)
    assert c["command"][:2] == ["redis-server", "/etc/redis/redis.conf"]
    assert option(c["command"], "--requirepass") == "$(REDIS_PASSWORD)"
    assert env_of(c)["REDIS_PASSWORD"] == {
        "secretKeyRef": {"name": "lease-redis", "key": "password"}
    }
    volumes = {v["name"]: v for v in redis_set["spec"]["template"]["spec"]["volumes"]}
    assert volumes["config"]["configMap"]["name"] == "lease-redis-config"
    [claim] = redis_set["spec"]["volumeClaimTemplates"]
    assert {m["name"]: m["mountPath"] for m in c["volumeMounts"]}[claim["metadata"]["name"]] == (
        option(c["command"], "--dir")
    )


def test_redis_memory_limit_leaves_room_above_maxmemory() -> None:
    conf = (ROOT / "redis" / "redis.conf").read_text()
    match = re.search(r"^maxmemory (\d+)gb$", conf, re.MULTILINE)
    assert match
    maxmemory = int(match[1]) * 2**30
    [redis_set] = of_kind("StatefulSet")
    limit = quantity(container(redis_set)["resources"]["limits"]["memory"])
    # Client output buffers and the copy-on-write pages of an AOF rewrite's fork.
    assert limit >= 1.25 * maxmemory
