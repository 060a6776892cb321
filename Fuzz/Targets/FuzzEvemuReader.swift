import SensorData

/// libFuzzer target: any bytes as an evemu recording. The reader must read
/// every frame or throw a `RecordingError` that names the file; it must never
/// trap, hang or read out of bounds. A device it classifies as a motion device
/// must have valid ranges and a positive resolution.
nonisolated(unsafe) private let input = FuzzInputFile(name: "fuzz-evemu")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemuReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  input.write(fuzzBytes(data, size))
  do {
    let reader = try EvemuReader(path: input.path)
    let profile = DeviceProfile.classify(reader.info)
    if profile.kind == .imu || profile.kind == .accelerometer {
      precondition((profile.accelResolution ?? 0) > 0, "motion device without a resolution")
      for (code, abs) in profile.axisInfo {
        precondition(abs.minimum < abs.maximum, "axis \(code) has min >= max")
      }
    }
    while try reader.nextFrame() != nil {}
  } catch {
    precondition(error.file == input.path, "error does not name the file: \(error)")
    precondition(!error.message.isEmpty, "error without a message")
  }
  return 0
}
