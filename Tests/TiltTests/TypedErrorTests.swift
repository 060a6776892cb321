import Attitude
import Evdev
import Foundation
import IIO
import SystemCalls
import Testing
import Tilt

/// The library's errors are cases an app switches on, and their words are an
/// app's: no command-line tool, no flag of one.
@Suite struct TypedErrorTests {
  /// A tool's words that a library description must not use.
  static let toolWords = [
    "tilt-cli", "--device", "--wait", "--mount-matrix", "--format", "--serve", "--output",
    "--filter", "--fusion", "--reference", "--rate", "--stick-range", "--duration",
  ]

  static func toolWordsIn(_ text: String) -> [String] {
    toolWords.filter { text.contains($0) }
  }

  static let path = "/dev/input/event4"

  static let allMotionErrors: [MotionError] = [
    .noInputDevices(directory: "/dev/input"),
    .noMotionDevice(directory: "/dev/input", count: 3),
    .devicesNotReadable(count: 2, first: .permissionDenied(path)),
    .devicesNotReadable(count: 1, first: .notFound(path)),
    .noGyroscopeDevice(directory: "/dev/input"),
    .notAMotionDevice(path: path, name: "keys", reason: "keys only", isRecording: false),
    .notAMotionDevice(path: "keys.evemu", name: "keys", reason: "keys only", isRecording: true),
    .noGyroscope(path: path, name: "accel"),
    .noIIOSensor(reference: path, directory: "/sys/bus/iio/devices"),
    .deviceGone(path: path),
    .cannotWatch(directory: "/dev/input", .noSuchFile),
    .movedDuringCalibration(path: path),
    .turnedDuringCalibration(path: path, rateDegreesPerSecond: Vector3(30, 0, 0)),
    .noGyroscopeSamples(path: path, name: "pad", seconds: 3),
  ]

  @Test func noDescriptionNamesAToolOrItsFlags() {
    var texts = Self.allMotionErrors.map(\.description)
    texts += [
      StoreError(path: "/state/tilt/pad.json", problem: "cannot be read").description,
      IgnoredMountMatrix(device: Self.path, origin: .udev, problem: "3 rows").description,
      IgnoredMountMatrix(
        device: "/dev/iio:device0", origin: .driver(sysfsPath: "/sys/bus/iio/devices/iio:device0"),
        problem: "\"x\" does not parse"
      ).description,
    ]
    let notes: [TiltMotionManager.Note] = [
      .ignoredUdevMountMatrix(IgnoredMountMatrix(device: Self.path, origin: .udev, problem: "x")),
      .storedGyroscopeBiasProblem(StoreError(path: "/state/tilt/pad.json", problem: "x")),
    ]
    texts += notes.map(\.description)
    texts += [IIOError.permissionDenied("/dev/iio:device0"), .busy("/dev/iio:device0")].map(
      \.description)
    for text in texts {
      #expect(Self.toolWordsIn(text).isEmpty, "\(text)")
      #expect(!text.contains("\n"), "one line: \(text)")
    }
  }

  /// Compiles on the code before typed errors too: there it failed for
  /// `DeviceError.notFound` ('tilt-cli devices'), the went-away note
  /// (--wait) and `RecordingError.giveARecording` ('tilt-cli record').
  @Test func nodeRecordingAndNoteDescriptionsNameNoTool() {
    let texts = [
      DeviceError.notFound(Self.path).description,
      DeviceError.permissionDenied(Self.path).description,
      DeviceError.notAnInputDevice(Self.path).description,
      DeviceError.vanished(Self.path).description,
      TiltMotionManager.Note.deviceWentAway(path: Self.path, waiting: false).description,
      TiltMotionManager.Note.deviceWentAway(path: Self.path, waiting: true).description,
      RecordingError.giveARecording, RecordingError.damagedLine,
    ]
    for text in texts { #expect(Self.toolWordsIn(text).isEmpty, "\(text)") }
  }

  /// Every case names the node, file or directory it is about.
  @Test func everyDescriptionNamesItsPath() {
    for error in Self.allMotionErrors {
      #expect(error.description.contains(error.path), "\(error)")
    }
  }

  /// A recording of a keyboard can't drive the card: an app tells it from
  /// other failures by its case, with the file and the reason.
  @Test func aRecordingOfKeysIsNotAMotionDevice() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("typed-errors-\(getpid())-keys.evemu").path
    let text = "N: keys\nI: 0003 0000 0000 0001\nB: 01 00 00 00 00 00 00 01 00\n"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      _ = try Recording.open(path: path, configuration: TiltConfiguration())
      Issue.record("a recording of keys opened as a motion source")
    } catch let error as MotionError {
      switch error {
      case .notAMotionDevice(let file, let name, let reason, let isRecording):
        #expect(file == path && name == "keys" && isRecording)
        #expect(reason.contains("keys or buttons only"), "\(reason)")
      default:
        Issue.record("unexpected case: \(error)")
      }
    }
  }

  /// A node that is not there is a device error an app can switch on, not a string.
  @Test func aMissingNodeIsNotFound() {
    let path = "/nonexistent-tilt-input/event0"
    do {
      _ = try GyroCalibrator(devicePath: path)
      Issue.record("a missing node opened")
    } catch let error as DeviceError {
      guard case .notFound(let node) = error else {
        Issue.record("unexpected case: \(error)")
        return
      }
      #expect(node == path)
    } catch {
      Issue.record("not a DeviceError: \(error)")
    }
  }

  /// A malformed line of a recording says file and line, as fields.
  @Test func aDamagedRecordingSaysFileAndLine() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("typed-errors-\(getpid())-damaged.csv").path
    let text = "t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.01,zero,0,1\n"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      var source = try Recording.open(path: path, configuration: TiltConfiguration())
      while try source.next() != nil {}
      Issue.record("a damaged recording played")
    } catch let error as RecordingError {
      #expect(error.file == path)
      #expect(error.line == 3)
      #expect(error.kind == .notANumber, "\(error)")
    }
  }
}
