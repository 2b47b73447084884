@testable import WIServeCore

/// The filter types, short (`F.Quality(80)`).
typealias F = ThumborFilters

/// Two filter lists are equal when each filter is of the same type with the same arguments.
func == (lhs: [any ThumborFilter], rhs: [any ThumborFilter]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.isEqual(to: $1) }
}
