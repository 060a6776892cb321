// swift-tools-version:6.0
// Release-mode benchmarks of the Attitude module; run through scripts/bench-attitude.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, which differs between checkouts.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let rootPackage = root.lastPathComponent.lowercased()

let package = Package(
  name: "tilt-benchmarks",
  dependencies: [.package(path: root.path)],
  targets: [
    // Counts malloc calls inside this process, to show the per-sample path allocates nothing.
    .target(name: "MallocCounter"),
    // Lets --profile count instructions of the fusion loop alone under callgrind.
    .target(name: "CallgrindControl"),
    .executableTarget(
      name: "AttitudeBench",
      dependencies: [
        .product(name: "Attitude", package: rootPackage),
        .product(name: "MotionSimulator", package: rootPackage), "MallocCounter",
        "CallgrindControl",
      ],
      swiftSettings: [.unsafeFlags(["-Ounchecked", "-wmo"])],
      // Exported so that libswiftCore's and libc's own malloc calls land in the counter.
      linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]
    ),
  ]
)
