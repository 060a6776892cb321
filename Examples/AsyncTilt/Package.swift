// swift-tools-version:6.0
import PackageDescription

// An app that reads tilt's motion with Swift concurrency (the Motion product: no card), by relative path.
let package = Package(
  name: "AsyncTilt",
  dependencies: [.package(name: "tilt", path: "../..")],
  targets: [
    .executableTarget(name: "AsyncTilt", dependencies: [.product(name: "Motion", package: "tilt")])
  ]
)
