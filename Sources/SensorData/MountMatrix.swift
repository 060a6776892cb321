/// A 3×3 matrix that turns device-frame vectors into card-frame vectors,
/// written in udev's `ACCEL_MOUNT_MATRIX` syntax: rows separated by `;`,
/// numbers by `,` ("1, 0, 0; 0, 1, 0; 0, 0, 1").
public struct MountMatrix: Hashable, Sendable, CustomStringConvertible {
  /// Row-major: `rows[i]` gives card axis i as a combination of device axes.
  public var rows: [SIMD3<Double>]

  public init(_ row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
    rows = [row0, row1, row2]
  }

  public static let identity = MountMatrix([1, 0, 0], [0, 1, 0], [0, 0, 1])

  /// Parses udev's syntax; whitespace around numbers is ignored.
  ///
  /// Throws ``MountMatrixError`` naming what is wrong: not three rows, a row
  /// without three numbers, a number that does not parse or is not finite.
  public init(parsing text: String) throws(MountMatrixError) {
    let rowTexts = text.split(separator: ";", omittingEmptySubsequences: false)
    guard rowTexts.count == 3 else {
      throw MountMatrixError(
        text: text,
        message:
          "has \(rowTexts.count) row\(rowTexts.count == 1 ? "" : "s"), needs 3 separated by ';'")
    }
    var rows: [SIMD3<Double>] = []
    for (r, rowText) in rowTexts.enumerated() {
      let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
      guard cells.count == 3 else {
        throw MountMatrixError(
          text: text,
          message:
            "row \(r + 1) has \(cells.count) number\(cells.count == 1 ? "" : "s"), needs 3 separated by ','"
        )
      }
      var row = SIMD3<Double>()
      for (c, cell) in cells.enumerated() {
        let word = cell.trimmingBlanks()
        guard let value = Double(word) else {
          throw MountMatrixError(
            text: text, message: "'\(word)' in row \(r + 1) is not a number")
        }
        guard value.isFinite else {
          throw MountMatrixError(text: text, message: "'\(word)' in row \(r + 1) is not finite")
        }
        row[c] = value
      }
      rows.append(row)
    }
    self.rows = rows
  }

  /// `m · v`.
  public func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3((rows[0] * v).sum(), (rows[1] * v).sum(), (rows[2] * v).sum())
  }

  /// The matrix that applies `first`, then `self`: `self · first`.
  public func after(_ first: MountMatrix) -> MountMatrix {
    var result: [SIMD3<Double>] = []
    for row in rows {
      result.append(row.x * first.rows[0] + row.y * first.rows[1] + row.z * first.rows[2])
    }
    return MountMatrix(result[0], result[1], result[2])
  }

  /// udev's syntax, shortest form of each number.
  public var description: String {
    func number(_ x: Double) -> String {
      x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
    let texts: [String] = rows.map { row in
      "\(number(row.x)), \(number(row.y)), \(number(row.z))"
    }
    return texts.joined(separator: "; ")
  }
}

/// A mount matrix that does not parse: the text and what is wrong with it.
public struct MountMatrixError: Error, Hashable, Sendable, CustomStringConvertible {
  public var text: String
  public var message: String

  public var description: String {
    "mount matrix \"\(text)\" \(message); write it as udev does: \"1, 0, 0; 0, 1, 0; 0, 0, 1\""
  }
}

extension Substring {
  func trimmingBlanks() -> Substring {
    var s = self
    while let c = s.first, c.isWhitespace { s.removeFirst() }
    while let c = s.last, c.isWhitespace { s.removeLast() }
    return s
  }
}
