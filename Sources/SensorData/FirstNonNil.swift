extension Sequence {
  /// The first non-`nil` result of `transform`, calling it once an element
  /// until then. Unlike `lazy.compactMap(transform).first`, which calls it
  /// twice for the element it returns and traps when the second call gives
  /// `nil` (a sysfs file or a node that went away between the two reads).
  package func firstNonNil<T>(_ transform: (Element) throws -> T?) rethrows -> T? {
    for element in self {
      if let value = try transform(element) { return value }
    }
    return nil
  }
}
