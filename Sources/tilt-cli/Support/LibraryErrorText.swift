import Evdev
import Tilt

/// The library's errors and notes as this tool says them: the same facts,
/// with fixes that name its commands and flags where the library's words
/// name none. Anything not reworded here is said as the library says it.
enum LibraryErrorText {
  /// `error` in the tool's words.
  static func describe(_ error: any Error) -> String {
    switch error {
    case let error as MotionError: return describe(error)
    case let error as DeviceError: return describe(error)
    case let error as StoreError: return describe(error)
    default: return "\(error)"
    }
  }

  static func describe(_ error: MotionError) -> String {
    switch error {
    case .noInputDevices(let directory):
      return "no input devices in \(directory); attach a motion sensor or joystick, "
        + "or pass --device PATH"
    case .noMotionDevice(_, let count):
      return "no motion device among \(count) input devices; "
        + "see 'tilt-cli devices' for why each can't drive the card"
    case .devicesNotReadable(let count, let first):
      return "no usable motion device; \(count) could not be opened: \(describe(first))"
    case .noGyroscopeDevice(let directory):
      return "no motion device with a gyroscope in \(directory) (an accelerometer needs no "
        + "calibration); attach a gamepad or IMU, or pass --device PATH"
    case .notAMotionDevice(let path, let name, let reason, isRecording: false):
      return MotionError.cannotDrive(path, name, reason)
        + " See 'tilt-cli devices' for the devices that can."
    case .notAMotionDevice(let path, let name, let reason, isRecording: true):
      return MotionError.cannotDrive(path, name, reason)
        + " Replay a recording of an accelerometer, an IMU or a joystick "
        + "('tilt-cli info FILE' tells what a file is)."
    case .noIIOSensor(let reference, let directory):
      return "\(reference): no IIO accelerometer or gyroscope of that name in \(directory); "
        + "'tilt-cli devices' lists the sensors"
    case .movedDuringCalibration(let path):
      return "\(path): the device moved during the measurement; lay it on a table "
        + "(or hold it still) and run 'tilt-cli calibrate' again. Nothing was stored."
    case .turnedDuringCalibration(let path, let rate):
      return MotionError.turned(path, rate)
        + "; lay it on a table and run 'tilt-cli calibrate' again. Nothing was stored."
    case .noGyroscope, .deviceGone, .cannotWatch, .noGyroscopeSamples:
      return error.description
    }
  }

  static func describe(_ error: DeviceError) -> String {
    switch error {
    case .notFound(let path):
      return "\(path): no such device node; 'tilt-cli devices' lists the input devices"
    case .permissionDenied, .notAnInputDevice, .vanished, .system:
      return error.description
    }
  }

  static func describe(_ error: StoreError) -> String {
    "\(error.path) \(error.problem); remove it, or run 'tilt-cli calibrate' to store a new one"
  }

  /// A live manager's note in the tool's words.
  static func describe(_ note: TiltMotionManager.Note) -> String {
    switch note {
    case .deviceWentAway(let path, waiting: false):
      return "\(path) went away (unplugged?); run with --wait to wait for it to come back."
    case .ignoredUdevMountMatrix(let ignored):
      return describe(ignored)
    case .storedGyroscopeBiasProblem(let error):
      return describe(error)
    case .deviceWentAway, .deviceIsBack, .startsFromStoredGyroscopeBias, .eventsDropped:
      return note.description
    }
  }

  static func describe(_ ignored: IgnoredMountMatrix) -> String {
    "\(ignored.whatIsWrong); pass --mount-matrix to set the axes"
  }
}
