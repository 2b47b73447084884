import FuzzSupport
@_spi(Fuzzing) import WILoaderCurl

// Fuzzes the data: URL parser (inputs as UTF-8 text).
FuzzInput.runFuzzer { bytes, count in
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count), as: UTF8.self)
    _ = DataURLParser.parse("data:" + text)
    _ = DataURLParser.parse(text)
    return 0
}
