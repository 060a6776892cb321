import SystemCalls

/// One reading of an IIO device: its motion channels in SI units, device frame.
public struct IIOScan: Hashable, Sendable {
  /// `in_timestamp` in ns (the clock of the device: `current_timestamp_clock`,
  /// or a HID hub's own), or the monotonic time the reading was taken when
  /// there is no timestamp channel.
  public var timestampNanoseconds: Int64
  /// m/s² (accelerometer), rad/s (gyroscope), by kind: (raw + offset) · scale.
  public var values: [IIOSensorKind: SIMD3<Double>]

  public init(timestampNanoseconds: Int64, values: [IIOSensorKind: SIMD3<Double>]) {
    self.timestampNanoseconds = timestampNanoseconds
    self.values = values
  }
}

/// An IIO device read live: through its buffer (scan elements, trigger,
/// `/dev/iio:deviceN`) when it has one, else by reading `in_*_raw` when asked.
///
/// A buffered stream is readable on ``fileDescriptor``; ``close()`` disables
/// the buffer and closes the node, so a stopped stream costs no wake-ups.
public final class IIOStream {
  public let device: IIODevice
  /// The kinds read (those of the device that were asked for).
  public let kinds: [IIOSensorKind]
  /// The node, readable when scans are waiting; `nil` for a polled stream or once closed.
  public private(set) var fileDescriptor: Int32?
  /// True when the stream reads the buffer; false when it reads `in_*_raw`.
  public let isBuffered: Bool
  /// The layout of a scan (buffered only).
  public let layout: IIOScanLayout?

  private let scales: [IIOSensorKind: SIMD3<Double>]
  private let offsets: [IIOSensorKind: SIMD3<Double>]
  private var pending: [UInt8] = []
  private var enabledBuffer = false

  /// Opens `device` for `kinds`: enables their scan elements and the
  /// timestamp, sets the device's own trigger when none is set, enables the
  /// buffer and opens the node. Without a buffer (or with `polling`), reads
  /// `in_*_raw` on ``readRaw()``.
  public init(device: IIODevice, kinds: [IIOSensorKind], polling: Bool = false) throws(IIOError) {
    self.device = device
    self.kinds = kinds
    var scales: [IIOSensorKind: SIMD3<Double>] = [:]
    var offsets: [IIOSensorKind: SIMD3<Double>] = [:]
    for kind in kinds {
      scales[kind] = device.scale(kind)
      offsets[kind] = device.offset(kind)
    }
    self.scales = scales
    self.offsets = offsets
    guard device.hasBuffer && !polling else {
      isBuffered = false
      layout = nil
      // Readable at all? Fail now, naming the file, rather than at the first poll.
      for kind in kinds {
        let file = device.attribute("in_\(kind.rawValue)_x_raw")
        do { _ = try Sysfs.read(file) } catch {
          throw IIOError(path: file, errno: error, operation: "read")
        }
      }
      return
    }
    isBuffered = true
    // The node first: one reader at a time (EBUSY), and nothing is changed
    // in sysfs for a reader that cannot read.
    let node: Int32
    do {
      node = try Syscall.openForReading(device.nodePath)
    } catch {
      throw IIOError(path: device.nodePath, errno: error, operation: "open")
    }
    let enable = device.attribute("buffer/enable")
    func write(_ file: String, _ text: String) throws(IIOError) {
      do { try Sysfs.write(file, text) } catch {
        Syscall.close(node)
        throw IIOError(path: file, errno: error, operation: "write")
      }
    }
    // A buffer left enabled (by a reader that is gone) takes no changes.
    if Sysfs.readIfPresent(enable) == "1" { try write(enable, "0") }
    var wanted = kinds.flatMap { kind in ["x", "y", "z"].map { "\(kind.rawValue)_\($0)" } }
    if Sysfs.exists(device.attribute("scan_elements/in_timestamp_en")) {
      wanted.append("timestamp")
    }
    for name in wanted {
      let file = device.attribute("scan_elements/in_\(name)_en")
      if Sysfs.readIfPresent(file) != "1" { try write(file, "1") }
    }
    if let current = device.currentTrigger, current.isEmpty {
      // The device's own trigger, named as the HID sensor drivers name it:
      // "<name>-dev<N>" (what iio-sensor-proxy looks for).
      let own = "\(device.name)-dev\(device.number ?? 0)"
      let directory = parentPath(device.sysfsPath)
      if IIOScanner.triggerNames(directory: directory).contains(own) {
        try write(device.attribute("trigger/current_trigger"), own)
      }
    }
    do {
      layout = try IIOStream.layout(of: device)
    } catch {
      Syscall.close(node)
      throw error
    }
    let length = device.attribute("buffer/length")
    if let current = Sysfs.readIfPresent(length).flatMap({ Int($0) }),
      current < IIOStream.bufferLength(for: device)
    {
      try write(length, "\(IIOStream.bufferLength(for: device))")
    }
    try write(enable, "1")
    enabledBuffer = true
    fileDescriptor = node
  }

