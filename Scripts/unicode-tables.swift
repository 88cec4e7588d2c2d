#!/usr/bin/env swift
// Writes the two Unicode tables that let the `tunnel` executable do without Foundation's ICU, from what
// Foundation (with ICU) answers on this machine, so that the tables give what Tunnel gave when it asked
// Foundation:
//   Sources/TunnelGeo/PlaceData/CompatibilityDecompositions.swift
//       NFKD (decomposedStringWithCompatibilityMapping) of every scalar that has one, for PlaceNameKey.fold
//   Sources/TunnelApp/LatinASCIITable.swift
//       ICU's "Any-Latin; Latin-ASCII" of the Latin letters, punctuation and symbols, for ASCIIText
//
//   Scripts/unicode-tables.swift           rewrite both files
//   Scripts/unicode-tables.swift --check   exit 1 if either differs from what this machine's Foundation
//                                          gives (run it after a toolchain update)
import Foundation

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().path
let check = CommandLine.arguments.dropFirst().first == "--check"

/// A scalar in a Swift string literal: itself when ASCII and visible, else escaped (so are `\\` and `"`).
func literal(_ scalar: Unicode.Scalar) -> String {
  if ("!"..."~").contains(scalar), scalar != "\\", scalar != "\"" { return String(scalar) }
  return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
}

/// The lines of a ScalarTable literal: each key escaped, then its replacement.
func table(_ entries: [(Unicode.Scalar, String)]) -> String {
  entries.sorted { $0.0.value < $1.0.value }.map { key, value in
    "    " + literal(key) + value.unicodeScalars.map(literal).joined()
  }.joined(separator: "\n")
}

/// 0...0x10FFFF as scalars, without the surrogates.
let everyScalar = (0...0x10FFFF).compactMap(Unicode.Scalar.init)

func isHangulSyllable(_ scalar: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(scalar.value) }

var decompositions: [(Unicode.Scalar, String)] = []
for scalar in everyScalar where !isHangulSyllable(scalar) {
  let decomposed = String(scalar).decomposedStringWithCompatibilityMapping
  if decomposed.unicodeScalars.elementsEqual([scalar]) { continue }
  decompositions.append((scalar, decomposed))
}
// Hangul syllables decompose by arithmetic (PlaceNameKey.forEachDecomposed): check that it agrees.
for scalar in everyScalar where isHangulSyllable(scalar) {
  let index = Int(scalar.value) - 0xAC00
  var expected = [0x1100 + index / 588, 0x1161 + index % 588 / 28]
  if index % 28 != 0 { expected.append(0x11A7 + index % 28) }
  let decomposed = String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars
    .map { Int($0.value) }
  guard decomposed == expected else {
    fatalError("Hangul \(scalar.value) decomposes otherwise: \(decomposed)")
  }
}

// Latin letters and the punctuation and symbols text is written with, in Latin-ASCII's spelling where it
// has one; the nonspacing marks it drops after a letter.
let latinBlocks: [ClosedRange<UInt32>] = [
  0x00A0...0x024F,  // Latin-1 Supplement, Latin Extended-A and -B
  0x0250...0x02FF,  // IPA Extensions, Spacing Modifier Letters
  0x1E00...0x1EFF,  // Latin Extended Additional
  0x2000...0x206F,  // General Punctuation
  0x2070...0x209F,  // Superscripts and Subscripts
  0x20A0...0x20CF,  // Currency Symbols
  0x2100...0x218F,  // Letterlike Symbols, Number Forms
  0x2C60...0x2C7F,  // Latin Extended-C
  0xA720...0xA7FF,  // Latin Extended-D
  0xFB00...0xFB06,  // Latin ligatures
  0xFF01...0xFF5E,  // Fullwidth ASCII
]
func latinASCII(_ text: String) -> String? {
  text.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false)
}
var spellings: [(Unicode.Scalar, String)] = []
for block in latinBlocks {
  for value in block {
    guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned,
      let spelled = latinASCII(String(scalar)), spelled.unicodeScalars.allSatisfy(\.isASCII),
      !spelled.unicodeScalars.elementsEqual([scalar])
    else { continue }
    spellings.append((scalar, spelled))
  }
}
for mark in everyScalar where mark.properties.generalCategory == .nonspacingMark {
  guard latinASCII("a" + String(mark)) == "a" else { continue }
  spellings.append((mark, ""))
}

let header = "// Written by Scripts/unicode-tables.swift from what Foundation answered with ICU; do not edit."
let files = [
  (
    "Sources/TunnelGeo/PlaceData/CompatibilityDecompositions.swift",
    """
    \(header)

    extension PlaceNameKey {
      /// The compatibility decomposition (NFKD) of every scalar that has one, Hangul syllables aside (they
      /// decompose by arithmetic): \(decompositions.count) scalars, each followed by its decomposition, one a line.
      static let decompositions = ScalarTable(
        \"\"\"
    \(table(decompositions))
        \"\"\")
    }

    """
  ),
  (
    "Sources/TunnelApp/LatinASCIITable.swift",
    """
    \(header)

    import TunnelGeo

    extension ASCIIText {
      /// ICU's "Latin-ASCII" spelling of \(spellings.count) scalars of the Latin blocks, the punctuation, symbol and
      /// fullwidth blocks, and the combining marks it drops after a letter: each scalar followed by its
      /// spelling, one a line.
      static let latin = ScalarTable(
        \"\"\"
    \(table(spellings))
        \"\"\")
    }

    """
  ),
]

var differs = false
for (path, text) in files {
  let url = URL(fileURLWithPath: root + "/" + path)
  if check {
    // Compared byte for byte: String's == would take canonically equivalent text for the same.
    if (try? Data(contentsOf: url)) != Data(text.utf8) {
      let message = "unicode-tables.swift: \(path) differs from what Foundation gives\n"
      FileHandle.standardError.write(Data(message.utf8))
      differs = true
    }
  } else {
    try text.write(to: url, atomically: true, encoding: .utf8)
    print("unicode-tables.swift: wrote \(path)")
  }
}
exit(differs ? 1 : 0)
