// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "tilt",
  products: [
    .library(name: "Evdev", targets: ["Evdev"]),
    .library(name: "Attitude", targets: ["Attitude"]),
    .library(name: "TiltCard", targets: ["TiltCard"]),
    .executable(name: "tilt-cli", targets: ["tilt-cli"]),
  ],
  targets: [
    .systemLibrary(
      name: "CEvdev",
      pkgConfig: "libevdev",
      providers: [.apt(["libevdev-dev"])]
    ),
    .target(name: "Evdev", dependencies: ["CEvdev"]),
    .target(name: "Attitude"),
    .target(name: "TiltCard", dependencies: ["Attitude"]),
    .executableTarget(name: "tilt-cli", dependencies: ["Evdev", "Attitude", "TiltCard"]),
    // What a test needs from the machine (tools, shared data): skip or fail, in one place.
    .target(name: "TestTools", path: "Tests/TestTools"),
    .testTarget(name: "EvdevTests", dependencies: ["Evdev", "TestTools"]),
    .testTarget(name: "AttitudeTests", dependencies: ["Attitude", "TestTools"]),
    .testTarget(name: "TiltCardTests", dependencies: ["TiltCard", "Attitude", "TestTools"]),
    .testTarget(name: "CLITests", dependencies: ["tilt-cli", "TestTools"]),
  ],
  swiftLanguageModes: [.v5]
)
