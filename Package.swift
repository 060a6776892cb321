// swift-tools-version:6.0
import PackageDescription

// Every target builds in Swift 6 language mode (complete strict concurrency
// checking), the default of tools version 6.0.
let package = Package(
  name: "tilt",
  products: [
    .library(name: "SensorData", targets: ["SensorData"]),
    .library(name: "Evdev", targets: ["Evdev"]),
    .library(name: "Attitude", targets: ["Attitude"]),
    .library(name: "TiltCard", targets: ["TiltCard"]),
    .library(name: "JSON", targets: ["JSON"]),
    .library(name: "Reports", targets: ["Reports"]),
    .library(name: "IIO", targets: ["IIO"]),
    .library(name: "Motion", targets: ["Motion"]),
    .library(name: "Tilt", targets: ["Tilt"]),
    .library(name: "CardServer", targets: ["CardServer"]),
    .library(name: "CardPage", targets: ["CardPage"]),
    .library(name: "DSU", targets: ["DSU"]),
    .library(name: "Tuning", targets: ["Tuning"]),
    .library(name: "MotionSimulator", targets: ["MotionSimulator"]),
    .library(name: "MotionService", targets: ["MotionService"]),
    .executable(name: "tilt-cli", targets: ["tilt-cli"]),
  ],
  targets: [
    .systemLibrary(
      name: "CEvdev",
      pkgConfig: "libevdev",
      providers: [.apt(["libevdev-dev"])]
    ),
    // The one way to the kernel: every target's system calls go through it.
    .target(name: "SystemCalls"),
    // Events, devices and recordings without libevdev.
    .target(name: "SensorData", dependencies: ["SystemCalls"]),
    // Live devices, through libevdev.
    .target(
      name: "Evdev", dependencies: ["CEvdev", "SensorData", "PollLoop", "SystemCalls"]),
    // The one loop: descriptors, deadlines on one monotonic clock, signals on
    // request. Everything that waits is run by it.
    .target(name: "PollLoop", dependencies: ["SystemCalls"]),
    // Live IIO sensors (sysfs and /dev/iio:deviceN), without libevdev.
    .target(name: "IIO", dependencies: ["SensorData", "PollLoop", "SystemCalls"]),
    .target(name: "Attitude"),
    .target(name: "TiltCard", dependencies: ["Attitude", "SystemCalls"]),
    // The reports' JSON (devices, info, tune, calibrate): values written in a stable form.
    .target(name: "JSON", dependencies: ["SystemCalls"]),
    // Rigid-body motion turned into a device's readings, for tests and benchmarks.
    .target(name: "MotionSimulator", dependencies: ["Attitude", "SensorData"]),
    // The live page's HTTP server (contract §6), through libmicrohttpd.
    .systemLibrary(
      name: "CMicroHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"])]
    ),
    .target(
      name: "CardServer", dependencies: ["TiltCard", "CMicroHTTPD", "PollLoop", "SystemCalls"]),
    // Motion without the card: sources (live, recordings), the one loop, the
    // motion manager and its async updates. An app on it links no TiltCard.
    .target(
      name: "Motion",
      dependencies: ["Evdev", "SensorData", "IIO", "Attitude", "PollLoop", "SystemCalls"]),
    // The card on top of Motion: the pipeline, the card's managers, the sinks.
    .target(
      name: "Tilt", dependencies: ["Motion", "SensorData", "Attitude", "TiltCard", "SystemCalls"]),
    // What `devices` and `info` print of devices and recordings, on Motion.
    .target(
      name: "Reports",
      dependencies: ["Motion", "Evdev", "SensorData", "IIO", "SystemCalls", "JSON"]),
    // The card's run with its live page: the card's manager served by CardServer.
    .target(
      name: "CardPage", dependencies: ["Tilt", "CardServer", "TiltCard", "SystemCalls"]),
    // The emulator motion server (contract §7): the cemuhook/DSU protocol over UDP, a
    // participant of the loop and one more consumer of the motion manager.
    .target(
      name: "DSU",
      dependencies: [
        "Motion", "Evdev", "IIO", "Attitude", "SensorData", "SystemCalls",
      ]),
    // sd-bus from libsystemd: the D-Bus service's connection, driven by the one loop.
    .systemLibrary(
      name: "CSystemd",
      pkgConfig: "libsystemd",
      providers: [.apt(["libsystemd-dev"])]
    ),
    // The D-Bus motion service (contract §8): org.tilt.Motion1 on the session bus, a
    // participant of the loop and one more consumer of the device hub.
    .target(
      name: "MotionService",
      dependencies: ["Motion", "PollLoop", "SystemCalls", "CSystemd", "Attitude"]),
    // tune's measurement, search, report data and plot: the steadiest filter for a recording.
    .target(
      name: "Tuning", dependencies: ["Motion", "SensorData", "Attitude", "TiltCard", "JSON"]),
    // Subcommands declared once: the parser, the help, the shell completions
    // and the man page are made from each option's declaration. Not a product.
    .target(name: "CommandLineOptions"),
    .executableTarget(
      name: "tilt-cli",
      dependencies: [
        "Tilt", "Motion", "PollLoop", "Evdev", "SensorData", "IIO", "Attitude", "TiltCard",
        "SystemCalls", "CardServer", "CardPage", "Tuning", "DSU", "CommandLineOptions",
        "MotionService", "Reports", "JSON",
      ]),
    // The app side of VM scenarios 32 and 33 (Tests/vm/README.md); not a product.
    .executableTarget(
      name: "tilt-async-probe", dependencies: ["Motion", "Tilt", "TiltCard", "SystemCalls"],
      path: "Tests/vm/AsyncProbe"),
    // The documentation's Swift examples (README, the DocC catalogs), one function each,
    // generated and checked by DocExamplesTests, which runs them; not a product.
    .executableTarget(
      name: "tilt-doc-examples", dependencies: ["Motion", "Tilt", "TiltCard"],
      path: "Tests/DocExamples"),
    // What a test needs from the machine (tools, shared data): skip or fail, in one place.
    .target(
      name: "TestTools", dependencies: ["MotionSimulator", "IIO"], path: "Tests/TestTools"),
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
    .testTarget(
      name: "SensorDataTests", dependencies: ["SensorData", "TestTools"]),
    .testTarget(
      name: "EvdevTests",
      dependencies: ["Evdev", "SensorData", "CEvdev", "PollLoop", "SystemCalls", "TestTools"]),
    .testTarget(name: "IIOTests", dependencies: ["IIO", "SensorData", "PollLoop", "SystemCalls"]),
    .testTarget(
      name: "AttitudeTests",
      dependencies: ["Attitude", "SensorData", "MotionSimulator", "TestTools"]),
    .testTarget(
      name: "TiltCardTests", dependencies: ["TiltCard", "Attitude", "TestTools"]),
    .testTarget(
      name: "CardServerTests", dependencies: ["CardServer", "TiltCard", "Attitude"]),
    .testTarget(
      name: "MotionTests",
      dependencies: [
        "Motion", "PollLoop", "Attitude", "SensorData", "IIO", "SystemCalls", "TestTools",
      ]),
    .testTarget(
      name: "TiltTests",
      dependencies: [
        "Tilt", "Motion", "SensorData", "Evdev", "Attitude", "TiltCard", "IIO",
        "SystemCalls", "TestTools",
      ]),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "tilt-cli", "TestTools", "Tuning", "CommandLineOptions", "Evdev", "Motion", "Tilt",
        "TiltCard",
      ],
      exclude: ["Golden"]),
    .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
    .testTarget(name: "DocExamplesTests", dependencies: ["tilt-doc-examples", "TestTools"]),
    .testTarget(
      name: "DSUTests",
      dependencies: ["DSU", "TestTools", "Motion", "Attitude", "SensorData", "SystemCalls"]),
    .testTarget(
      name: "MotionServiceTests",
      dependencies: ["MotionService", "TestTools", "Motion", "Attitude"]),
    .testTarget(
      name: "TuningTests",
      dependencies: ["Tuning", "Attitude", "TestTools", "MotionSimulator", "TiltCard"]),
  ]
)
