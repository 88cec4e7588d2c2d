// swift-tools-version:6.1
import PackageDescription

// A package that uses TunnelGeo and nothing else, as Getting Started shows: `Scripts/test --downstream`
// builds it in a folder of its own and runs it, and checks that it resolves no HTTP, SSL or crypto package.
let package = Package(
  name: "Digger",
  dependencies: [
    // Named, so that the checkout's folder may be called anything.
    .package(name: "Tunnel", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "digger",
      dependencies: [.product(name: "TunnelGeo", package: "Tunnel")])
  ]
)
