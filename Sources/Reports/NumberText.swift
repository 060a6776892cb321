extension Double {
  /// The number without a trailing `.0`: `60`, `0.5`.
  var compactText: String {
    self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
  }
}
