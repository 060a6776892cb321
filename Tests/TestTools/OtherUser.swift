import Foundation

extension TestTools {
  /// A fresh folder that every user can enter, with every folder above it
  /// searchable by all: the system's temporary folder when `TMPDIR` is in a
  /// place only its owner may enter (a clone in root's mode-700 home, under
  /// a `mktemp -d`), else `TMPDIR`. For a test that runs something as
  /// another user (`nobody`); the caller removes it.
  public static func folderForAnotherUser(named name: String) throws -> URL {
    let candidates = [FileManager.default.temporaryDirectory.path, "/tmp", "/var/tmp"]
    guard let base = candidates.first(where: searchableByAll) else {
      throw CocoaError(
        .fileWriteNoPermission,
        userInfo: [
          NSLocalizedDescriptionKey:
            "no temporary folder that other users can enter: \(candidates.joined(separator: ", "))"
        ])
    }
    let dir = URL(fileURLWithPath: base).appendingPathComponent("\(name)-\(getpid())")
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    chmod(dir.path, 0o755)
    return dir
  }

  /// A copy of `binary` in `folder` (made by ``folderForAnotherUser(named:)``),
  /// executable by all: the built one may sit in a folder only its owner can enter.
  public static func copyForAnotherUser(_ binary: URL, into folder: URL) throws -> URL {
    let copy = folder.appendingPathComponent(binary.lastPathComponent)
    try? FileManager.default.removeItem(at: copy)
    try FileManager.default.copyItem(at: binary, to: copy)
    chmod(copy.path, 0o755)
    return copy
  }

  /// Whether `path` and every folder above it may be searched by any user.
  static func searchableByAll(_ path: String) -> Bool {
    var url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
    while true {
      var info = stat()
      guard stat(url.path, &info) == 0, info.st_mode & 0o001 != 0 else { return false }
      if url.path == "/" { return true }
      url.deleteLastPathComponent()
    }
  }
}
