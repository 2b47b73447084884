#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageManager {
    /// Applies `transformer`, sharing each prefix of a pipeline transformer with other requests on the same decode.
    func transform(_ image: Image, with transformer: any ImageTransformer, decode: DecodeKey) async -> Result<
        Image, ImageError
    > {
        let steps = (transformer as? PipelineTransformer)?.transformers ?? [transformer]
        var current = image
        var prefix: [String] = []
        let pool = cpuPool
        for step in steps {
            prefix.append(step.key)
            let input = current
            let result = await transformTasks.run(
                key: TransformKey(decode: decode, transformerKey: prefix.joined(separator: "-")),
                priority: .normal, coalesced: telemetry.coalescedTransform
            ) { [telemetry] _ in
                await telemetry.withSpan(ImageManager.TelemetryNames.transformSpan) { span in
                    span.attributes[ImageManager.TelemetryNames.transformerKey] = step.key
                    let result = await pool.cancellableResult { () throws(ImageError) -> Image in
                        try step.transform(input)
                    }
                    if case .failure(let error) = result { span.record(error) }
                    return result
                }
            }
            switch result {
            case .success(let output): current = output
            case .failure(let error): return .failure(error)
            }
        }
        return .success(
            current.flags.contains(.transformed) ? current : current.with(flags: current.flags.union(.transformed)))
    }
}
