import CMMSearchFormat

/// Which mmsearch this is: the release, and the index format it reads and writes.
///
/// ```swift
/// print("mmsearch \(MMSearchVersion.version) (index format \(MMSearchVersion.indexFormat))")
/// // e.g. "mmsearch 0.2.0 (index format 2)"
/// ```
public enum MMSearchVersion {
    /// The release of the library and the `mmsearch` command, the one place it is written.
    public static let version = "0.2.0"

    /// The index format version: `MMS_FORMAT_VERSION` of `include/mmsearch_format.h`. An index of
    /// another version is refused with `MMSearchError.unsupportedVersion`.
    public static let indexFormat: UInt32 = MMS_FORMAT_VERSION
}
