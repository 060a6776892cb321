import Foundation
import TestTools
import Testing

/// `scripts/install` into a temporary DESTDIR: the layout, and each installed
/// file accepted by the tool that reads it.
@Suite(.serialized) struct InstallTests {
  static let systemdAnalyze = Tool("systemd-analyze", package: "systemd")
  static let groff = Tool("groff", package: "groff")
  static let zsh = Tool("zsh", package: "zsh")
  static let fish = Tool("fish", package: "fish")

  /// Where each file goes under PREFIX (the udev rules under /etc).
  static let layout = [
    "usr/local/bin/tilt-cli",
    "usr/local/share/man/man1/tilt-cli.1",
    "usr/local/share/bash-completion/completions/tilt-cli",
    "usr/local/share/zsh/site-functions/_tilt-cli",
    "usr/local/share/fish/vendor_completions.d/tilt-cli.fish",
    "usr/local/lib/systemd/user/tilt-dsu.service",
    "usr/local/lib/systemd/user/tilt-motion.service",
    "usr/local/share/dbus-1/services/org.tilt.Motion1.service",
    "usr/local/share/dbus-1/interfaces/org.tilt.Motion1.xml",
    "etc/udev/rules.d/70-tilt-evdev.rules",
    "etc/udev/rules.d/70-tilt-iio.rules",
  ]

  /// Installs the built binary into a new DESTDIR, and removes it after `body`.
  static func installed(_ body: (URL) throws -> Void) throws {
    let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-install-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: destination) }
    let r = try TiltCLI.runTool(
      "/usr/bin/env",
      [
        "DESTDIR=\(destination.path)", "PREFIX=/usr/local", "TILT_CLI=\(TiltCLI.binary.path)",
        TiltCLI.packageRoot.appendingPathComponent("scripts/install").path,
      ])
    try #require(r.status == 0, "\(r.stdout)\(r.stderr)")
    try body(destination)
  }

  @Test func itLaysOutEveryFile() throws {
    try Self.installed { root in
      var found: [String] = []
      let enumerator = FileManager.default.enumerator(atPath: root.path)
      while let path = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(
          atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory),
          !isDirectory.boolValue
        {
          found.append(path)
        }
      }
      #expect(found.sorted() == Self.layout.sorted())
      let binary = root.appendingPathComponent("usr/local/bin/tilt-cli").path
      #expect(FileManager.default.isExecutableFile(atPath: binary))
      let unit = try String(
        contentsOf: root.appendingPathComponent("usr/local/lib/systemd/user/tilt-dsu.service"),
        encoding: .utf8)
      #expect(unit.contains("\nExecStart=/usr/local/bin/tilt-cli dsu\n"), "\(unit)")
      #expect(!unit.contains("@"), "a placeholder left: \(unit)")
      // The motion service (contract §8): started by the bus through its user unit.
      let motionUnit = try String(
        contentsOf: root.appendingPathComponent("usr/local/lib/systemd/user/tilt-motion.service"),
        encoding: .utf8)
      for line in [
        "Type=dbus", "BusName=org.tilt.Motion1", "ExecStart=/usr/local/bin/tilt-cli service",
      ] {
        #expect(motionUnit.contains("\n\(line)\n"), "\(motionUnit)")
      }
      let activation = try String(
        contentsOf: root.appendingPathComponent(
          "usr/local/share/dbus-1/services/org.tilt.Motion1.service"), encoding: .utf8)
      for line in [
        "[D-BUS Service]", "Name=org.tilt.Motion1", "Exec=/usr/local/bin/tilt-cli service",
        "SystemdService=tilt-motion.service",
      ] {
        #expect(activation.contains("\(line)\n"), "\(activation)")
      }
      #expect(!motionUnit.contains("@") && !activation.contains("@"))
      let xml = try Data(
        contentsOf: root.appendingPathComponent(
          "usr/local/share/dbus-1/interfaces/org.tilt.Motion1.xml"))
      #expect(
        xml
          == (try Data(
            contentsOf: TiltCLI.packageRoot.appendingPathComponent(
              "packaging/dbus/org.tilt.Motion1.xml"))))
      // The generated files are the binary's own output.
      let bash = try String(
        contentsOf: root.appendingPathComponent(
          "usr/local/share/bash-completion/completions/tilt-cli"), encoding: .utf8)
      #expect(bash == (try TiltCLI.run(["completions", "bash"])).stdout)
    }
  }

  @Test(.needs(systemdAnalyze), arguments: ["tilt-dsu.service", "tilt-motion.service"])
  func systemdAcceptsTheUserUnit(_ name: String) throws {
    try Self.installed { root in
      let installed = root.appendingPathComponent("usr/local/lib/systemd/user/\(name)")
      // The unit names the binary where it will live; systemd-analyze checks
      // that it exists, so the copy it reads names it under the DESTDIR.
      // (Its --root does not reach user units.)
      let text = try String(contentsOf: installed, encoding: .utf8)
        .replacingOccurrences(
          of: "ExecStart=/usr/local/bin/", with: "ExecStart=\(root.path)/usr/local/bin/")
      let copy = root.appendingPathComponent("verify/\(name)")
      try FileManager.default.createDirectory(
        at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: copy, atomically: true, encoding: .utf8)
      let r = try TiltCLI.runTool(
        try Self.systemdAnalyze.require(), ["verify", "--man=no", copy.path])
      #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
      #expect(r.stderr.isEmpty, "\(r.stderr)")
    }
  }

  @Test(.needs(groff)) func theManPageHasNoWarnings() throws {
    try Self.installed { root in
      let page = root.appendingPathComponent("usr/local/share/man/man1/tilt-cli.1").path
      let r = try TiltCLI.runTool(try Self.groff.require(), ["-man", "-Tutf8", "-ww", "-z", page])
      #expect(r.status == 0)
      #expect(r.stderr.isEmpty, "\(r.stderr)")
      let text = try TiltCLI.runTool(try Self.groff.require(), ["-man", "-Tutf8", page]).stdout
      #expect(text.contains("tilt-cli"))
    }
  }

  @Test func theBashCompletionParses() throws {
    try Self.installed { root in
      let script = root.appendingPathComponent(
        "usr/local/share/bash-completion/completions/tilt-cli")
      let r = try TiltCLI.runTool("/bin/bash", ["-n", script.path])
      #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }
  }

  @Test(.needs(zsh)) func theZshCompletionParses() throws {
    try Self.installed { root in
      let script = root.appendingPathComponent("usr/local/share/zsh/site-functions/_tilt-cli")
      let r = try TiltCLI.runTool(try Self.zsh.require(), ["-n", script.path])
      #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }
  }

  @Test(.needs(fish)) func theFishCompletionParses() throws {
    try Self.installed { root in
      let script = root.appendingPathComponent(
        "usr/local/share/fish/vendor_completions.d/tilt-cli.fish")
      let r = try TiltCLI.runTool(try Self.fish.require(), ["-n", script.path])
      #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }
  }
}
