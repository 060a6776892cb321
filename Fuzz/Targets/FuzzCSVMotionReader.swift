import SensorData

/// libFuzzer target: any bytes as a CSV IMU log. The reader must read every
/// row or throw a `RecordingError` that names the file; the rows it does give
/// must have finite, non-decreasing times from 0 and a finite acceleration.
nonisolated(unsafe) private let input = FuzzInputFile(name: "fuzz-csv")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVMotionReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  input.write(fuzzBytes(data, size))
  do {
    let reader = try CSVMotionReader(path: input.path)
    var last = 0.0
    while let record = try reader.nextSample() {
      precondition(record.time.isFinite && record.time >= last, "bad time \(record.time)")
      precondition(
        record.acceleration.x.isFinite && record.acceleration.y.isFinite
          && record.acceleration.z.isFinite, "acceleration not finite")
      if let rate = record.rotationRate {
        precondition(rate.x.isFinite && rate.y.isFinite && rate.z.isFinite, "rate not finite")
      }
      last = record.time
    }
  } catch {
    precondition(error.file == input.path, "error does not name the file: \(error)")
    precondition(!error.message.isEmpty, "error without a message")
  }
  return 0
}
