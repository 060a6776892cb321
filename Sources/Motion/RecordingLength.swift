import Foundation
import SensorData

/// How long a recording plays, from its first and last sample times, for the
/// terminal view's progress; `nil` when that is not quickly known. Only the
/// head and the tail of the file are read.
public enum RecordingLength {
  public static func seconds(of path: String) -> Double? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let chunk = 1 << 16
    guard let head = try? handle.read(upToCount: chunk), !head.isEmpty,
      let end = try? handle.seekToEnd()
    else { return nil }
    let tail: Data
    if end > UInt64(chunk) {
      guard (try? handle.seek(toOffset: end - UInt64(chunk))) != nil,
        let t = try? handle.read(upToCount: chunk)
      else { return nil }
      tail = t
    } else {
      tail = head
    }
    let headLines = String(decoding: head, as: UTF8.self).split(separator: "\n")
    let tailLines = String(decoding: tail, as: UTF8.self).split(separator: "\n")
    if Recording.looksLikeCSV(path) {
      guard let header = headLines.first else { return nil }
      let names = header.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard let column = names.firstIndex(of: CSVColumns.time) else { return nil }
      func time(_ line: Substring) -> Double? {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard column < fields.count else { return nil }
        return Double(fields[column].trimmingCharacters(in: .whitespaces))
      }
      guard let first = headLines.dropFirst().firstNonNil(time),
        let last = tailLines.reversed().firstNonNil(time)
      else { return nil }
      return last > first ? last - first : nil
    }
    // evemu: "E: 12.345678 0003 0000 ..." lines.
    func time(_ line: Substring) -> Double? {
      guard line.hasPrefix("E: ") else { return nil }
      return line.dropFirst(3).split(separator: " ").first.flatMap { Double($0) }
    }
    guard let first = headLines.firstNonNil(time),
      let last = tailLines.reversed().firstNonNil(time)
    else { return nil }
    return last > first ? last - first : nil
  }
}
