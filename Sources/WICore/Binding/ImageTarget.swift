#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Anything that shows one image at a time: a widget, a tile, a table cell (SDWebImage's `UIImageView` category,
/// for any object). Conform, then call `setImage(with:...)`.
///
/// ```swift
/// final class Tile: ImageTarget {
///     var shown: Image?
///     func display(_ image: Image?) { shown = image }
/// }
/// tile.setImage(with: url, placeholder: grey, manager: manager)
/// ```
///
/// Thread safety: main-actor isolated, like the UI objects it stands for.
@MainActor
public protocol ImageTarget: AnyObject {
    /// Shows `image`; nil clears what is shown.
    func display(_ image: Image?)
}

/// The loads targets are running, by target and operation key.
@MainActor
enum ImageTargetLoads {
    struct Entry {
        weak var target: AnyObject?
        var token: ImageManager.RequestToken
    }

    static var running: [ObjectIdentifier: [String: Entry]] = [:]

    static func replace(_ target: AnyObject, key: String, with token: ImageManager.RequestToken?) {
        let id = ObjectIdentifier(target)
        running[id]?[key]?.token.cancel()
        running[id, default: [:]][key] = token.map { Entry(target: target, token: $0) }
        // Forget entries of targets that are gone.
        running = running.filter { !$0.value.values.allSatisfy { $0.target == nil } }
    }

    static func isCurrent(_ target: AnyObject, key: String, token: ImageManager.RequestToken) -> Bool {
        running[ObjectIdentifier(target)]?[key]?.token === token
    }

    static func finish(_ target: AnyObject, key: String, token: ImageManager.RequestToken) {
        guard isCurrent(target, key: key, token: token) else { return }
        running[ObjectIdentifier(target)]?[key] = nil
    }
}

extension ImageTarget {
    /// Loads `url` for this target: cancels the target's previous load with the same operation key
    /// (`context[.operationKey]`, default the target's type name; the options processor sees it in the context),
    /// shows `placeholder` at once (unless `.delayPlaceholder`: then only if the load fails, not when it is
    /// cancelled), and shows the result (unless `.avoidAutoSetImage`). `completed` runs on the main actor exactly
    /// once, with 2002 when the load was cancelled (`cancelImageLoad`, or a newer load for the same key); it comes
    /// before `progress` so that a trailing closure is the completion.
    @discardableResult
    public func setImage(
        with url: URL?, placeholder: Image? = nil, options: ImageOptions = [], context: ImageContext = .init(),
        manager: ImageManager, completed: (@MainActor (Result<ImageResult, ImageError>) -> Void)? = nil,
        progress: (@Sendable (ImageLoading.Progress) -> Void)? = nil
    ) -> ImageManager.RequestToken {
        let key = context[.operationKey] ?? String(describing: type(of: self))
        var context = context
        context[.operationKey] = key
        ImageTargetLoads.replace(self, key: key, with: nil)
        if !options.contains(.delayPlaceholder) { display(placeholder) }
        let box = LoadBox()
        box.target = self
        let token = manager.loadImage(with: url, options: options, context: context, progress: progress) { result in
            Task { @MainActor in
                defer { completed?(result) }
                guard let self = box.target as? Self, let token = box.token,
                    ImageTargetLoads.isCurrent(self, key: key, token: token)
                else { return }
                ImageTargetLoads.finish(self, key: key, token: token)
                switch result {
                case .success(let value):
                    if !options.contains(.avoidAutoSetImage) { self.display(value.image) }
                case .failure(let error):
                    if error.code != .cancelled && options.contains(.delayPlaceholder) { self.display(placeholder) }
                }
            }
        }
        box.token = token
        ImageTargetLoads.replace(self, key: key, with: token)
        return token
    }

    /// Cancels this target's running load for `operationKey` (default: the target's type name); its completion
    /// gets 2002.
    public func cancelImageLoad(operationKey: String? = nil) {
        ImageTargetLoads.replace(self, key: operationKey ?? String(describing: type(of: self)), with: nil)
    }
}

/// Lets the completion find its target (weakly) and its own token, which exists only after `loadImage` returns.
// @unchecked Sendable: both properties are written on the main actor before the load can complete, and read only
// on the main actor afterwards.
private final class LoadBox: @unchecked Sendable {
    weak var target: AnyObject?
    var token: ImageManager.RequestToken?
}
