import IIO
import Motion
import Reports
import Tilt

/// An IIO sensor (contract §2.4's IIO sensor): what `live` says of the one it
/// chose, and `record` and `info` through the library, with what they say.
enum IIOCommands {
  /// What `live` says on stderr about the sensors it chose.
  static func chosen(_ imu: IIOIMU, polling: Double?) -> String {
    var text =
      "tilt-cli live: IIO sensor \"\(imu.accelerometer.name)\" (\(imu.accelerometer.nodePath))"
    if let gyro = imu.gyroscope, gyro != imu.accelerometer {
      text += " with the gyroscope \"\(gyro.name)\" (\(gyro.nodePath)) of the same hub"
    } else if imu.gyroscope == nil {
      text += ", no gyroscope (accelerometer only)"
    }
    if let polling { text += "; no buffer: polling in_*_raw at \((1 / polling).compact) Hz" }
    return text + "\n"
  }

  /// `record` of an IIO sensor: contract §2.3's CSV log (``IIORecorder``).
  static func record(_ imu: IIOIMU, outputPath: String, duration: Double?) throws -> Int32 {
    let outcome = try IIORecorder(imu: imu, outputPath: outputPath, duration: duration).run(
      onStart: {
        StandardError.write(
          "tilt-cli record: recording \"\(imu.name)\" (\(imu.accelerometer.nodePath)) to "
            + outputPath + (duration.map { " for \($0.compact) s" } ?? "; Ctrl-C to finish")
            + "\n")
      },
      onNote: { StandardError.write("tilt-cli record: \(LibraryErrorText.describe($0))\n") })
    StandardError.write(
      "tilt-cli record: wrote \(outcome.samples) samples to \(outputPath)"
        + (outcome.sensorWentAway ? " (the sensor went away; the recording ends there)" : "")
        + "\n")
    return outcome.sensorWentAway ? ExitStatus.failure : ExitStatus.success
  }

  /// `info` of an IIO sensor (``IIOSensorReport/info(reference:json:measure:)``).
  static func info(reference: String, json: Bool, measure seconds: Double) throws -> Int32 {
    guard let text = try IIOSensorReport.info(reference: reference, json: json, measure: seconds)
    else { return ExitStatus.failure }
    print(text)
    return ExitStatus.success
  }
}
