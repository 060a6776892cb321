// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "tilt",
  products: [
    .library(name: "Evdev", targets: ["Evdev"]),
    .library(name: "Attitude", targets: ["Attitude"]),
    .library(name: "TiltCard", targets: ["TiltCard"]),
    .library(name: "CardServer", targets: ["CardServer"]),
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
    .systemLibrary(
      name: "CMicroHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"])]
    ),
    .target(name: "CardServer", dependencies: ["TiltCard", "CMicroHTTPD"]),
    .executableTarget(name: "tilt-cli", dependencies: ["Evdev", "Attitude", "TiltCard"]),
    .testTarget(name: "EvdevTests", dependencies: ["Evdev"]),
    .testTarget(name: "AttitudeTests", dependencies: ["Attitude"]),
    .testTarget(name: "TiltCardTests", dependencies: ["TiltCard", "Attitude"]),
    .testTarget(name: "CardServerTests", dependencies: ["CardServer", "TiltCard", "Attitude"]),
    .testTarget(name: "CLITests", dependencies: ["tilt-cli"]),
  ],
  swiftLanguageModes: [.v5]
)
