import SensorData

/// libFuzzer target: any bytes as an `ACCEL_MOUNT_MATRIX` value. Parsing must
/// give a matrix or a `MountMatrixError`; a matrix must be finite and read back
/// the same from its own description.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMountMatrix(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let text = String(decoding: fuzzBytes(data, size), as: UTF8.self)
  do {
    let matrix = try MountMatrix(parsing: text)
    for row in matrix.rows {
      precondition(row.x.isFinite && row.y.isFinite && row.z.isFinite, "matrix not finite")
    }
    let again = try MountMatrix(parsing: matrix.description)
    precondition(again == matrix, "\(matrix) does not read back from its description")
  } catch {
    precondition(error.text == text, "error does not quote the text")
  }
  return 0
}
