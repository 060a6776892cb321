import Foundation
import Synchronization
import TestTools
import Testing

/// `tilt-cli info --json` over every file of whot/evemu-devices in
/// `../shared/data/evemu-devices`: none crashes or hangs, each description's
/// kind is what udev's `input_id` makes of it, and every file that is no
/// description (events only, a shell transcript, the README) is a clear error.
///
/// The expected udev classes come from `UdevInputID` below: a second, small
/// re-implementation of systemd's `udev-builtin-input_id.c` that reads the
/// files' `I:`, `P:` and `B:` lines into bit masks the way udev reads sysfs,
/// sharing no code with the project's classifier.
@Suite(
  .enabled(
    if: FileManager.default.fileExists(atPath: EvemuDevicesLocation.directory.path),
    "../shared/data/evemu-devices is absent (the shared reference data is not installed)"))
struct EvemuDevicesTests {
  static let directory = EvemuDevicesLocation.directory

  /// Every regular file of the collection, relative to it, sorted.
  static var files: [String] {
    guard
      let walker = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var paths: [String] = []
    for case let url as URL in walker
    where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
      paths.append(String(url.path.dropFirst(directory.path.count + 1)))
    }
    return paths.sorted()
  }

  @Test func theCollectionIsComplete() {
    #expect(Self.files.count == 197)
  }

  @Test func infoOnEveryFileMatchesUdev() throws {
    var descriptions = 0
    var errors = 0
    var kinds: [String: Int] = [:]
    for file in Self.files {
      let path = Self.directory.appendingPathComponent(file).path
      let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
      let r = try BoundedRun.run([TiltCLI.binary.path, "info", path, "--json"], seconds: 20)
      #expect(!r.timedOut, "\(file): info did not finish in 20 s")
      guard !r.timedOut else { continue }
      #expect(r.signal == nil, "\(file): info died of signal \(r.signal ?? 0)")
      guard let device = UdevInputID(evemu: text) else {
        // Not a description: events only, a transcript, a README.
        errors += 1
        #expect(r.status == 1, "\(file): exit \(r.status), expected 1 for a file with no header")
        #expect(r.stdout.isEmpty, "\(file)")
        #expect(r.stderr.hasPrefix("tilt-cli info: \(path):"), "\(file): \(r.stderr)")
        #expect(r.stderr.contains("not an evemu recording"), "\(file): \(r.stderr)")
        if UdevInputID.firstContentLine(of: text)?.hasPrefix("E:") == true {
          #expect(r.stderr.contains("events only"), "\(file): \(r.stderr)")
        }
        #expect(r.stderr.split(separator: "\n").count == 1, "\(file): \(r.stderr)")
        continue
      }
      descriptions += 1
      #expect(r.status == 0, "\(file): exit \(r.status): \(r.stderr)")
      guard r.status == 0,
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
          as? [String: Any]
      else { continue }
      let udev = object["udev"] as? [String] ?? ["(missing)"]
      #expect(
        udev == device.properties, "\(file): udev \(udev), input_id says \(device.properties)")
      let kind = object["kind"] as? String ?? "(missing)"
      kinds[kind, default: 0] += 1
      #expect(
        device.allowedKinds.contains(kind),
        "\(file): kind \(kind), udev's \(device.properties) allows \(device.allowedKinds)")
      if kind == "unsupported" {
        #expect(!(object["reason"] as? String ?? "").isEmpty, "\(file)")
      }
    }
    // The collection as it is: 123 descriptions, 74 files that are none.
    #expect(descriptions == 123)
    #expect(errors == 74)
    #expect(kinds["joystick"] == 4, "\(kinds)")
  }

  /// What a failure's message must say to tell the user what to do: one of these.
  static let advice = [
    "give ", "Replay a recording", "record it again", "fix or remove", "See 'tilt-cli",
  ]

  /// A failed run: exit 1, nothing on stdout, one stderr line that starts with
  /// `tilt-cli COMMAND: PATH:` (a line number after it where the file has
  /// one), and says what to do.
  static func isCleanError(_ r: BoundedRun.Result, command: String, path: String) -> Bool {
    let lines = r.stderr.split(separator: "\n")
    return r.status == 1 && r.stdout.isEmpty && r.stderr.hasSuffix("\n") && lines.count == 1
      && r.stderr.hasPrefix("tilt-cli \(command): \(path):")
      && advice.contains { r.stderr.contains($0) }
  }

  /// Issue 14's follow-up: every file through the real CLI path. `info`, then
  /// `replay --speed max --format jsonl`, each under a time limit; a replay
  /// with frames goes through the contract checker. Each run either works or
  /// fails cleanly (``isCleanError(_:command:path:)``); nothing crashes or hangs.
  @Test(.needsShared("tools/check-frames"))
  func everyFileReplaysOrFailsCleanly() throws {
    let checkFrames = try TestTools.requireShared("tools/check-frames").path
    var ok = 0
    var cleanErrors = 0
    var checkedFrames = 0
    for file in Self.files {
      let path = Self.directory.appendingPathComponent(file).path
      for command in ["info", "replay"] {
        let arguments =
          command == "info"
          ? [TiltCLI.binary.path, "info", path]
          : [TiltCLI.binary.path, "replay", path, "--speed", "max", "--format", "jsonl"]
        let r = try BoundedRun.run(arguments, seconds: 30)
        #expect(!r.timedOut, "\(file): \(command) did not finish in 30 s")
        #expect(r.signal == nil, "\(file): \(command) died of signal \(r.signal ?? 0)")
        guard !r.timedOut, r.signal == nil else { continue }
        if r.status == 0 {
          ok += 1
          #expect(!r.stdout.isEmpty, "\(file): \(command) printed nothing")
          // A description (evemu-describe's, no E: lines) replays its start
          // frame and says it had nothing to play; a recording says nothing.
          let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
          let saysEmpty = r.stderr.contains("\(path) has no samples to play")
          if command == "replay" && !text.contains("\nE:") {
            #expect(saysEmpty && r.stderr.split(separator: "\n").count == 1, "\(file): \(r.stderr)")
          } else {
            #expect(r.stderr.isEmpty, "\(file): \(command): \(r.stderr)")
          }
          guard command == "replay" else { continue }
          let check = try TiltCLI.runTool(checkFrames, ["-"], stdin: r.stdout)
          #expect(check.status == 0, "\(file): \(check.stdout)\(check.stderr)")
          checkedFrames += r.stdout.split(separator: "\n").count
        } else {
          #expect(
            Self.isCleanError(r, command: command, path: path),
            "\(file): \(command) exit \(r.status), stderr: \(r.stderr)")
          cleanErrors += 1
          if r.stderr.contains("can't drive the card") {
            #expect(r.stderr.contains("Replay a recording of"), "\(file): \(r.stderr)")
          }
        }
      }
    }
    // 197 files, twice each: the 123 descriptions' info and the 4 of them
    // that can drive the card replay; the 74 that are no description and the
    // 119 that can't drive the card fail cleanly.
    #expect(ok == 123 + 4, "\(ok) runs worked")
    #expect(cleanErrors == 74 * 2 + 119, "\(cleanErrors) clean errors")
    #expect(checkedFrames >= 8, "\(checkedFrames) frames checked")
  }

  @Test(arguments: [
    (
      "tablets/QEMU 0.12.1 QEMU USB Tablet.desc", "ID_INPUT_MOUSE",
      "an absolute pointer (udev: mouse; a VM's USB tablet or similar)"
    ),
    (
      "touchscreens/Beijing IRTOUCHSYSTEMS Co.,LtD IRTOUCH InfraRed USB TouchScreen.desc",
      "ID_INPUT_TOUCHSCREEN", "a touchscreen (udev: touchscreen)"
    ),
  ])
  func theIssuesPointerAndTouchscreenAreNoJoysticks(file: String, udev: String, reason: String)
    throws
  {
    let r = try TiltCLI.run(["info", Self.directory.appendingPathComponent(file).path, "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let o = try #require(
      try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(o["kind"] as? String == "unsupported")
    #expect(o["udev"] as? [String] == [udev])
    #expect((o["reason"] as? String)?.hasPrefix(reason) == true, "\(o["reason"] ?? "")")
    let text = try TiltCLI.run(["info", Self.directory.appendingPathComponent(file).path])
    #expect(text.stdout.contains("kind: unsupported\n"))
    #expect(text.stdout.contains("notes: \(reason)"))
  }
}

/// Where the collection lives: beside the package, never copied in.
enum EvemuDevicesLocation {
  static let directory = TiltCLI.sharedData.appendingPathComponent("evemu-devices")
}

/// udev's `input_id` builtin re-done on an evemu description's bit masks.
struct UdevInputID {
  var bus: UInt64 = 0
  var ev = [UInt64](repeating: 0, count: 1)
  var key = [UInt64](repeating: 0, count: 12)
  var rel = [UInt64](repeating: 0, count: 1)
  var abs = [UInt64](repeating: 0, count: 1)
  var props = [UInt64](repeating: 0, count: 1)
  /// The `ID_INPUT_*` properties (without `ID_INPUT` itself), in the project's order.
  var properties: [String] = []

  /// The first line that is neither blank nor a `#` comment.
  static func firstContentLine(of text: String) -> String? {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .first { !$0.isEmpty && !$0.hasPrefix("#") }
  }

  /// The description in `text`, or nil when its first line of content is not `N:`.
  init?(evemu text: String) {
    guard Self.firstContentLine(of: text)?.hasPrefix("N:") == true else { return nil }
    var offsets: [Int: Int] = [:]
    var propertyBytes = 0
    var typesWithCodes: UInt64 = 0
    for line in text.split(whereSeparator: \.isNewline) {
      let fields = line.split(separator: " ").map(String.init)
      guard let tag = fields.first else { continue }
      if tag == "E:" { break }
      let bytes = fields.dropFirst().compactMap { UInt64($0, radix: 16) }
      switch tag {
      case "I:":
        bus = bytes.first ?? 0
      case "P:":
        for (i, byte) in bytes.enumerated() { Self.set(&props, byte, at: (propertyBytes + i) * 8) }
        propertyBytes += bytes.count
      case "B:":
        guard let type = bytes.first else { continue }
        let offset = offsets[Int(type), default: 0]
        offsets[Int(type)] = offset + bytes.count - 1
        if type > 0 && type < 64 && bytes.dropFirst().contains(where: { $0 != 0 }) {
          typesWithCodes |= 1 << type
        }
        for (i, byte) in bytes.dropFirst().enumerated() {
          let bit = (offset + i) * 8
          switch type {
          case 0x00: Self.set(&ev, byte, at: bit)
          case 0x01: Self.set(&key, byte, at: bit)
          case 0x02: Self.set(&rel, byte, at: bit)
          case 0x03: Self.set(&abs, byte, at: bit)
          default: break
          }
        }
      default:
        break
      }
    }
    // The kernel sets a type's bit in capabilities/ev whenever it has codes;
    // old evemu versions wrote `B: 00 0b` whatever the types.
    ev[0] |= typesWithCodes
    properties = classify()
  }

  private static func set(_ mask: inout [UInt64], _ byte: UInt64, at bit: Int) {
    guard bit / 64 < mask.count else { return }
    mask[bit / 64] |= byte << UInt64(bit % 64)
  }

  private static func test(_ mask: [UInt64], _ bit: Int) -> Bool {
    bit / 64 < mask.count && (mask[bit / 64] >> UInt64(bit % 64)) & 1 == 1
  }

  /// test_pointers and test_key of udev-builtin-input_id.c, line by line.
  private func classify() -> [String] {
    let EV_KEY = 1
    let EV_REL = 2
    let EV_SW = 5
    let ABS_X = 0
    let ABS_Y = 1
    let ABS_Z = 2
    let ABS_RX = 3
    let ABS_PRESSURE = 0x18
    let ABS_MT_SLOT = 0x2f
    let ABS_MT_POSITION_X = 0x35
    let ABS_MT_POSITION_Y = 0x36
    let REL_X = 0
    let REL_Y = 1
    let REL_HWHEEL = 6
    let REL_WHEEL = 8
    let BTN_MISC = 0x100
    let BTN_0 = 0x100
    let BTN_MOUSE = 0x110
    let BTN_JOYSTICK = 0x120
    let BTN_DIGI = 0x140
    let BTN_TOOL_PEN = 0x140
    let BTN_TOOL_FINGER = 0x145
    let BTN_TOUCH = 0x14a
    let BTN_STYLUS = 0x14b
    let KEY_OK = 0x160
    let BTN_DPAD_UP = 0x220
    let BTN_DPAD_RIGHT = 0x223
    let KEY_ALS_TOGGLE = 0x230
    let BTN_TRIGGER_HAPPY = 0x2c0
    let BTN_TRIGGER_HAPPY40 = 0x2e7
    let INPUT_PROP_DIRECT = 1
    let INPUT_PROP_POINTING_STICK = 5
    let INPUT_PROP_ACCELEROMETER = 6
    let BUS_I2C: UInt64 = 0x18
    func k(_ b: Int) -> Bool { Self.test(key, b) }
    func a(_ b: Int) -> Bool { Self.test(abs, b) }

    var set: Set<String> = []
    let hasKeys = Self.test(ev, EV_KEY)
    let hasAbsCoordinates = a(ABS_X) && a(ABS_Y)
    let has3D = hasAbsCoordinates && a(ABS_Z)
    var isPointer = false
    if Self.test(props, INPUT_PROP_ACCELEROMETER) || (!hasKeys && has3D) {
      set.insert("ID_INPUT_ACCELEROMETER")
      isPointer = true
    } else {
      var isPointingStick = Self.test(props, INPUT_PROP_POINTING_STICK)
      let hasStylus = k(BTN_STYLUS)
      let hasPen = k(BTN_TOOL_PEN)
      let fingerButNoPen = k(BTN_TOOL_FINGER) && !k(BTN_TOOL_PEN)
      let hasMouseButton = (BTN_MOUSE..<BTN_JOYSTICK).contains { k($0) }
      let hasRel =
        Self.test(ev, EV_REL) && Self.test(rel, REL_X) && Self.test(rel, REL_Y)
      var hasMT = a(ABS_MT_POSITION_X) && a(ABS_MT_POSITION_Y)
      if hasMT && a(ABS_MT_SLOT) && a(ABS_MT_SLOT - 1) { hasMT = false }
      let isDirect = Self.test(props, INPUT_PROP_DIRECT)
      let hasTouch = k(BTN_TOUCH)
      let hasPadButtons = k(BTN_0) && hasStylus && !hasPen
      var joystick = false
      if !k(BTN_JOYSTICK - 1) {
        joystick =
          (BTN_JOYSTICK..<BTN_DIGI).contains { k($0) }
          || (BTN_TRIGGER_HAPPY...BTN_TRIGGER_HAPPY40).contains { k($0) }
          || (BTN_DPAD_UP...BTN_DPAD_RIGHT).contains { k($0) }
      }
      if !joystick { joystick = (ABS_RX..<ABS_PRESSURE).contains { a($0) } }
      var isTablet = false
      var isTouchpad = false
      var isTouchscreen = false
      var isJoystick = false
      var isAbsMouse = false
      var isMouse = false
      if hasAbsCoordinates {
        if hasStylus || hasPen {
          isTablet = true
        } else if fingerButNoPen && !isDirect {
          isTouchpad = true
        } else if hasMouseButton {
          isAbsMouse = true
        } else if hasTouch || isDirect {
          isTouchscreen = true
        } else if joystick {
          isJoystick = true
        }
      } else if joystick {
        isJoystick = true
      }
      if hasMT {
        if hasStylus || hasPen {
          isTablet = true
        } else if fingerButNoPen && !isDirect {
          isTouchpad = true
        } else if hasTouch || isDirect {
          isTouchscreen = true
        }
      }
      if !isTablet && !isTouchpad && !isJoystick && hasMouseButton
        && (hasRel || !hasAbsCoordinates)
      {
        isMouse = true
      }
      if isMouse && bus == BUS_I2C { isPointingStick = true }
      if isPointingStick { set.insert("ID_INPUT_POINTINGSTICK") }
      if isMouse || isAbsMouse { set.insert("ID_INPUT_MOUSE") }
      if isTouchpad { set.insert("ID_INPUT_TOUCHPAD") }
      if isTouchscreen { set.insert("ID_INPUT_TOUCHSCREEN") }
      if isJoystick { set.insert("ID_INPUT_JOYSTICK") }
      if isTablet { set.insert("ID_INPUT_TABLET") }
      if isTablet && hasPadButtons { set.insert("ID_INPUT_TABLET_PAD") }
      isPointer =
        isTablet || isMouse || isAbsMouse || isTouchpad || isTouchscreen || isJoystick
        || isPointingStick
    }
    var isKey = false
    if hasKeys {
      var found = (0..<BTN_MISC).contains { k($0) }
      if !found {
        found =
          (KEY_OK..<BTN_DPAD_UP).contains { k($0) }
          || (KEY_ALS_TOGGLE..<BTN_TRIGGER_HAPPY).contains { k($0) }
      }
      if found {
        set.insert("ID_INPUT_KEY")
        isKey = true
      }
      if key[0] & 0xFFFF_FFFE == 0xFFFF_FFFE {
        set.insert("ID_INPUT_KEYBOARD")
        isKey = true
      }
    }
    if !isPointer && !isKey && Self.test(ev, EV_REL)
      && (Self.test(rel, REL_WHEEL) || Self.test(rel, REL_HWHEEL))
    {
      set.insert("ID_INPUT_KEY")
    }
    if Self.test(ev, EV_SW) { set.insert("ID_INPUT_SWITCH") }
    let order = [
      "ID_INPUT_ACCELEROMETER", "ID_INPUT_JOYSTICK", "ID_INPUT_MOUSE", "ID_INPUT_TOUCHPAD",
      "ID_INPUT_TOUCHSCREEN", "ID_INPUT_TABLET", "ID_INPUT_TABLET_PAD", "ID_INPUT_POINTINGSTICK",
      "ID_INPUT_KEY", "ID_INPUT_KEYBOARD", "ID_INPUT_SWITCH",
    ]
    return order.filter(set.contains)
  }

  /// The `kind`s contract §2.5 allows for a node udev classifies so: an
  /// accelerometer is an imu or accelerometer (or unsupported without usable
  /// axes); a joystick with ABS_X/ABS_Y is a joystick; anything else, and a
  /// joystick without those axes, is unsupported.
  var allowedKinds: Set<String> {
    if properties.contains("ID_INPUT_ACCELEROMETER") {
      return ["imu", "accelerometer", "unsupported"]
    }
    if properties.contains("ID_INPUT_JOYSTICK") && Self.test(abs, 0) && Self.test(abs, 1) {
      return ["joystick"]
    }
    return ["unsupported"]
  }
}

/// Runs a program with a time limit, capturing its output.
enum BoundedRun {
  struct Result {
    var status: Int32
    var signal: Int32?
    var timedOut: Bool
    var stdout: String
    var stderr: String
  }

  static func run(_ command: [String], seconds: Double) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.currentDirectoryURL = TiltCLI.packageRoot
    var environment = ProcessInfo.processInfo.environment
    environment["TILT_INPUT_DIR"] = "/nonexistent-input-dir"
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outBox = Box()
    let errBox = Box()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      outBox.set(out.fileHandleForReading.readDataToEndOfFile())
    }
    DispatchQueue.global().async(group: group) {
      errBox.set(err.fileHandleForReading.readDataToEndOfFile())
    }
    var timedOut = false
    if group.wait(timeout: .now() + seconds) == .timedOut {
      timedOut = true
      process.terminate()
      _ = group.wait(timeout: .now() + 5)
    }
    process.waitUntilExit()
    let signaled = process.terminationReason == .uncaughtSignal
    return Result(
      status: process.terminationStatus, signal: signaled ? process.terminationStatus : nil,
      timedOut: timedOut, stdout: String(decoding: outBox.data, as: UTF8.self),
      stderr: String(decoding: errBox.data, as: UTF8.self))
  }

  private final class Box: Sendable {
    private let stored = Mutex(Data())
    func set(_ data: Data) { stored.withLock { $0 = data } }
    var data: Data { stored.withLock { $0 } }
  }
}
