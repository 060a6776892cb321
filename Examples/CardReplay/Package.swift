// swift-tools-version:6.0
import PackageDescription

// An app that uses tilt's library products, by relative path.
let package = Package(
  name: "CardReplay",
  dependencies: [.package(name: "tilt", path: "../..")],
  targets: [
    .executableTarget(
      name: "CardReplay",
      dependencies: [
        .product(name: "Tilt", package: "tilt"), .product(name: "TiltCard", package: "tilt"),
      ]),
    .executableTarget(name: "LiveTilt", dependencies: [.product(name: "Tilt", package: "tilt")]),
  ]
)
