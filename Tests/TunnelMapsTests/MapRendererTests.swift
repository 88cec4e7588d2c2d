import Testing
import TunnelGeo
import TunnelMaps

@MainActor
@Suite("Map pictures")
struct MapRendererTests {
  /// A deterministic generator for sample points.
  struct Generator {
    var state: UInt64
    mutating func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
  }

  /// Compares the picture's land with the coastline polygons at pixels at least `margin` pixels from
  /// any shoreline; returns the number compared and the disagreements.
  func agreement(_ picture: MapPicture, samples: Int, seed: UInt64) -> (compared: Int, wrong: [String]) {
    var generator = Generator(state: seed)
    var compared = 0
    var wrong: [String] = []
    let coastline = try! Shared.data.coastline(.low)
    for _ in 0..<samples {
      let x = Int(generator.next() * Double(picture.viewport.width))
      let y = Int(generator.next() * Double(picture.viewport.height))
      // Away from the shoreline, where a pixel is all land or all water.
      let nearCoast = (-3...3).contains { dy in (-3...3).contains { dx in picture.coast[x + dx, y + dy] } }
      guard !nearCoast,
        let here = Shared.renderer.coordinate(
          at: MapPoint(x: Double(x) + 0.5, y: Double(y) + 0.5), in: picture.viewport)
      else { continue }
      compared += 1
      let isLand = coastline.polygons.features(containing: here).count % 2 == 1
      if isLand != picture.land[x, y] { wrong.append("\(here) at (\(x), \(y))") }
    }
    return (compared, wrong)
  }

  @Test(
    "Filled land agrees with the coastline polygons away from the shore",
    arguments: [
      (56.55, 8.316667, 1_000_000.0), (-56.55, -171.683333, 1_000_000), (90, 0, 4_000_000),
      (-90, 0, 6_000_000),
      (-17.0, 180.0, 2_000_000), (65.8, -169.0, 3_000_000), (0.0, 30.0, 20_000_000), (43.0, 77.0, 300_000),
    ])
  func landAgreesWithThePolygons(latitude: Double, longitude: Double, span: Double) throws {
    let viewport = MapViewport(
      centre: coordinate(latitude, longitude), regionSpan: span, width: 240, height: 120)
    let picture = try Shared.renderer.picture(of: viewport)
    let (compared, wrong) = agreement(picture, samples: 400, seed: UInt64(abs(latitude * 1000 + longitude)))
    #expect(compared > 100)
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }

  @Test(
    "Small and narrow maps fill land right too, where the centre sits on a coast",
    arguments: [
      (60.39, 5.32, 30, 16), (59.91, 10.75, 12, 30), (-41.29, 174.78, 40, 6), (55.68, 12.57, 16, 8),
      (64.5, -21.9, 60, 12), (9.5, 123.9, 20, 10),
    ])
  func smallMaps(latitude: Double, longitude: Double, width: Int, height: Int) throws {
    for span in [200_000.0, 1_000_000, 4_000_000] {
      let viewport = MapViewport(
        centre: coordinate(latitude, longitude), regionSpan: span, width: width * 2, height: height * 4)
      let picture = try Shared.renderer.picture(of: viewport)
      let (_, wrong) = agreement(picture, samples: 300, seed: UInt64(width * 1000 + height))
      #expect(wrong.isEmpty, "\(span): \(wrong.prefix(5))")
    }
  }

  @Test("A map on the antimeridian is the same from either side of it")
  func antimeridian() throws {
    let east = try Shared.renderer.picture(
      of: MapViewport(centre: coordinate(-16.5, 179.999_999), regionSpan: 1_000_000, width: 200, height: 100))
    let west = try Shared.renderer.picture(
      of: MapViewport(centre: coordinate(-16.5, -180), regionSpan: 1_000_000, width: 200, height: 100))
    let differing = zip(east.land.bits, west.land.bits).filter { $0 != $1 }.count
    #expect(east.land.count > 100)  // Fiji's islands
    #expect(differing <= 4)
    // Fiji's towns lie on both sides of 180°, and both sides are labelled.
    #expect(east.places.contains { $0.point.x < 100 } && east.places.contains { $0.point.x > 100 })
  }

  @Test("At the poles: the Arctic is sea around the pole, the Antarctic land")
  func poles() throws {
    let north = try Shared.renderer.picture(
      of: MapViewport(centre: coordinate(90, 0), regionSpan: 1_000_000, width: 100, height: 100))
    let south = try Shared.renderer.picture(
      of: MapViewport(centre: coordinate(-90, 0), regionSpan: 1_000_000, width: 100, height: 100))
    #expect(north.land.count == 0)
    #expect(south.land.count == 100 * 100)
    // Seen from farther away, Greenland and Siberia come into the Arctic map.
    let wide = try Shared.renderer.picture(
      of: MapViewport(centre: coordinate(90, 0), regionSpan: 5_000_000, width: 100, height: 100))
    #expect(wide.land.count > 1_000 && wide.land.count < 6_000)
  }

  @Test("Inland borders are drawn on land, never along a coast")
  func bordersOnLand() throws {
    let picture = try Shared.renderer.picture(
      of: MapViewport(centre: coordinate(50, 10), regionSpan: 1_500_000, width: 200, height: 100))
    #expect(picture.borders.count > 100)
    for (index, isBorder) in picture.borders.bits.enumerated() where isBorder {
      #expect(picture.land.bits[index] && !picture.coast.bits[index])
    }
  }

  @Test("Places come largest first, all inside the picture")
  func placesLargestFirst() throws {
    let picture = try Shared.renderer.picture(
      of: MapViewport(centre: coordinate(55.68, 12.57), regionSpan: 200_000, width: 200, height: 100))
    #expect(picture.places.first?.name == "Copenhagen")
    #expect(zip(picture.places, picture.places.dropFirst()).allSatisfy { $0.population >= $1.population })
    #expect(
      picture.places.allSatisfy { $0.point.x >= 0 && $0.point.x < 200 && $0.point.y >= 0 && $0.point.y < 100 }
    )
  }

  @Test("The scale fits the region into the shorter side and never reaches the far side of the globe")
  func viewport() {
    let fitted = MapViewport(centre: coordinate(0, 0), regionSpan: 1_000_000, width: 400, height: 100)
    #expect(fitted.metresPerPixel == 10_000)
    #expect(fitted.regionSpan == 1_000_000)
    let widest = MapViewport(centre: coordinate(0, 0), regionSpan: 1e9, width: 400, height: 100)
    let halfDiagonal = (200.0 * 200 + 50 * 50).squareRoot() * widest.metresPerPixel
    #expect(abs(halfDiagonal - MapViewport.maximumHalfDiagonal) < 1)
  }
}
