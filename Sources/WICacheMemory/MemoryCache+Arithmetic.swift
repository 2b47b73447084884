extension MemoryCache {
    /// Shard `index`'s share of `limit`: equal parts, the remainder going to the first shards, so the shares sum
    /// to `limit` exactly.
    static func share(of limit: Int, shard index: Int, of shardCount: Int) -> Int {
        limit / shardCount + (index < limit % shardCount ? 1 : 0)
    }

    /// The largest admitted entry cost for a cost limit.
    static func maxEntryCost(costLimit: Int, ratio: Double) -> Int {
        let bound = Double(costLimit) * ratio
        return bound >= Double(Int.max) ? .max : Int(max(0, bound))
    }

    /// A duration in nanoseconds, saturating at `Int64.max`.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return adding(attoseconds / 1_000_000_000, to: scaled)
    }

    /// `time + offset`, saturating.
    static func adding(_ offset: Int64, to time: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(offset)
        return overflow ? (offset > 0 ? .max : .min) : sum
    }
}
