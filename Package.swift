// swift-tools-version:6.0
import PackageDescription

// Layout: docs/ARCHITECTURE.md. Dependencies point one way: Core ← Store/System ← App ← Runner ← CLI.
// No package dependencies; each C library is one small system-library target.
let package = Package(
    name: "dawnlet-remind",
    products: [
        .executable(name: "dawnlet-remind", targets: ["dawnlet-remind"]),
        .executable(name: "dawnlet-bench", targets: ["DawnletBench"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Headers only, like CCurl: libsystemd is loaded with dlopen by `serve` (Sources/CSystemd/shim.h).
        .systemLibrary(name: "CSystemd", providers: [.apt(["libsystemd-dev"])]),
        // Headers only: libcurl is loaded with dlopen when mail is first sent (Sources/CCurl/shim.h).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Headers only, like CCurl: libical is loaded with dlopen when a calendar is first read.
        .systemLibrary(name: "CICal", providers: [.apt(["libical-dev"])]),
        .systemLibrary(name: "CLinux"),

        .target(name: "DawnletCore", dependencies: ["CLinux"]),
        // The one path of the C calls whose failures are handled, and (in debug builds) the table
        // a test uses to make the Nth call of a named function fail.
        .target(name: "DawnletCCall", swiftSettings: [.define("DAWNLET_FAILURE_INJECTION", .when(configuration: .debug))]),
        .target(name: "DawnletStore", dependencies: ["DawnletCore", "DawnletCCall", "CSQLite"]),
        .target(name: "DawnletSystem", dependencies: ["DawnletCore", "DawnletCCall", "CSystemd", "CCurl", "CICal", "CLinux"]),
        // What the commands and serve share: reading the plan, answering reminders, syncing the
        // export folder, closing a month.
        .target(name: "DawnletApp", dependencies: ["DawnletCore", "DawnletStore", "DawnletSystem"]),
        .target(name: "DawnletRunner", dependencies: ["DawnletCore", "DawnletStore", "DawnletSystem", "DawnletApp"]),
        .target(
            name: "DawnletCLI", dependencies: ["DawnletCore", "DawnletCCall", "DawnletStore", "DawnletSystem", "DawnletApp", "DawnletRunner", "CLinux"]),
        // Release: linked by the toolchain's lld with packed relative relocations (DT_RELR, glibc
        // 2.36): the loader reads ~8 KB of them instead of ~930 KB at every start, and the
        // runner keeps ~0.8 MiB fewer pages resident.
        .executableTarget(
            name: "dawnlet-remind", dependencies: ["DawnletCLI", "CLinux"],
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(configuration: .release))]),
        .executableTarget(
            name: "DawnletBench", dependencies: ["DawnletCore", "DawnletStore", "DawnletSystem", "DawnletApp", "DawnletRunner", "DawnletTestSupport"]),

        // Helpers every test target shares: seeded randomness, dates by text, temporary folders.
        .target(name: "DawnletTestSupport", dependencies: ["DawnletCore", "DawnletCCall", "DawnletSystem"], path: "Tests/DawnletTestSupport"),
        .testTarget(name: "DawnletCoreTests", dependencies: ["DawnletCore", "DawnletTestSupport", "CICal"], exclude: ["Scripts"]),
        .testTarget(name: "DawnletStoreTests", dependencies: ["DawnletCore", "DawnletStore", "DawnletTestSupport"], exclude: ["Corpus"]),
        .testTarget(
            name: "DawnletRunnerTests",
            dependencies: ["DawnletCore", "DawnletCCall", "DawnletStore", "DawnletSystem", "DawnletApp", "DawnletRunner", "DawnletTestSupport"]),
        .testTarget(name: "DawnletSystemTests", dependencies: ["DawnletCore", "DawnletSystem", "DawnletTestSupport"], exclude: ["Corpus", "Scripts"]),
        .testTarget(name: "DawnletCLITests", dependencies: ["DawnletCore", "DawnletTestSupport"], exclude: ["Snapshots", "Scripts", "Imports"]),
    ],
    swiftLanguageModes: [.v6]
)
