"""RPC metrics: counted in plain numbers, exported as Prometheus families at scrape time."""

from prometheus_client import CollectorRegistry, generate_latest

from services.core.metrics import LATENCY_BUCKETS, RpcCollector


def _scrape(collector: RpcCollector) -> dict[str, float]:
    registry = CollectorRegistry()
    registry.register(collector)
    samples = {}
    for line in generate_latest(registry).decode().splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


def test_rpcs_by_code_and_latency_buckets_are_cumulative():
    collector = RpcCollector()
    apply = collector.stats_for("game", "Apply")
    assert collector.stats_for("game", "Apply") is apply
    apply.record("OK", 0.0004)
    apply.record("OK", LATENCY_BUCKETS[3])  # on a bound: counted as at most that bound
    apply.record("ABORTED", 0.003)
    apply.record("OK", 9.0)  # above every bound: only in +Inf
    samples = _scrape(collector)
    labels = 'method="Apply",service="game"'
    assert samples[f'roost_rpcs_total{{code="OK",{labels}}}'] == 3
    assert samples[f'roost_rpcs_total{{code="ABORTED",{labels}}}'] == 1
    bucket = "roost_rpc_latency_seconds_bucket"
    assert samples[f'{bucket}{{le="0.0005",{labels}}}'] == 1
    assert samples[f'{bucket}{{le="0.002",{labels}}}'] == 1
    assert samples[f'{bucket}{{le="0.005",{labels}}}'] == 3
    assert samples[f'{bucket}{{le="2.5",{labels}}}'] == 3
    assert samples[f'{bucket}{{le="+Inf",{labels}}}'] == 4
    assert samples[f"roost_rpc_latency_seconds_count{{{labels}}}"] == 4
    assert abs(samples[f"roost_rpc_latency_seconds_sum{{{labels}}}"] - 9.0084) < 1e-9


def test_a_method_never_called_exports_no_histogram():
    collector = RpcCollector()
    collector.stats_for("game", "Watch")
    assert not any("Watch" in name for name in _scrape(collector))
