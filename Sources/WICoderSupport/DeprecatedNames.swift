// Names WICore had before issue 37 nested them under `ImageCoding`, for the types that then moved to WICoderSupport
// with them (decision 0083). Each old name still compiles, with a deprecation warning naming its new place, for one
// release, in every app that imports WebImage or WICoderSupport; then this file goes.

import WICore

@available(*, deprecated, renamed: "ImageCoding.AnimationFrameInfo")
public typealias AnimationFrameInfo = ImageCoding.AnimationFrameInfo

@available(*, deprecated, renamed: "ImageCoding.AnimationFrameSource")
public typealias AnimationFrameSource = ImageCoding.AnimationFrameSource

@available(*, deprecated, renamed: "ImageCoding.CompositedAnimationDecoder")
public typealias CompositedAnimationDecoder = ImageCoding.CompositedAnimationDecoder

@available(*, deprecated, renamed: "ImageCoding.ExifReader")
public typealias ExifReader = ImageCoding.ExifReader

@available(*, deprecated, renamed: "ImageCoding.FrameCompositor")
public typealias FrameCompositor = ImageCoding.FrameCompositor
