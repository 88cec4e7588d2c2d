// swift-tools-version:6.1
import PackageDescription

// `tunnel-serve` and TunnelServer: Tunnel over HTTP on Hummingbird. A package of its own, beside Tunnel's
// in the folder above, so that `tunnel` and a package using Tunnel's libraries fetch and build no HTTP
// stack. `tunnel serve` runs the `tunnel-serve` installed beside `tunnel` (Scripts/install builds both).
let package = Package(
  name: "TunnelServer",
  products: [
    .library(name: "TunnelServer", targets: ["TunnelServer"]),
    .executable(name: "tunnel-serve", targets: ["tunnel-serve"]),
  ],
  dependencies: [
    // Tunnel's own libraries, from this checkout whatever its folder is called.
    .package(name: "Tunnel", path: ".."),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // Hummingbird's default traits would build swift-configuration and more of Foundation, which
    // TunnelServer does not use.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    .target(
      name: "TunnelServer",
      dependencies: [
        .product(name: "TunnelBatch", package: "Tunnel"),
        .product(name: "TunnelGeo", package: "Tunnel"),
        .product(name: "TunnelMaps", package: "Tunnel"),
        .product(name: "TunnelReports", package: "Tunnel"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      // The browser page, built into the binary so that `tunnel serve` needs no files beside it.
      resources: [.embedInCode("Web")]),
    .executableTarget(
      name: "tunnel-serve",
      dependencies: [
        "TunnelServer",
        .product(name: "TunnelCommandLine", package: "Tunnel"),
        .product(name: "TunnelGeo", package: "Tunnel"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]),
    .testTarget(
      name: "TunnelServerTests",
      dependencies: [
        "TunnelServer", .product(name: "TunnelGeo", package: "Tunnel"),
        .product(name: "TunnelMaps", package: "Tunnel"), .product(name: "TunnelReports", package: "Tunnel"),
        // Routes are tested in process, through the router's responder on an embedded channel: no socket,
        // and no HTTP client to build.
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // `tunnel serve` run as a user runs it, over real sockets: `tunnel` handing over to the `tunnel-serve`
    // built beside it. TunnelProcess.swift is a link to the one Tunnel's own command tests use.
    .testTarget(
      name: "TunnelServeTests", dependencies: ["tunnel-serve", .product(name: "tunnel", package: "Tunnel")]),
  ]
)
