import Glibc

/// What the process can learn about the machine and its environment.
package enum SystemInfo {
  /// The environment variable `name` (`getenv`), or `nil` when unset.
  package static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The kernel's release (`uname -r`), or `nil` when `uname` fails.
  package static func kernelRelease() -> String? {
    var names = utsname()
    guard (try? Syscall.checked("uname") { uname(&names) }) != nil else { return nil }
    return withUnsafeBytes(of: &names.release) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
