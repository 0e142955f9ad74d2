"""The HPAs' arithmetic against simulated queues, as the Kubernetes controller computes it.

For an External metric with an AverageValue target, the controller recommends
``ceil(metric / target)`` replicas (unless the usage ratio is within the 10 % tolerance of
the current count), clamps it to [minReplicas, maxReplicas], stabilises it over the
behavior windows (the highest recommendation of the last 300 s wins when scaling down)
and limits the rate of change by the behavior policies. This file replays that every 15 s
(the controller's default sync period) with the numbers in k8s/hpa.yaml.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.unit.test_k8s import K8S, load

SYNC_PERIOD = 15
TOLERANCE = 0.1
HPAS = {h["metadata"]["name"]: h for h in load(K8S / "hpa.yaml")}


def target_of(hpa: dict[str, Any]) -> float:
    return float(hpa["spec"]["metrics"][0]["external"]["target"]["averageValue"])


def recommend(current: int, depth: float, target: float) -> int:
    """Replicas for an External AverageValue metric (podautoscaler/replica_calculator.go)."""
    ratio = depth / (target * current)
    if abs(1.0 - ratio) <= TOLERANCE:
        return current
    return math.ceil(depth / target)


@dataclass
class Controller:
    """One HPA's state: replicas, past recommendations and past scale events."""

    hpa: dict[str, Any]
    replicas: int = 1
    recommendations: list[tuple[int, int]] = field(default_factory=list)
    events: list[tuple[int, int]] = field(default_factory=list)  # (time, replica change)

    @property
    def spec(self) -> dict[str, Any]:
        return dict(self.hpa["spec"])

    def _limit(self, direction: str, now: int) -> int:
        rules = self.spec["behavior"][direction]
        limits = []
        for policy in rules["policies"]:
            period = policy["periodSeconds"]
            changed = sum(
                d
                for t, d in self.events
                if t > now - period and (d > 0) == (direction == "scaleUp")
            )
            start = self.replicas - changed
            if direction == "scaleUp":
                limits.append(
                    start + policy["value"]
                    if policy["type"] == "Pods"
                    else math.ceil(start * (1 + policy["value"] / 100))
                )
            else:
                limits.append(
                    start - policy["value"]
                    if policy["type"] == "Pods"
                    else math.ceil(start * (1 - policy["value"] / 100))
                )
        # selectPolicy Max: the policy allowing the biggest change.
        assert rules["selectPolicy"] == "Max"
        return max(limits) if direction == "scaleUp" else min(limits)

    def step(self, now: int, depth: float) -> int:
        spec = self.spec
        wanted = recommend(self.replicas, depth, target_of(self.hpa))
        wanted = max(spec["minReplicas"], min(spec["maxReplicas"], wanted))
        self.recommendations.append((now, wanted))
        behavior = spec["behavior"]
        up_window = behavior["scaleUp"]["stabilizationWindowSeconds"]
        down_window = behavior["scaleDown"]["stabilizationWindowSeconds"]
        up = min(r for t, r in self.recommendations if t >= now - up_window)
        down = max(r for t, r in self.recommendations if t >= now - down_window)
        if self.replicas < up:
            new = min(up, self._limit("scaleUp", now))
        elif self.replicas > down:
            new = max(down, self._limit("scaleDown", now))
        else:
            new = self.replicas
        new = max(spec["minReplicas"], min(spec["maxReplicas"], new))
        if new != self.replicas:
            self.events.append((now, new - self.replicas))
            self.replicas = new
        return new


def run(hpa: dict[str, Any], depths: list[float], start: int = 1) -> list[int]:
    """Replica counts after each sync period, for a queue depth per period."""
    controller = Controller(hpa, replicas=start)
    return [controller.step(i * SYNC_PERIOD, depth) for i, depth in enumerate(depths)]


@pytest.mark.parametrize("name", sorted(HPAS))
@pytest.mark.parametrize("depth", [0, 10, 100, 10_000])
def test_steady_queue_depths_give_the_expected_pool_size(name: str, depth: int) -> None:
    hpa = HPAS[name]
    lo, hi = hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]
    settled = run(hpa, [depth] * 40)[-1]  # ten minutes: long enough for every window
    assert lo <= settled <= hi
    assert settled == max(lo, min(hi, math.ceil(depth / target_of(hpa))))


def test_the_numbers_for_the_ocr_pool() -> None:
    """Two processes per pod, ten messages each: 20 per pod."""
    hpa = HPAS["lease-ocr-worker"]
    assert [run(hpa, [d] * 40)[-1] for d in (0, 10, 100, 10_000)] == [1, 1, 5, 20]
    # Within tolerance the pool holds still: 5 pods for 105 messages (ratio 1.05).
    assert run(hpa, [105] * 8, start=5)[-1] == 5


@pytest.mark.parametrize("name", sorted(HPAS))
def test_a_burst_reaches_max_replicas_within_a_minute(name: str) -> None:
    hpa = HPAS[name]
    replicas = run(hpa, [10_000] * 5)
    assert replicas[0] > 1  # the first sync already scales up
    assert replicas[4] == hpa["spec"]["maxReplicas"]  # 60 s after the burst


@pytest.mark.parametrize("name", sorted(HPAS))
def test_scale_down_waits_five_minutes_then_drains_to_min(name: str) -> None:
    hpa = HPAS[name]
    peak = hpa["spec"]["maxReplicas"]
    busy, idle = [10_000] * 8, [0] * 60  # 2 minutes of burst, then 15 minutes of nothing
    replicas = run(hpa, busy + idle)
    after_burst = replicas[len(busy) :]
    held = 300 // SYNC_PERIOD
    assert after_burst[: held - 1] == [peak] * (held - 1)  # 5-minute stabilisation window
    assert after_burst[-1] == hpa["spec"]["minReplicas"]
    # Never more than half the pods removed in any minute.
    for i in range(len(after_burst) - 4):
        assert after_burst[i + 4] >= math.ceil(after_burst[i] / 2)


def test_a_flapping_queue_does_not_flap_the_pool() -> None:
    """Empty for a scrape or two between batches: the pool stays up."""
    hpa = HPAS["lease-ocr-worker"]
    replicas = run(hpa, ([400] * 3 + [0] * 2) * 10)
    settled = replicas[10:]
    assert min(settled) == max(settled) == 20
