/// The two eviction policies of a shard.
extension ShardState {
    /// CLOCK (second chance). Entries queue in insertion order; a hit only sets the entry's reference bit. To make
    /// room, the entry at the front of the queue is looked at: unreferenced (or expired), it is evicted;
    /// referenced, its bit is cleared and it goes to the back of the queue. Replacing an entry's image keeps its
    /// place and counts as a hit.
    mutating func evictClock(toCost targetCost: Int, count targetCount: Int, now: () -> Int64) {
        while cost > targetCost || count > targetCount {
            let front = pool.lists[0].head
            if pool.isReferenced(front) && !isExpired(front, now: now) {
                pool.clearReferenced(front)
                pool.moveToTail(front, of: 0)
            } else {
                evictNode(front, now: now)
            }
        }
    }

    /// W-TinyLFU. New entries enter a window (1% of the limits). When the window overflows, its oldest entry becomes
    /// a candidate for the main region: if the shard is full, the candidate duels the main region's victim (the
    /// oldest probation entry, else the oldest protected one) and only a candidate seen more often (per the
    /// frequency sketch) wins; the loser is evicted. The main region is split into probation and protected (80%).
    ///
    /// Recency is kept CLOCK-style in each of the three queues, so a hit moves nothing: an entry reaching the front
    /// of its queue with its reference bit set (hit since it got there) has the bit cleared and is sent on instead
    /// of being chosen. In the window and in protected it goes to the back of its queue; in probation it is
    /// promoted to protected, whose oldest unreferenced entries fall back to probation when it overflows.
    mutating func evictTinyLFU(toCost targetCost: Int, count targetCount: Int, now: () -> Int64) {
        while cost > targetCost || count > targetCount {
            let victim = mainVictim(now: now)
            guard victim >= 0 else {
                evictNode(pool.lists[0].head, now: now)  // the main region is empty: the window alone
                continue
            }
            guard windowOverflows else {
                evictNode(victim, now: now)
                continue
            }
            let candidate = windowCandidate(now: now)
            if !isExpired(candidate, now: now),
                isExpired(victim, now: now)
                    || frequency(of: candidate) > frequency(of: victim)
            {
                evictNode(victim, now: now)
                pool.moveToTail(candidate, of: 1)
            } else {
                evictNode(candidate, now: now)
            }
        }
        // Below the limits: the window's overflow joins probation without a duel.
        while windowOverflows { pool.moveToTail(windowCandidate(now: now), of: 1) }
    }

    private var windowOverflows: Bool {
        let window = pool.lists[0]
        return window.count > 0 && (window.count > windowCaps.count || window.cost > windowCaps.cost)
    }

    /// Whether `index` gets a second chance: referenced since it reached the front and not expired. Clears the bit.
    private mutating func takeSecondChance(_ index: Int32, now: () -> Int64) -> Bool {
        guard pool.isReferenced(index) else { return false }
        pool.clearReferenced(index)
        return !isExpired(index, now: now)
    }

    /// The window's oldest entry without a second chance (referenced ones go to the back of the window).
    private mutating func windowCandidate(now: () -> Int64) -> Int32 {
        while true {
            let head = pool.lists[0].head
            guard takeSecondChance(head, now: now) else { return head }
            pool.moveToTail(head, of: 0)
        }
    }

    /// The main region's victim: the oldest probation entry without a second chance (referenced ones are promoted
    /// to protected), else the oldest protected one (referenced ones go to its back); -1 when the region is empty.
    private mutating func mainVictim(now: () -> Int64) -> Int32 {
        while true {
            let probation = pool.lists[1].head
            if probation >= 0 {
                guard takeSecondChance(probation, now: now) else { return probation }
                promote(probation, now: now)
                continue
            }
            let protected = pool.lists[2].head
            guard protected >= 0 else { return -1 }
            guard takeSecondChance(protected, now: now) else { return protected }
            pool.moveToTail(protected, of: 2)
        }
    }

    /// Moves a probation entry to protected; protected's overflow (its oldest entries without a second chance)
    /// falls back to probation.
    private mutating func promote(_ index: Int32, now: () -> Int64) {
        pool.moveToTail(index, of: 2)
        while pool.lists[2].count > 1,
            pool.lists[2].count > protectedCaps.count || pool.lists[2].cost > protectedCaps.cost
        {
            let head = pool.lists[2].head
            if takeSecondChance(head, now: now) {
                pool.moveToTail(head, of: 2)
            } else {
                pool.moveToTail(head, of: 1)
            }
        }
    }

    private mutating func frequency(of index: Int32) -> Int {
        sketch?.frequency(pool[index].hash) ?? 0
    }
}
