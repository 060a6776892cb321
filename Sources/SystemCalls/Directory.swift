import Glibc

/// Directories and links: what discovery needs to list `/dev/input` and
/// follow sysfs links.
extension Syscall {
  /// The names in `directory` (`opendir`/`readdir`), without "." and "..",
  /// in the order the file system gives them.
  package static func directoryEntries(_ directory: String) throws(Errno) -> [String] {
    let opened = Errno.capture { opendir(directory) }
    guard let stream = opened.value else { throw opened.errno ?? .invalidArgument }
    defer { closedir(stream) }
    var names: [String] = []
    while true {
      let next = Errno.capture { readdir(stream) }
      guard let entry = next.value else {
        if let error = next.errno { throw error }
        return names
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
  }

  /// What the symbolic link at `path` points to (`readlink`), as written in the link.
  package static func symbolicLinkDestination(_ path: String) throws(Errno) -> String {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
    let count = try buffer.withUnsafeMutableBufferPointer { raw throws(Errno) in
      try checked("readlink") {
        readlink(
          path, UnsafeMutableRawPointer(raw.baseAddress!).assumingMemoryBound(to: CChar.self),
          raw.count)
      }
    }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }

  /// The text of a small file, or `nil` when it cannot be read or is not UTF-8.
  package static func readSmallTextFile(_ path: String) -> String? {
    guard let bytes = try? readSmallFile(path) else { return nil }
    return String(validating: bytes, as: UTF8.self)
  }
}

/// Joins paths as `NSString.appendingPathComponent` does for the paths tilt builds.
package func joinedPath(_ directory: String, _ name: String) -> String {
  if directory.isEmpty { return name }
  return directory.hasSuffix("/") ? directory + name : directory + "/" + name
}

/// The last component of `path` ("sony" of "../../bus/hid/drivers/sony/").
package func lastPathComponent(_ path: String) -> String {
  String(path.split(separator: "/").last ?? "")
}

/// `path` without its last component, as `NSString.deletingLastPathComponent`
/// gives it: "/sys/bus/iio/devices" of "/sys/bus/iio/devices/iio:device0/",
/// "/" of "/x", "" of "x".
package func parentPath(_ path: String) -> String {
  var trimmed = Substring(path)
  while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
  guard let slash = trimmed.lastIndex(of: "/") else { return "" }
  var parent = trimmed[..<slash]
  while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
  return parent.isEmpty ? "/" : String(parent)
}
