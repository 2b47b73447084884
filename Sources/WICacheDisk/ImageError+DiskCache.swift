import WICore

/// The disk cache's error codes (WICore reserves 3000-3099 for it).
///
/// The throwing `DiskCache` methods report these; the `DataCaching` methods turn every failure into a miss or a
/// dropped write, so a broken disk never fails an image load.
extension ImageError.Code {
    /// An I/O call failed for a reason with no code of its own; `underlying` holds the `POSIXError`.
    public static let diskIOFailed = ImageError.Code(rawValue: 3000)
    /// The file system is full or the quota is exhausted (ENOSPC, EDQUOT).
    public static let diskFull = ImageError.Code(rawValue: 3001)
    /// The cache directory or an entry may not be read or written (EACCES, EPERM).
    public static let diskPermissionDenied = ImageError.Code(rawValue: 3002)
    /// The cache directory is on a read-only file system (EROFS).
    public static let diskReadOnly = ImageError.Code(rawValue: 3003)
    /// Something other than a regular file (a directory, a socket) sits where an entry belongs (EISDIR).
    public static let diskEntryNotAFile = ImageError.Code(rawValue: 3004)
    /// The cache directory cannot be created or is not a directory (ENOTDIR, EEXIST).
    public static let diskInvalidDirectory = ImageError.Code(rawValue: 3005)
    /// The key has no entry (for calls that need one, such as `setExtendedData`).
    public static let diskEntryNotFound = ImageError.Code(rawValue: 3006)
}
