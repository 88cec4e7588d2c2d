// swift-tools-version:6.1
import PackageDescription

// MARK: - The source articles' example containers, runnable, built on TunnelContainment.
let containmentExamples: [Target] = [
  .target(
    name: "ContainmentExamples", dependencies: ["TunnelContainment"], path: "Examples/ContainmentExamples"),
  .executableTarget(
    name: "page-container", dependencies: ["ContainmentExamples", "TunnelContainment"],
    path: "Examples/page-container"),
  .executableTarget(
    name: "drop-down-menu", dependencies: ["ContainmentExamples", "TunnelContainment"],
    path: "Examples/drop-down-menu"),
  .executableTarget(
    name: "segmented-master", dependencies: ["ContainmentExamples", "TunnelContainment"],
    path: "Examples/segmented-master"),
  .testTarget(name: "ContainmentExamplesTests", dependencies: ["ContainmentExamples", "TunnelContainment"]),
]

// MARK: - Benchmarks, run by Scripts/bench (never by the test suite).
let benchmarkTargets: [Target] = [
  .executableTarget(
    name: "tunnel-bench", dependencies: ["TunnelGeo", "TunnelApp", "TunnelMaps", "CPROJ", "SeededRandom"],
    path: "Benchmarks/tunnel-bench",
    linkerSettings: [.linkedLibrary("proj")])
]

// MARK: - Fuzzers for libFuzzer, built by Scripts/fuzz only (it sets TUNNEL_FUZZ and its own build folder).
let fuzzTargets: [Target] =
  Context.environment["TUNNEL_FUZZ"] == nil
  ? []
  : [
    .systemLibrary(name: "CFuzzer", path: "Fuzz/CFuzzer"),
    .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
    .executableTarget(
      name: "fuzz-coordinates", dependencies: ["TunnelGeo", "CFuzzer", "FuzzSupport"],
      path: "Fuzz/coordinates"),
    .executableTarget(
      name: "fuzz-batch-reader", dependencies: ["TunnelBatch", "CFuzzer", "FuzzSupport"],
      path: "Fuzz/batch-reader"),
    .executableTarget(
      name: "fuzz-place-data", dependencies: ["TunnelGeo", "CZlib", "CFuzzer", "FuzzSupport"],
      path: "Fuzz/place-data"),
  ]

let package = Package(
  name: "Tunnel",
  products: [
    .library(name: "TunnelGeo", targets: ["TunnelGeo"]),
    .library(name: "TunnelContainment", targets: ["TunnelContainment"]),
    .library(name: "TunnelMaps", targets: ["TunnelMaps"]),
    .library(name: "TunnelApp", targets: ["TunnelApp"]),
    .library(name: "TunnelBatch", targets: ["TunnelBatch"]),
    .library(name: "TunnelServer", targets: ["TunnelServer"]),
    .executable(name: "tunnel", targets: ["tunnel"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // `tunnel serve`. Hummingbird's default traits would build swift-configuration and more of Foundation,
    // which TunnelServer does not use.
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
    // PROJ's headers. Never part of the public API, and not linked: TunnelGeo opens libproj on first use
    // (PROJLibrary.swift), so that commands which never project do not load it.
    .systemLibrary(name: "CPROJ", providers: [.apt(["libproj-dev"])]),
    // zlib's CRC-32, which checks the data files' blocks as they are first read.
    .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(name: "CMath"),
    // The lowest layer, for the modules above it only (its API is `package`): the one loop that writes bytes
    // whole, catching the signals that ask a process to stop, and the grid line both the terminal's canvas
    // and the maps draw.
    .target(name: "TunnelSystem"),
    .target(name: "TunnelGeo", dependencies: ["CPROJ", "CZlib", "CMath", "TunnelSystem"]),
    .target(name: "TunnelContainment", dependencies: ["TunnelSystem"]),
    // Map drawing (terminal pictures, SVG, web tiles), with no controllers and no terminal code.
    .target(name: "TunnelMaps", dependencies: ["TunnelGeo", "TunnelSystem"]),
    .target(name: "TunnelApp", dependencies: ["TunnelGeo", "TunnelContainment", "TunnelMaps"]),
    .target(name: "TunnelBatch", dependencies: ["TunnelGeo", "TunnelSystem"]),
    .target(
      name: "TunnelServer",
      dependencies: [
        "TunnelApp", "TunnelBatch", "TunnelGeo", "TunnelMaps",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      // The browser page, built into the binary so that `tunnel serve` needs no files beside it.
      resources: [.embedInCode("Web")]),
    .executableTarget(
      name: "tunnel",
      dependencies: [
        "TunnelApp",
        "TunnelBatch",
        "TunnelGeo",
        "TunnelContainment",
        "TunnelMaps",
        "TunnelServer",
        "TunnelSystem",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // A seeded random number generator for the test suites and the benchmarks.
    .target(name: "SeededRandom", path: "Tests/SeededRandom"),
    // Random points on the sphere and near a layer's vertices, for the suites that compare answers.
    .target(name: "RandomPoints", dependencies: ["TunnelGeo", "SeededRandom"], path: "Tests/RandomPoints"),
    // The projection tests also call PROJ directly.
    .testTarget(
      name: "TunnelGeoTests", dependencies: ["TunnelGeo", "CPROJ", "SeededRandom", "RandomPoints"],
      linkerSettings: [.linkedLibrary("proj")]),
    .testTarget(name: "TunnelContainmentTests", dependencies: ["TunnelContainment", "SeededRandom"]),
    .testTarget(
      name: "TunnelAppTests",
      dependencies: ["TunnelApp", "TunnelGeo", "TunnelContainment", "TunnelMaps", "SeededRandom"],
      resources: [.copy("Snapshots")]),
    .testTarget(name: "TunnelMapsTests", dependencies: ["TunnelMaps", "TunnelGeo"]),
    .testTarget(
      name: "TunnelBatchTests", dependencies: ["TunnelBatch", "TunnelGeo", "SeededRandom", "RandomPoints"]),
    .testTarget(name: "TunnelCLITests", dependencies: ["tunnel"]),
    .testTarget(
      name: "TunnelServerTests", dependencies: ["TunnelServer", "TunnelGeo", "TunnelApp", "TunnelMaps"]),
  ] + containmentExamples + benchmarkTargets + fuzzTargets
)
