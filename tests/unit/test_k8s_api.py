"""The manifests of `lease-parser serve` (k8s/base/api.yaml), checked offline beside the rest
(tests/unit/test_k8s.py validates every manifest and the kustomize build): non-root and
read-only, probes on the routes the app really serves without a token, a Service, an
Ingress with TLS, a NetworkPolicy that admits only the ingress controller and lets the
pods reach only Redis, the store, DNS and the object store, and a CPU autoscaler."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from lease_parser.settings import load_settings
from lease_parser.web.middleware import ENVELOPE_BYTES
from tests.unit.test_k8s import K8S, container, env_of, load, option

Doc = dict[str, Any]
API = load(K8S / "base" / "api.yaml")


def one(kind: str) -> Doc:
    [doc] = [d for d in API if d["kind"] == kind]
    return doc


def api_container() -> Doc:
    return container(one("Deployment"))


def test_the_api_runs_serve_as_a_non_root_user_on_a_read_only_root() -> None:
    pod = one("Deployment")["spec"]["template"]["spec"]
    c = api_container()
    assert c["command"][:2] == ["lease-parser", "serve"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert pod["automountServiceAccountToken"] is False
    assert c["securityContext"] == {
        "allowPrivilegeEscalation": False,
        "readOnlyRootFilesystem": True,
        "capabilities": {"drop": ["ALL"]},
    }
    # Nothing is written under the data directory: the session key comes from a Secret
    # (otherwise serve would write web-session.key there) and the store is PostgreSQL.
    env = env_of(c)
    assert env["LEASE_WEB_SESSION_SECRET"]["secretKeyRef"]["name"] == "lease-web"
    assert env["LEASE_STORE_URL"]["secretKeyRef"]["name"] == "lease-store"
    assert env["LEASE_WEB_COOKIE_SECURE"] == "true"
    assert {m["mountPath"] for m in c["volumeMounts"]} == {"/tmp"}


def get(app: FastAPI, path: str) -> httpx.Response:
    """One request to the app in this process (ASGI, no server, no network)."""

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://pod") as client:
            return await client.get(path)

    return asyncio.run(send())


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    from lease_parser.web import create_app

    settings = load_settings(
        data_dir=tmp_path_factory.mktemp("api"),
        api_tokens="ingest:ingest-token-0123456789abcdef:ingest",
        broker_url="redis://127.0.0.1:1/0",  # nothing listens: readiness must say so
        result_backend="redis://127.0.0.1:1/1",
    )
    return create_app(settings)


def test_probes_use_the_routes_the_app_serves_without_a_token(app: FastAPI) -> None:
    c = api_container()
    port = int(option(c["command"], "--port"))
    [declared] = c["ports"]
    assert declared["containerPort"] == port
    assert c["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": declared["name"]}
    assert c["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": declared["name"]}
    assert c["startupProbe"]["httpGet"]["path"] == "/healthz"
    assert get(app, "/healthz").status_code == 200  # no token
    not_ready = get(app, "/readyz")  # answered without a token: 503, not 401
    assert (not_ready.status_code, not_ready.json()["checks"]["broker"]) == (503, "unreachable")
    assert get(app, "/v1/documents").status_code == 401


def test_the_service_and_the_ingress_with_tls_reach_the_pods() -> None:
    service, ingress = one("Service"), one("Ingress")
    labels = one("Deployment")["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    [tls] = ingress["spec"]["tls"]
    [rule] = ingress["spec"]["rules"]
    assert rule["host"] in tls["hosts"]
    assert tls["secretName"]
    [path] = rule["http"]["paths"]
    backend = path["backend"]["service"]
    assert backend["name"] == service["metadata"]["name"]
    assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
    # The controller must not refuse a body the API accepts (nor buffer it first).
    annotations = ingress["metadata"]["annotations"]
    limit = int(annotations["nginx.ingress.kubernetes.io/proxy-body-size"].removesuffix("m"))
    assert limit * 1024 * 1024 >= load_settings().max_document_bytes + ENVELOPE_BYTES
    assert annotations["nginx.ingress.kubernetes.io/proxy-request-buffering"] == "off"


def test_the_network_policy_admits_the_ingress_and_reaches_only_redis_and_the_store() -> None:
    policy = one("NetworkPolicy")["spec"]
    labels = one("Deployment")["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= labels.items()
    assert set(policy["policyTypes"]) == {"Ingress", "Egress"}
    [admitted] = policy["ingress"]
    [source] = admitted["from"]
    assert source["namespaceSelector"]["matchLabels"] == {
        "kubernetes.io/metadata.name": "ingress-nginx"
    }
    assert [p["port"] for p in admitted["ports"]] == [api_container()["ports"][0]["containerPort"]]
    ports = sorted({p["port"] for rule in policy["egress"] for p in rule["ports"]})
    assert ports == [53, 443, 5432, 6379]  # DNS, the object store, the store, Redis
    [redis_rule] = [r for r in policy["egress"] if r["ports"][0]["port"] == 6379]
    [broker] = [d for d in load(K8S / "base" / "redis.yaml") if d["kind"] == "StatefulSet"]
    redis = broker["spec"]["template"]["metadata"]["labels"]
    assert redis_rule["to"][0]["podSelector"]["matchLabels"].items() <= redis.items()


def test_the_api_scales_on_cpu_and_keeps_two_pods() -> None:
    hpa, budget = one("HorizontalPodAutoscaler")["spec"], one("PodDisruptionBudget")["spec"]
    assert hpa["scaleTargetRef"]["name"] == one("Deployment")["metadata"]["name"]
    assert hpa["minReplicas"] >= 2
    [metric] = hpa["metrics"]
    assert metric["resource"]["name"] == "cpu"
    assert budget["minAvailable"] == 1
    assert one("Deployment")["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_the_deploy_notes_cover_serve() -> None:
    notes = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    for needed in ("lease-api", "/readyz", "LEASE_API_TOKENS", "lease-web", "sessions revoke"):
        assert needed in notes, needed
