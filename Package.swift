// swift-tools-version:6.0
import PackageDescription

// Targets converted to Swift 6 (complete strict concurrency checking) take this (issue 23).
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "tilt",
  products: [
    .library(name: "EvdevCore", targets: ["EvdevCore"]),
    .library(name: "Evdev", targets: ["Evdev"]),
    .library(name: "Attitude", targets: ["Attitude"]),
    .library(name: "TiltCard", targets: ["TiltCard"]),
    .library(name: "IIO", targets: ["IIO"]),
    .library(name: "Motion", targets: ["Motion"]),
    .library(name: "Tilt", targets: ["Tilt"]),
    .library(name: "CardServer", targets: ["CardServer"]),
    .library(name: "Tuning", targets: ["Tuning"]),
    .library(name: "MotionSimulator", targets: ["MotionSimulator"]),
    .executable(name: "tilt-cli", targets: ["tilt-cli"]),
  ],
  targets: [
    .systemLibrary(
      name: "CEvdev",
      pkgConfig: "libevdev",
      providers: [.apt(["libevdev-dev"])]
    ),
    // The one way to the kernel: every target's system calls go through it.
    .target(name: "SystemCalls", swiftSettings: swift6),
    // Events, devices and recordings without libevdev.
    .target(name: "EvdevCore", dependencies: ["SystemCalls"], swiftSettings: swift6),
    // Live devices, through libevdev.
    .target(
      name: "Evdev", dependencies: ["CEvdev", "EvdevCore", "SystemCalls"], swiftSettings: swift6),
    // Live IIO sensors (sysfs and /dev/iio:deviceN), without libevdev.
    .target(name: "IIO", dependencies: ["EvdevCore", "SystemCalls"], swiftSettings: swift6),
    .target(name: "Attitude", swiftSettings: swift6),
    .target(name: "TiltCard", dependencies: ["Attitude", "SystemCalls"], swiftSettings: swift6),
    // Rigid-body motion turned into a device's readings, for tests and benchmarks.
    .target(name: "MotionSimulator", dependencies: ["Attitude"], swiftSettings: swift6),
    // The live page's HTTP server (SPEC §6), through libmicrohttpd.
    .systemLibrary(
      name: "CMicroHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"])]
    ),
    .target(
      name: "CardServer", dependencies: ["TiltCard", "CMicroHTTPD", "SystemCalls"],
      swiftSettings: swift6),
    // Motion without the card: sources (live, recordings), the one loop, the
    // motion manager and its async updates. An app on it links no TiltCard.
    .target(
      name: "Motion", dependencies: ["Evdev", "EvdevCore", "IIO", "Attitude", "SystemCalls"],
      swiftSettings: swift6),
    // The card on top of Motion: the pipeline, the card's managers, the sinks.
    .target(
      name: "Tilt",
      dependencies: ["Motion", "Evdev", "EvdevCore", "IIO", "Attitude", "TiltCard", "SystemCalls"],
      swiftSettings: swift6),
    // tune's measurement, search, report data and plot: the steadiest filter for a recording.
    .target(
      name: "Tuning", dependencies: ["Tilt", "EvdevCore", "Attitude", "TiltCard"],
      swiftSettings: swift6),
    .executableTarget(
      name: "tilt-cli",
      dependencies: [
        "Tilt", "Evdev", "EvdevCore", "IIO", "Attitude", "TiltCard", "SystemCalls", "CardServer",
        "Tuning",
      ],
      swiftSettings: swift6),
    // The app side of VM scenarios 32 and 33 (Tests/vm/README.md); not a product.
    .executableTarget(
      name: "tilt-async-probe", dependencies: ["Motion", "Tilt", "TiltCard"],
      path: "Tests/vm/AsyncProbe",
      swiftSettings: swift6),
    // What a test needs from the machine (tools, shared data): skip or fail, in one place.
    .target(
      name: "TestTools", dependencies: ["MotionSimulator"], path: "Tests/TestTools",
      swiftSettings: swift6),
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"], swiftSettings: swift6),
    .testTarget(
      name: "EvdevCoreTests", dependencies: ["EvdevCore", "TestTools"], swiftSettings: swift6),
    .testTarget(
      name: "EvdevTests",
      dependencies: ["Evdev", "EvdevCore", "CEvdev", "SystemCalls", "TestTools"],
      swiftSettings: swift6),
    .testTarget(name: "IIOTests", dependencies: ["IIO", "EvdevCore"], swiftSettings: swift6),
    .testTarget(
      name: "AttitudeTests", dependencies: ["Attitude", "MotionSimulator", "TestTools"],
      swiftSettings: swift6),
    .testTarget(
      name: "TiltCardTests", dependencies: ["TiltCard", "Attitude", "TestTools"],
      swiftSettings: swift6),
    .testTarget(
      name: "CardServerTests", dependencies: ["CardServer", "TiltCard", "Attitude"],
      swiftSettings: swift6),
    .testTarget(
      name: "MotionTests", dependencies: ["Motion", "Attitude", "EvdevCore", "SystemCalls"],
      swiftSettings: swift6),
    .testTarget(
      name: "TiltTests",
      dependencies: [
        "Tilt", "Motion", "EvdevCore", "Evdev", "Attitude", "TiltCard", "IIO", "SystemCalls",
      ],
      swiftSettings: swift6),
    .testTarget(
      name: "CLITests", dependencies: ["tilt-cli", "TestTools", "Tuning"], exclude: ["Golden"],
      swiftSettings: swift6),
    .testTarget(
      name: "TuningTests", dependencies: ["Tuning", "Attitude", "TestTools", "MotionSimulator"],
      swiftSettings: swift6),
  ],
  swiftLanguageModes: [.v5]
)
