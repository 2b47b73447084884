import CoreMetrics
import Metrics
import Prometheus
import Synchronization

/// The service's Prometheus registry: the library's pinned metrics (the manager and cache report into its
/// factory) plus `webimage_serve_requests_total{status}` and `webimage_serve_request_duration_seconds{status}`.
///
/// Thread safety: the registry and the metric objects are thread-safe; the per-status map is in a `Mutex`.
package final class ServeMetrics: Sendable {
    static let requests = "webimage_serve_requests_total"
    static let duration = "webimage_serve_request_duration_seconds"

    package let registry: PrometheusCollectorRegistry
    package let factory: PrometheusMetricsFactory
    private let byStatus = Mutex<[Int: (CoreMetrics.Counter, Metrics.Timer)]>([:])

    package init() {
        registry = PrometheusCollectorRegistry()
        factory = PrometheusMetricsFactory(registry: registry)
    }

    /// Counts one answered request with its status and time.
    package func record(status: Int, duration: Duration) {
        let (counter, timer) = metrics(status: status)
        counter.increment()
        timer.record(duration: duration)
    }

    /// The request counter of `status`, to keep and increment without a lookup (refusals).
    package func requestCounter(status: Int) -> CoreMetrics.Counter { metrics(status: status).0 }

    private func metrics(status: Int) -> (CoreMetrics.Counter, Metrics.Timer) {
        byStatus.withLock { map in
            if let pair = map[status] { return pair }
            let dimensions = [("status", String(status))]
            let pair = (
                CoreMetrics.Counter(label: Self.requests, dimensions: dimensions, factory: factory),
                Metrics.Timer(label: Self.duration, dimensions: dimensions, factory: factory)
            )
            map[status] = pair
            return pair
        }
    }

    /// The registry in Prometheus text format.
    package func exposition() -> [UInt8] { registry.emitToBuffer() }
}
