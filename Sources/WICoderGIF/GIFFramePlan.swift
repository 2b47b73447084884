import WICore

/// What the encoder writes for each frame, planned in Swift before giflib sees it: the smallest rectangle that
/// changes, the disposal that lets the next frame become transparent where it must, and palette indices.
///
/// GIF transparency is binary: alpha under 128 is transparent. Frames are compared in their exact (pre-palette)
/// colours. A frame draws only its changed rectangle; inside it, pixels that stay as they are use the transparent
/// index (which also compresses well). When the next frame turns pixels transparent that this frame shows, this
/// frame's rectangle grows to cover them and it is disposed to background (cleared) instead of kept.
struct GIFFramePlan {
    var x: Int, y: Int, width: Int, height: Int
    /// 1 (keep) or 2 (clear the rectangle to transparent).
    var disposal: Int
    /// Colours (0xAABBGGRR in memory order, alpha 255) of the drawn pixels, in rectangle order; `drawn` marks them.
    var colors: [UInt32]
    /// For each pixel of the rectangle, whether it is drawn (else it takes the transparent index).
    var drawn: [Bool]
    var delayCentiseconds: Int

    /// Canvas pixels as UInt32 in memory order with binary alpha: 0 for transparent, alpha forced to 255 otherwise.
    static func binaryPixels(_ buffer: PixelBuffer) -> [UInt32] {
        let bytes = buffer.packedBytes()
        return (0..<(buffer.width * buffer.height)).map { i in
            let p = i * 4
            guard bytes[p + 3] >= 128 else { return 0 }
            return UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | 0xFF00_0000
        }
    }

    /// Plans every frame of `frames` (binary pixels of a `width` x `height` canvas) with their durations.
    static func plan(_ frames: [[UInt32]], durations: [Double], width: Int, height: Int) -> [GIFFramePlan] {
        var base = [UInt32](repeating: 0, count: width * height)  // what the decoder shows before each frame
        var plans: [GIFFramePlan] = []
        for (index, target) in frames.enumerated() {
            var box = Box()
            for p in 0..<target.count where target[p] != base[p] { box.add(p % width, p / width) }
            var clear = Box()
            if index + 1 < frames.count {
                let next = frames[index + 1]
                for p in 0..<target.count where next[p] == 0 && target[p] != 0 { clear.add(p % width, p / width) }
            }
            box.add(clear)
            if box.isEmpty { box.add(0, 0) }  // a GIF frame has at least one pixel
            var colors: [UInt32] = []
            var drawn: [Bool] = []
            colors.reserveCapacity(box.width * box.height)
            drawn.reserveCapacity(box.width * box.height)
            for row in box.minY...box.maxY {
                for column in box.minX...box.maxX {
                    let p = row * width + column
                    let draw = target[p] != 0 && target[p] != base[p]
                    drawn.append(draw)
                    if draw { colors.append(target[p]) }
                }
            }
            let disposal = clear.isEmpty ? 1 : 2
            plans.append(
                GIFFramePlan(
                    x: box.minX, y: box.minY, width: box.width, height: box.height, disposal: disposal,
                    colors: colors, drawn: drawn,
                    delayCentiseconds: Swift.min(65535, Int((durations[index] * 100).rounded()))))
            base = target
            if disposal == 2 {
                for row in box.minY...box.maxY { for column in box.minX...box.maxX { base[row * width + column] = 0 } }
            }
        }
        return plans
    }

    /// A bounding box of pixels.
    struct Box {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        var isEmpty: Bool { maxX < 0 }
        var width: Int { maxX - minX + 1 }
        var height: Int { maxY - minY + 1 }

        mutating func add(_ x: Int, _ y: Int) {
            minX = Swift.min(minX, x)
            maxX = Swift.max(maxX, x)
            minY = Swift.min(minY, y)
            maxY = Swift.max(maxY, y)
        }

        mutating func add(_ other: Box) {
            guard !other.isEmpty else { return }
            add(other.minX, other.minY)
            add(other.maxX, other.maxY)
        }
    }
}
