import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage
import WIIsolation

/// `wi decode-worker`: the sandboxed decode process `wi serve --isolate` starts (not for people: hidden from
/// `wi --help`). It decodes what the service sends on descriptor 3 until the service closes it.
struct DecodeWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-worker", abstract: "Decode for wi serve in a sandbox (started by wi serve).",
        shouldDisplay: false)

    @Option(help: "The resolution of SVG lengths in inches, points, millimetres (wi serve's --svg-dpi).")
    var svgDpi = 96.0

    func run() throws {
        let coders = WebImage.makeCoders()
        coders.addCoder(SVGCoder(dpi: svgDpi))
        let status = DecodeWorker.run(coders: coders)
        throw ExitCode(status)
    }
}
