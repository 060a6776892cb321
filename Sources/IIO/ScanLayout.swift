/// Where each enabled channel sits in one scan of an IIO buffer.
///
/// The kernel lays the enabled channels out in `scan_elements/*_index` order,
/// each at an offset that is a multiple of its own size, and pads the scan
/// to a multiple of the largest (`iio_compute_scan_bytes` in
/// drivers/iio/industrialio-buffer.c).
public struct IIOScanLayout: Hashable, Sendable {
  public struct Element: Hashable, Sendable {
    /// The channel's name without `in_` and `_en`: `accel_x`, `timestamp`.
    public var name: String
    public var index: Int
    public var type: IIOScanType
    /// Byte offset in the scan.
    public var offset: Int
  }

  /// Enabled channels, in scan order.
  public let elements: [Element]
  /// Bytes of one scan.
  public let scanBytes: Int

  /// The layout of `channels` (name, index, type), the enabled ones only.
  /// Two channels with the same index are an error (a driver bug).
  public init(channels: [(name: String, index: Int, type: IIOScanType)]) throws(IIOFormatError) {
    let sorted = channels.sorted { $0.index < $1.index }
    var elements: [Element] = []
    var offset = 0
    var largest = 1
    for channel in sorted {
      if let last = elements.last, last.index == channel.index {
        throw IIOFormatError(
          "channels \(last.name) and \(channel.name) share scan index \(channel.index) (kernel bug)"
        )
      }
      let length = channel.type.scanBytes
      let alignment = channel.type.repeatCount == 1 ? length : channel.type.wordBytes
      offset = (offset + alignment - 1) / alignment * alignment
      elements.append(
        Element(name: channel.name, index: channel.index, type: channel.type, offset: offset))
      offset += length
      largest = max(largest, alignment)
    }
    self.elements = elements
    scanBytes = (offset + largest - 1) / largest * largest
  }

  /// The element called `name`, if enabled.
  public func element(_ name: String) -> Element? { elements.first { $0.name == name } }

  /// The values of one scan at `start` of `bytes`, by channel name.
  public func decode(_ bytes: UnsafeRawBufferPointer, at start: Int = 0) -> [String: Int64] {
    var values: [String: Int64] = [:]
    for element in elements {
      values[element.name] = element.type.value(in: bytes, at: start + element.offset)
    }
    return values
  }
}