  /// The scans the kernel keeps for a reader that is busy: a second of the
  /// sensor's `sampling_frequency`, and at least 128. The kfifo's default is
  /// 2 scans, which a reader loses after 20 ms at 100 Hz (VM scenario 24
  /// recorded 367 of 670 reports so); a second covers a terminal redraw or a
  /// slow pipe, and costs a few kilobytes.
  public static func bufferLength(for device: IIODevice) -> Int {
    max(128, Int((device.samplingFrequency ?? 0).rounded(.up)))
  }

  /// The layout of the channels enabled now in `device`'s scan elements.
  public static func layout(of device: IIODevice) throws(IIOError) -> IIOScanLayout {
    let directory = device.attribute("scan_elements")
    var channels: [(name: String, index: Int, type: IIOScanType)] = []
    let names = (try? Syscall.directoryEntries(directory)) ?? []
    for file in names where file.hasPrefix("in_") && file.hasSuffix("_en") {
      let name = String(file.dropFirst(3).dropLast(3))
      let base = joinedPath(directory, "in_\(name)")
      guard Sysfs.readIfPresent(base + "_en") == "1" else { continue }
      let indexText = Sysfs.readIfPresent(base + "_index") ?? ""
      guard let index = Int(indexText) else {
        throw .malformed(
          base + "_index", IIOFormatError("scan index \"\(indexText)\" is not a number"))
      }
      let typeText = Sysfs.readIfPresent(base + "_type") ?? ""
      do {
        channels.append((name, index, try IIOScanType(parsing: typeText)))
      } catch {
        throw .malformed(base + "_type", error)
      }
    }
    do { return try IIOScanLayout(channels: channels) } catch {
      throw .malformed(directory, error)
    }
  }

  /// The scans waiting in the buffer (none when it has none yet).
  public func read() throws(IIOError) -> [IIOScan] {
    guard let fd = fileDescriptor, let layout, layout.scanBytes > 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: layout.scanBytes * 64)
    var scans: [IIOScan] = []
    while true {
      let n: Int?
      do {
        n = try readChunk(fd, into: &buffer)
      } catch {
        throw IIOError(path: device.nodePath, errno: error, operation: "read")
      }
      guard let n, n > 0 else { break }
      pending += buffer[..<n]
      let whole = pending.count / layout.scanBytes * layout.scanBytes
      pending.withUnsafeBytes { raw in
        var start = 0
        while start < whole {
          scans.append(scan(layout.decode(raw, at: start)))
          start += layout.scanBytes
        }
      }
      pending.removeFirst(whole)
    }
    return scans
  }

  /// One reading of `in_*_raw` (a polled stream), timed by the monotonic clock.
  public func readRaw() throws(IIOError) -> IIOScan {
    var values: [String: Int64] = [:]
    for kind in kinds {
      for axis in ["x", "y", "z"] {
        let file = device.attribute("in_\(kind.rawValue)_\(axis)_raw")
        let text: String
        do { text = try Sysfs.read(file) } catch {
          throw IIOError(path: file, errno: error, operation: "read")
        }
        guard let value = Int64(text) else {
          throw .malformed(file, IIOFormatError("raw value \"\(text)\" is not a number"))
        }
        values["\(kind.rawValue)_\(axis)"] = value
      }
    }
    values["timestamp"] = Int64(monotonicSeconds() * 1e9)
    return scan(values)
  }

  private func scan(_ raw: [String: Int64]) -> IIOScan {
    var values: [IIOSensorKind: SIMD3<Double>] = [:]
    for kind in kinds {
      guard let x = raw["\(kind.rawValue)_x"], let y = raw["\(kind.rawValue)_y"],
        let z = raw["\(kind.rawValue)_z"]
      else { continue }
      let v = SIMD3(Double(x), Double(y), Double(z))
      values[kind] = (v + offsets[kind, default: .zero]) * scales[kind, default: .one]
    }
    let time = raw["timestamp"] ?? Int64(monotonicSeconds() * 1e9)
    return IIOScan(timestampNanoseconds: time, values: values)
  }

  /// Disables the buffer and closes the node; a device already gone is not an error.
  public func close() {
    if let fd = fileDescriptor {
      Syscall.close(fd)
      fileDescriptor = nil
    }
    if enabledBuffer {
      try? Sysfs.write(device.attribute("buffer/enable"), "0")
      enabledBuffer = false
    }
  }

  deinit { close() }
}
