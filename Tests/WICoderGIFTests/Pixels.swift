import WICore

/// Frames written as letters, row by row ("RRG./B..W"): R red, G green, B blue, W white, K black, . transparent.
enum Pixels {
    static func letters(_ buffer: PixelBuffer) -> String {
        (0..<buffer.height).map { y in
            String(
                (0..<buffer.width).map { x -> Character in
                    let c = buffer.color(x: x, y: y)
                    switch (c.red, c.green, c.blue, c.alpha) {
                    case (_, _, _, 0): return "."
                    case (255, 0, 0, 255): return "R"
                    case (0, 255, 0, 255): return "G"
                    case (0, 0, 255, 255): return "B"
                    case (255, 255, 255, 255): return "W"
                    case (0, 0, 0, 255): return "K"
                    default: return "?"
                    }
                })
        }.joined(separator: "/")
    }
}
