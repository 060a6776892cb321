import CommandLineOptions
import Reports
import Tilt

/// `tilt-cli devices`: which input devices can drive the card, and why the others can't.
enum DevicesCommand: Command {
  static let name = "devices"
  static let overview = "List input devices that can drive the card, and why others can't."
  static let usage = "devices [--json]"
  enum Keys {
    static let json = Flag("json", help: "One JSON array of devices instead of a table.")
  }
  static let options = [Keys.json.declaration]

  /// Whether `--json` was given.
  static func request(from arguments: CommandLineArguments) -> Bool { arguments[Keys.json] }

  static func run(_ json: Bool) throws -> Int32 {
    let listing = DeviceListing.scan()
    if json {
      print(listing.json(describingErrors: LibraryErrorText.describe).serialized(pretty: true))
    } else {
      print(listing.table(describingErrors: LibraryErrorText.describe), terminator: "")
    }
    return ExitStatus.success
  }
}
