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
    name: "tunnel-bench",
    dependencies: ["TunnelGeo", "TunnelApp", "TunnelMaps", "TunnelReports", "CPROJ", "SeededRandom"],
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
      name: "fuzz-batch-reader", dependencies: ["TunnelBatch", "TunnelGeo", "CFuzzer", "FuzzSupport"],
      path: "Fuzz/batch-reader"),
    .executableTarget(
      name: "fuzz-place-data", dependencies: ["TunnelGeo", "CZlib", "CFuzzer", "FuzzSupport"],
      path: "Fuzz/place-data"),
  ]

let package = Package(
  name: "Tunnel",
  products: [
    .library(name: "TunnelGeo", targets: ["TunnelGeo"]),
    .library(name: "TunnelReports", targets: ["TunnelReports"]),
    .library(name: "TunnelContainment", targets: ["TunnelContainment"]),
    .library(name: "TunnelMaps", targets: ["TunnelMaps"]),
    .library(name: "TunnelApp", targets: ["TunnelApp"]),
    .library(name: "TunnelBatch", targets: ["TunnelBatch"]),
    // What `tunnel` and `tunnel-serve` (in Server/) share: the data option, failures and their exit
    // statuses, checked output. Not a library for other programs.
    .library(name: "TunnelCommandLine", targets: ["TunnelCommandLine"]),
    .executable(name: "tunnel", targets: ["tunnel"]),
  ],
  dependencies: [
    // The command line of both executables. The server (Hummingbird, SwiftNIO) is a package of its own in
    // Server/, so that a package using these libraries resolves no HTTP, SSL or crypto package.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // PROJ's headers. Never part of the public API, and not linked: TunnelGeo opens libproj on first use
    // (PROJLibrary.swift), so that commands which never project do not load it.
    .systemLibrary(name: "CPROJ", providers: [.apt(["libproj-dev"])]),
    // zlib's CRC-32, which checks the data files' blocks as they are first read.
    .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(name: "CMath"),
    // snprintf for one number, called with C's own variadic arguments (FixedDecimal.swift).
    .systemLibrary(name: "CPrintf"),
    // mallopt, to keep the memory a batch frees for its next chunk (FreedMemory.swift).
    .systemLibrary(name: "CMalloc"),
    // The lowest layer, for the modules above it only (its API is `package`): the one loops that read and
    // write bytes whole, catching the signals that ask a process to stop, the grid line both the terminal's
    // canvas and the maps draw, and what the modules took from Foundation before they used
    // FoundationEssentials alone (numbers as printf writes them, paths, threads, the time zone database).
    .target(name: "TunnelSystem", dependencies: ["CPrintf", "CMalloc"]),
    .target(name: "TunnelGeo", dependencies: ["CPROJ", "CZlib", "CMath", "TunnelSystem"]),
    // Every answer as text, JSON and a row, with the one JSON writer and the one precision they are written to.
    .target(name: "TunnelReports", dependencies: ["TunnelGeo", "TunnelSystem"]),
    .target(name: "TunnelContainment", dependencies: ["TunnelSystem"]),
    // Map drawing (terminal pictures, SVG, web tiles), with no controllers and no terminal code.
    .target(name: "TunnelMaps", dependencies: ["TunnelGeo", "TunnelReports", "TunnelSystem"]),
    .target(
      name: "TunnelApp",
      dependencies: ["TunnelGeo", "TunnelContainment", "TunnelMaps", "TunnelReports", "TunnelSystem"]),
    // CMath for the processor's prefetch, which formatting asks for the places' columns ahead of their rows.
    .target(name: "TunnelBatch", dependencies: ["CMath", "TunnelGeo", "TunnelReports", "TunnelSystem"]),
    .target(
      name: "TunnelCommandLine",
      dependencies: [
        "TunnelGeo", "TunnelSystem", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .executableTarget(
      name: "tunnel",
      dependencies: [
        "TunnelApp",
        "TunnelBatch",
        "TunnelGeo",
        "TunnelContainment",
        "TunnelCommandLine",
        "TunnelMaps",
        "TunnelReports",
        "TunnelSystem",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // A seeded random number generator for the test suites and the benchmarks.
    .target(name: "SeededRandom", path: "Tests/SeededRandom"),
    // Random points on the sphere and near a layer's vertices, for the suites that compare answers.
    .target(name: "RandomPoints", dependencies: ["TunnelGeo", "SeededRandom"], path: "Tests/RandomPoints"),
    // The projection tests also call PROJ directly.
    .testTarget(
      name: "TunnelGeoTests",
      dependencies: ["TunnelGeo", "TunnelReports", "CPROJ", "SeededRandom", "RandomPoints"],
      linkerSettings: [.linkedLibrary("proj")]),
    .testTarget(name: "TunnelSystemTests", dependencies: ["TunnelSystem", "SeededRandom"]),
    .testTarget(name: "TunnelContainmentTests", dependencies: ["TunnelContainment", "SeededRandom"]),
    .testTarget(
      name: "TunnelAppTests",
      dependencies: [
        "TunnelApp", "TunnelGeo", "TunnelContainment", "TunnelMaps", "TunnelReports", "SeededRandom",
      ],
      resources: [.copy("Snapshots")]),
    .testTarget(name: "TunnelMapsTests", dependencies: ["TunnelMaps", "TunnelGeo", "TunnelReports"]),
    .testTarget(
      name: "TunnelBatchTests",
      dependencies: [
        "TunnelBatch", "TunnelGeo", "TunnelReports", "TunnelSystem", "SeededRandom", "RandomPoints",
      ]),
    .testTarget(name: "TunnelReportsTests", dependencies: ["TunnelReports", "TunnelGeo"]),
    // Golden/ holds the command lines and the output GoldenOutputTests compares with, read from the source
    // folder so that Scripts/golden --write is seen without a build.
    .testTarget(name: "TunnelCLITests", dependencies: ["tunnel"], exclude: ["Golden"]),
  ] + containmentExamples + benchmarkTargets + fuzzTargets
)

// Test code is compiled without optimisation, whatever the configuration: the suites run in a release build
// (Scripts/test), where optimising the test modules (their expanded @Test and #expect macros) took 222 s of a
// 355 s build from nothing, and 100 s without; the code the tests exercise stays optimised. TunnelGeoTests is
// the exception: its sweeps over rings, places and zones loop in the test code itself, and the suites took 43 s
// longer with it unoptimised; optimising it costs about 80 s of the build.
for target in package.targets where target.type == .test && target.name != "TunnelGeoTests" {
  target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
}
