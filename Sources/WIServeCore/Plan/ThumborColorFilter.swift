import WICore
import WITransform

/// thumbor's colour filters as WITransform's transformers: `brightness`, `contrast`, `rgb`, `colorize` and `curve`
/// are `ToneTablesTransformer`s, `saturation` a `SaturationTransformer`, `grayscale` a `GrayscaleTransformer`,
/// each with thumbor 7.8's arithmetic (checked byte for byte: Tests/Fixtures/serve-color).
enum ThumborColorFilter {
    /// The transformer of colour filter `filter`, or nil when it is not one.
    static func transformer(for filter: ThumborFilter) throws(ImageError) -> (any ImageTransformer)? {
        switch filter {
        case .brightness(let amount): try ToneTablesTransformer.brightness(amount)
        case .contrast(let amount): try ToneTablesTransformer.contrast(amount)
        case .rgb(let red, let green, let blue): try ToneTablesTransformer.channelOffsets(red: red, green: green, blue: blue)
        case .colorize(let red, let green, let blue, let fill):
            try ToneTablesTransformer.colorize(red: red, green: green, blue: blue, toward: fill)
        case .curve(let all, let red, let green, let blue):
            try ToneTablesTransformer.toneCurves(all: all.map { ($0.x, $0.y) }, red: red.map { ($0.x, $0.y) },
                                                 green: green.map { ($0.x, $0.y) }, blue: blue.map { ($0.x, $0.y) })
        case .saturation(let change): try SaturationTransformer(change: change)
        case .grayscale: GrayscaleTransformer()
        default: nil
        }
    }
}
