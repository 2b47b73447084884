/// What one look at the kernel's memory accounting found, and the level it means.
struct PressureReading: Equatable {
    /// PSI `some avg10`: the share (percent) of the last 10 s in which some task stalled on memory.
    var someAverage10: Double = 0
    /// PSI `full avg10`: the share (percent) of the last 10 s in which every non-idle task stalled on memory.
    var fullAverage10: Double = 0
    /// cgroup v2 `memory.events`: times the cgroup went over `memory.high`, hit `memory.max`, or had an OOM kill.
    var high = 0
    var max = 0
    var oom = 0

    /// Parses `/proc/pressure/memory` (or a cgroup's `memory.pressure`):
    /// `some avg10=1.23 avg60=... total=...` and `full avg10=...` lines.
    static func parsePSI(_ text: String) -> PressureReading? {
        var reading = PressureReading()
        var found = false
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let kind = fields.first, let field = fields.first(where: { $0.hasPrefix("avg10=") }),
                let value = Double(field.dropFirst("avg10=".count))
            else { continue }
            if kind == "some" {
                reading.someAverage10 = value
                found = true
            }
            if kind == "full" {
                reading.fullAverage10 = value
                found = true
            }
        }
        return found ? reading : nil
    }

    /// Parses a cgroup v2 `memory.events` file (`low N`, `high N`, `max N`, `oom N`, `oom_kill N` lines).
    static func parseEvents(_ text: String) -> PressureReading? {
        var reading = PressureReading()
        var found = false
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let value = Int(fields[1]) else { continue }
            switch fields[0] {
            case "high":
                reading.high = value
                found = true
            case "max":
                reading.max = value
                found = true
            case "oom":
                reading.oom = value
                found = true
            default: break
            }
        }
        return found ? reading : nil
    }
}

/// Turns successive readings into "pressure rose" events: a level is computed per reading and reported only when
/// it is above the previous reading's level.
struct PressureTracker {
    /// PSI `some avg10` at or above this (percent) means `.warning`.
    var warningSome: Double
    /// PSI `full avg10` at or above this (percent) means `.critical`.
    var criticalFull: Double
    private var previous: PressureReading?
    private var previousLevel = 0

    init(warningSome: Double, criticalFull: Double) {
        self.warningSome = warningSome
        self.criticalFull = criticalFull
    }

    /// The level to report for `reading`, or nil when pressure did not rise.
    mutating func update(_ reading: PressureReading) -> MemoryPressureLevel? {
        var level = 0
        if reading.fullAverage10 >= criticalFull {
            level = 2
        } else if reading.someAverage10 >= warningSome {
            level = 1
        }
        if let previous {  // cgroup events: counters that moved since the last reading
            if reading.max > previous.max || reading.oom > previous.oom {
                level = 2
            } else if reading.high > previous.high {
                level = Swift.max(level, 1)
            }
        }
        defer {
            previous = reading
            previousLevel = level
        }
        return level > previousLevel ? MemoryPressureLevel(rawValue: level) : nil
    }
}
