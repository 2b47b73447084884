/// The two eviction policies of a shard.
extension ShardState {
    /// CLOCK (second chance). Entries queue in insertion order; a hit only sets the entry's reference bit. To make
    /// room, the entry at the front of the queue is looked at: unreferenced (or expired), it is evicted;
    /// referenced, its bit is cleared and it goes to the back of the queue. Replacing an entry's image keeps its
    /// place and counts as a hit.
    mutating func evictClock(toCost targetCost: Int, count targetCount: Int, now: () -> Int64) {
        while cost > targetCost || count > targetCount {
            let front = pool.lists[0].head
            if pool[front].referenced && !isExpired(front, now: now) {
                pool[front].referenced = false
                pool.moveToTail(front, of: 0)
            } else {
                evictNode(front, now: now)
            }
        }
    }

    /// W-TinyLFU. New entries enter a window LRU (1% of the limits). When the window overflows, its least recent
    /// entry becomes a candidate for the main region: if the shard is full, the candidate duels the main region's
    /// victim (the least recent probation entry, else the least recent protected one) and only a candidate seen
    /// more often (per the frequency sketch) wins; the loser is evicted. A hit on a probation entry promotes it to
    /// the protected segment (80% of the main region), whose overflow falls back to probation.
    mutating func evictTinyLFU(toCost targetCost: Int, count targetCount: Int, now: () -> Int64) {
        while cost > targetCost || count > targetCount {
            let window = pool.lists[0]
            let probation = pool.lists[1].head
            let victim = probation >= 0 ? probation : pool.lists[2].head
            guard victim >= 0 else {
                evictNode(window.head, now: now)   // the main region is empty: plain LRU on the window
                continue
            }
            guard window.count > 0, window.count > windowCaps.count || window.cost > windowCaps.cost else {
                evictNode(victim, now: now)
                continue
            }
            let candidate = window.head
            if !isExpired(candidate, now: now), isExpired(victim, now: now)
                || frequency(of: candidate) > frequency(of: victim)
            {
                evictNode(victim, now: now)
                pool.moveToTail(candidate, of: 1)
            } else {
                evictNode(candidate, now: now)
            }
        }
        // Below the limits: the window's overflow joins probation without a duel.
        while pool.lists[0].count > 0,
              pool.lists[0].count > windowCaps.count || pool.lists[0].cost > windowCaps.cost
        {
            pool.moveToTail(pool.lists[0].head, of: 1)
        }
    }

    private func frequency(of index: Int32) -> Int {
        sketch?.frequency(pool[index].key.hash) ?? 0
    }
}
