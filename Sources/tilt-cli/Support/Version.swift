/// The version of `tilt-cli`, the one place it is written.
enum Version {
  static let string = "0.2.0"
}
