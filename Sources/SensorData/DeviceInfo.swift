/// The range and resolution of one absolute axis.
///
/// The corresponding C type is `struct input_absinfo`. `resolution` is in units
/// per mm, or with `INPUT_PROP_ACCELEROMETER` units per g (accelerometer axes)
/// and units per degree per second (gyroscope axes); 0 means not reported.
public struct AbsInfo: Hashable, Sendable {
  public var value: Int32
  public var minimum: Int32
  public var maximum: Int32
  public var fuzz: Int32
  public var flat: Int32
  public var resolution: Int32

  public init(
    value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0,
    resolution: Int32 = 0
  ) {
    self.value = value
    self.minimum = minimum
    self.maximum = maximum
    self.fuzz = fuzz
    self.flat = flat
    self.resolution = resolution
  }
}

/// The identity of an input device: the kernel's `struct input_id`.
public struct DeviceID: Hashable, Sendable {
  public var bustype: UInt16
  public var vendor: UInt16
  public var product: UInt16
  public var version: UInt16

  public init(bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
    self.bustype = bustype
    self.vendor = vendor
    self.product = product
    self.version = version
  }
}

/// What a device is and what it can report, as a live device, an evemu
/// description and a test's fake all describe it.
public struct DeviceInfo: Hashable, Sendable {
  public var name: String
  public var id: DeviceID
  public var uniq: String
  public var phys: String
  /// Input properties (`INPUT_PROP_*` numbers).
  public var properties: Set<UInt16>
  /// The codes each event type can report, by type (`EV_*` → codes).
  public var codes: [UInt16: Set<UInt16>]
  /// Absolute axes' ranges, by `ABS_*` code.
  public var absInfo: [UInt16: AbsInfo]
  /// The kernel driver of the device under the input node, as sysfs names it
  /// (`sony`, `playstation`, `nintendo`, `steam`); empty when unknown (a
  /// recording, a uinput device, a node whose sysfs was not read).
  public var driver: String

  public init(
    name: String, id: DeviceID = DeviceID(bustype: 0, vendor: 0, product: 0, version: 0),
    uniq: String = "", phys: String = "", properties: Set<UInt16> = [],
    codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: AbsInfo] = [:], driver: String = ""
  ) {
    self.name = name
    self.id = id
    self.uniq = uniq
    self.phys = phys
    self.properties = properties
    self.codes = codes
    self.absInfo = absInfo
    self.driver = driver
  }

  public func has(type: UInt16) -> Bool { codes[type] != nil }

  public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }

  public func has(property: UInt16) -> Bool { properties.contains(property) }
}
