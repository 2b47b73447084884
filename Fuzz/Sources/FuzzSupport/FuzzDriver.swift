import Foundation
/// libFuzzer's driver, entered from the target's own main: SwiftPM links every executable with `main` aliased to the
/// module's entry point, so libFuzzer's `main` is never used and each target calls `LLVMFuzzerRunDriver` instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

extension FuzzInput {
    /// Runs libFuzzer with this process's arguments, calling `testOneInput` with each input (bytes and count; the
    /// callback returns 0), and exits with libFuzzer's status.
    public static func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }
}
