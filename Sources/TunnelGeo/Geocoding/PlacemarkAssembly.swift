#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A placemark put together from its lookups, one field at a time, by the rules that
/// ``ReverseGeocoder/placemark(for:)`` documents. The same steps run over the mapped layers
/// (``LayerLookups``) and over the batch indexes (``BatchIndexes``), so both give the same answers.
struct PlacemarkAssembly<Lookups: PlacemarkLookups & Sendable>: Sendable {
  let lookups: Lookups

  /// What the data says about a point: every field, or those of `fields` (see ``Placemark/Fields``).
  ///
  /// Each lookup runs only when a field asked for needs it: the nearest place for itself, and for a
  /// region or a time zone only when no polygon gives one; the coastline level for land, sea and nearest
  /// land, and for a time zone only when no polygon gives one. So a placemark of some fields has the same
  /// values in them as the whole placemark.
  func placemark(
    for coordinate: Coordinate, fields: Placemark.Fields = .all
  ) throws(PlaceDataError) -> Placemark {
    var found = Found()
    return try withUnsafeMutablePointer(to: &found) { found throws(PlaceDataError) in
      try placemark(for: coordinate, fields: fields, found: found)
    }
  }

  /// What a placemark's lookups found, kept for the others that need it. Through a pointer: variables
  /// that the lookups' closures change were two heap allocations for every point.
  private struct Found {
    var vector: SIMD3<Double>?
    var nearest: (index: Int, chordSquared: Double)?
    var level: Int??
  }

  /// ``placemark(for:fields:)``, what its lookups find kept in `found`.
  private func placemark(
    for coordinate: Coordinate, fields: Placemark.Fields, found: UnsafeMutablePointer<Found>
  ) throws(PlaceDataError) -> Placemark {
    // The point's unit vector, made when a lookup needs it (a polygon lookup does not).
    func vector() -> SIMD3<Double> {
      if let vector = found.pointee.vector { return vector }
      let vector = SphereGeometry.unitVector(coordinate)
      found.pointee.vector = vector
      return vector
    }
    // The place layer is read where it is used: a local copy counted a reference to the shared layer for
    // every point, from every core, whatever the fields.
    func nearest() throws(PlaceDataError) -> (index: Int, chordSquared: Double) {
      if let nearest = found.pointee.nearest { return nearest }
      let nearest = try closestPlace(to: vector())
      found.pointee.nearest = nearest
      return nearest
    }
    func coastLevel() -> Int? {
      if let level = found.pointee.level { return level }
      let level = lookups.coastLevel(at: coordinate)
      found.pointee.level = .some(level)
      return level
    }
    let nearestPlace =
      fields.contains(.nearestPlace)
      ? ReverseGeocoder.nearestPlace(
        lookups.layers.places, try nearest().index, chordSquared: try nearest().chordSquared)
      : NearestPlace.unasked
    let usesLevel = !fields.isDisjoint(with: [.land, .sea, .nearestLand])
    let land = usesLevel ? coastLevel().map { $0 % 2 == 1 } ?? false : false
    let inLake = usesLevel ? coastLevel().map { $0 % 2 == 0 } ?? false : false
    let countryFeature =
      fields.isDisjoint(with: [.country, .region, .boundaries])
      ? nil : lookups.settledCountry(at: coordinate) ?? ownCountry(at: coordinate, vector())
    var region: Placemark.Region?
    var subregion: Placemark.Region?
    if !fields.isDisjoint(with: [.region, .boundaries]), let countryFeature {
      let located = try self.region(at: coordinate, vector, country: countryFeature) {
        () throws(PlaceDataError) in try nearest().index
      }
      region = located?.region
      if let located { subregion = self.subregion(at: coordinate, region: located.index) }
    }
    let water =
      fields.contains(.sea)
      ? self.water(of: land ? .land : water(at: coordinate, vector, inLake: inLake)) : nil
    let shore =
      fields.contains(.nearestLand) && !land
      ? lookups.nearestShore(to: coordinate, vector(), inLake: inLake) : nil
    func onLand() -> Bool { coastLevel().map { $0 % 2 == 1 } ?? false }
    // The zones holding the point, looked up once for the time zone and its boundary.
    let zones =
      fields.isDisjoint(with: [.timeZone, .boundaries])
      ? FeatureSet() : lookups.timeZoneFeatures(containing: coordinate)
    var timeZone = Placemark.TimeZone(identifier: "")
    if fields.contains(.timeZone) {
      timeZone = self.timeZone(
        of: try zone(
          at: coordinate, zones: zones, land: onLand,
          nearestPlace: { () throws(PlaceDataError) in try nearest().index }))
    }
    let boundaries =
      fields.contains(.boundaries)
      ? self.boundaries(
        at: coordinate, vector(), regionByPolygon: region?.source == .polygon, hasSubregion: subregion != nil,
        inZone: !zones.isEmpty, land: onLand) : nil
    return Placemark(
      latitude: coordinate.latitude, longitude: coordinate.longitude, land: fields.contains(.land) && land,
      country: fields.contains(.country) ? countryFeature.map { lookups.country($0) } : nil,
      region: fields.contains(.region) ? region : nil, subregion: fields.contains(.region) ? subregion : nil,
      sea: water?.sea, lake: water?.lake, inLake: water?.inLake ?? false, nearestPlace: nearestPlace,
      nearestLand: shore.map { nearestLand($0) },
      timeZone: timeZone, boundaryKm: boundaries)
  }

  /// The land, country, region, time zone and water of each of `coordinates` for `fields` as the layers
  /// number them, and its nearest land and boundaries where `fields` has them (the others are not looked
  /// up): ``placemark(of:search:)`` of each has the values ``placemark(for:fields:)`` gives there. They are
  /// initialized one after another from `output`; `made` counts those made, also when one throws.
  ///
  /// The polygons holding them are looked up for all of them first, each layer's together
  /// (``PlacemarkLookups/timeZoneFeatures(containing:into:)`` and the others), which overlaps their reads
  /// of memory: the time zones, the coastline's levels where the land or the sea is asked, the named marine
  /// polygons, the regions, and the countries drawn around the points whose 1° cell does not settle their
  /// country.
  func keys(
    for coordinates: UnsafeBufferPointer<Coordinate>, fields: Placemark.Fields,
    into output: UnsafeMutablePointer<PlacemarkKey>, made: inout Int
  ) throws(PlaceDataError) {
    try keys(
      for: coordinates, fields: fields.subtracting([.boundaries, .nearestLand]),
      keys: UnsafeMutableRawPointer(output),
      searches: nil, stride: MemoryLayout<PlacemarkKey>.stride, made: &made)
  }

  /// ``keys(for:fields:into:made:)`` with each key's search, where `fields` has the nearest land or the
  /// boundaries.
  func keys(
    for coordinates: UnsafeBufferPointer<Coordinate>, fields: Placemark.Fields,
    into output: UnsafeMutablePointer<SearchedKey>, made: inout Int
  ) throws(PlaceDataError) {
    let base = UnsafeMutableRawPointer(output)
    try keys(
      for: coordinates, fields: fields, keys: base + MemoryLayout<SearchedKey>.offset(of: \.key)!,
      searches: base + MemoryLayout<SearchedKey>.offset(of: \.search)!,
      stride: MemoryLayout<SearchedKey>.stride,
      made: &made)
  }

  /// The keys of both, each initialized `stride` bytes after the one before from `keys`, and its search
  /// likewise from `searches` when given: one function, not a generic one, whose copies of each key went
  /// through the type's table of operations.
  private func keys(
    for coordinates: UnsafeBufferPointer<Coordinate>, fields: Placemark.Fields,
    keys output: UnsafeMutableRawPointer,
    searches: UnsafeMutableRawPointer?, stride: Int, made: inout Int
  ) throws(PlaceDataError) {
    let count = coordinates.count
    // None where neither the time zone nor the boundaries are asked: a set is 48 bytes, made and destroyed
    // for every point.
    let zones = UnsafeMutableBufferPointer<FeatureSet>.allocate(
      capacity: fields.isDisjoint(with: [.timeZone, .boundaries]) ? 0 : count)
    let levels = UnsafeMutableBufferPointer<Int?>.allocate(
      capacity: fields.isDisjoint(with: [.land, .sea, .nearestLand]) ? 0 : count)
    // The boundaries' region (whether a polygon gives it, whether it has a second-level region) needs the
    // country.
    let countries = UnsafeMutableBufferPointer<Int??>.allocate(
      capacity: fields.isDisjoint(with: [.country, .region, .boundaries]) ? 0 : count)
    let seas = UnsafeMutableBufferPointer<Int?>.allocate(capacity: fields.contains(.sea) ? count : 0)
    let regionSets = UnsafeMutableBufferPointer<FeatureSet>.allocate(
      capacity: fields.isDisjoint(with: [.region, .boundaries]) ? 0 : count)
    let drawn = UnsafeMutableBufferPointer<Int?>.allocate(capacity: countries.count)
    let unsettled = UnsafeMutableBufferPointer<Coordinate>.allocate(capacity: countries.count)
    for index in zones.indices { (zones.baseAddress! + index).initialize(to: FeatureSet()) }
    for index in regionSets.indices { (regionSets.baseAddress! + index).initialize(to: FeatureSet()) }
    defer {
      zones.deinitialize()
      zones.deallocate()
      regionSets.deinitialize()
      regionSets.deallocate()
      levels.deallocate()
      countries.deallocate()
      seas.deallocate()
      drawn.deallocate()
      unsettled.deallocate()
    }
    if !zones.isEmpty { lookups.timeZoneFeatures(containing: coordinates, into: zones) }
    if !levels.isEmpty { lookups.coastLevels(at: coordinates, into: levels) }
    if !seas.isEmpty { lookups.seaFeatures(containing: coordinates, into: seas) }
    if !regionSets.isEmpty { lookups.regionFeatures(containing: coordinates, into: regionSets) }
    var unsettledCount = 0
    // How far ahead of its lookup a point's settled cell is asked for.
    let settledAhead = 16
    if !countries.isEmpty {
      for index in 0..<count {
        if index + settledAhead < count {
          lookups.prefetchSettledCountry(at: coordinates[index + settledAhead])
        }
        countries[index] = lookups.settledCountry(at: coordinates[index])
        if countries[index] == nil {
          unsettled[unsettledCount] = coordinates[index]
          unsettledCount += 1
        }
      }
      lookups.countryFeatures(
        containing: UnsafeBufferPointer(rebasing: unsettled[..<unsettledCount]),
        into: UnsafeMutableBufferPointer(rebasing: drawn[..<unsettledCount]))
    }
    let unsettledTotal = unsettledCount
    // The unsettled points' vectors and, for those drawn in a country near another's border, their time
    // zones, looked up together (``unsettledZonesOf``).
    let unsettledVectors = UnsafeMutableBufferPointer<SIMD3<Double>>.allocate(capacity: unsettledTotal)
    let unsettledZones = UnsafeMutableBufferPointer<Int32>.allocate(capacity: unsettledTotal)
    defer {
      unsettledVectors.deallocate()
      unsettledZones.deallocate()
    }
    if unsettledTotal > 0 {
      unsettledZonesOf(
        coordinates, settled: UnsafeBufferPointer(countries),
        unsettled: UnsafeBufferPointer(rebasing: unsettled[..<unsettledTotal]),
        drawn: UnsafeBufferPointer(rebasing: drawn[..<unsettledTotal]),
        zonesAsked: zones.isEmpty ? nil : UnsafeBufferPointer(zones),
        vectors: unsettledVectors, into: unsettledZones)
    }
    unsettledCount = 0
    let noZones = FeatureSet()
    for index in 0..<count {
      let coordinate = coordinates[index]
      var country: Int? = nil
      if !countries.isEmpty {
        if let settled = countries[index] {
          country = settled
        } else {
          switch (drawn[unsettledCount], unsettledZones[unsettledCount]) {
          case (let drawn?, -1): country = drawn
          case (let drawn?, let zone):
            country = ownCountry(
              at: coordinate, unsettledVectors[unsettledCount], drawn: .some(drawn),
              zone: .some(zone >= 0 ? Int(zone) : nil))
          case (nil, _):
            country = ownCountry(at: coordinate, unsettledVectors[unsettledCount], drawn: .some(nil))
          }
          unsettledCount += 1
        }
      }
      let level: Int?? = levels.isEmpty ? nil : .some(levels[index])
      let sea: Int?? = seas.isEmpty ? nil : .some(seas[index])
      let regions = regionSets.isEmpty ? nil : UnsafePointer(regionSets.baseAddress! + index)
      // Each set borrowed where it is, never copied for a point.
      let key =
        zones.isEmpty
        ? try key(
          for: coordinate, fields: fields, zones: noZones, level: level, country: country, sea: sea,
          regions: regions)
        : try key(
          for: coordinate, fields: fields, zones: zones[index], level: level, country: country, sea: sea,
          regions: regions)
      if let searches {
        let search =
          zones.isEmpty
          ? try self.search(
            for: coordinate, fields: fields, inZone: false, level: level, country: country, regions: regions,
            key: key)
          : try self.search(
            for: coordinate, fields: fields, inZone: !zones[index].isEmpty, level: level, country: country,
            regions: regions, key: key)
        (searches + made * stride).assumingMemoryBound(to: PlacemarkSearch.self).initialize(to: search)
      }
      (output + made * stride).assumingMemoryBound(to: PlacemarkKey.self).initialize(to: key)
      made += 1
    }
  }

  /// For each point of a block of ``keys(for:fields:into:made:)`` whose 1° cell does not settle its country
  /// (`unsettled`, the others' countries in `settled`), with the country feature drawn around it
  /// (`drawn`): its unit vector, and in `zones` the first time zone feature holding it where
  /// ``zoneCountry(at:_:drawn:zone:)`` asks for it (-3 for none), -1 where it does not (the drawn country
  /// stands), -2 for a point drawn in no country. The zones are those the field looked up
  /// (`zonesAsked`, one per point of the block), else looked up together.
  ///
  /// The cells near the country borders that each point reads are asked for ahead of it, in two steps (a
  /// cell's word, then its feature and list); the points at sea search those lists later. (Asking for
  /// the lists' runs and nodes too gained nothing.)
  private func unsettledZonesOf(
    _ coordinates: UnsafeBufferPointer<Coordinate>, settled: UnsafeBufferPointer<Int??>,
    unsettled: UnsafeBufferPointer<Coordinate>, drawn: UnsafeBufferPointer<Int?>,
    zonesAsked: UnsafeBufferPointer<FeatureSet>?, vectors: UnsafeMutableBufferPointer<SIMD3<Double>>,
    into zones: UnsafeMutableBufferPointer<Int32>
  ) {
    let (cellsAhead, listsAhead) = (16, 6)
    let queries = UnsafeMutableBufferPointer<Coordinate>.allocate(capacity: unsettled.count)
    let asking = UnsafeMutableBufferPointer<Int>.allocate(capacity: unsettled.count)
    defer {
      queries.deallocate()
      asking.deallocate()
    }
    var queryCount = 0
    var point = 0
    for index in coordinates.indices where settled[index] == nil {
      if point + cellsAhead < unsettled.count {
        lookups.prefetchCountryBorders(near: unsettled[point + cellsAhead], listed: false)
      }
      if point + listsAhead < unsettled.count {
        lookups.prefetchCountryBorders(near: unsettled[point + listsAhead], listed: true)
      }
      let coordinate = unsettled[point]
      vectors[point] = SphereGeometry.unitVector(coordinate)
      if let drawn = drawn[point] {
        if !asksZone(at: coordinate, vectors[point], drawn: drawn) {
          zones[point] = -1
        } else if let zonesAsked {
          zones[point] = zonesAsked[index].first.map { Int32($0) } ?? -3
        } else {
          queries[queryCount] = coordinate
          asking[queryCount] = point
          queryCount += 1
        }
      } else {
        zones[point] = -2
      }
      point += 1
    }
    guard queryCount > 0 else { return }
    let found = UnsafeMutableBufferPointer<FeatureSet>.allocate(capacity: queryCount)
    _ = found.initialize(from: repeatElement(FeatureSet(), count: queryCount))
    defer {
      found.deinitialize()
      found.deallocate()
    }
    lookups.timeZoneFeatures(
      containing: UnsafeBufferPointer(rebasing: queries[..<queryCount]), into: found)
    for query in 0..<queryCount { zones[asking[query]] = found[query].first.map { Int32($0) } ?? -3 }
  }

  /// The key of one point of ``keys(for:fields:into:made:)``, from the time zones holding it (empty
  /// unless `fields` has the time zone or the boundaries), its coastline level and its named marine feature
  /// where they were looked up (nil where they were not), its country (where `fields` has it) and the
  /// region features holding it (where `fields` has the region).
  @inline(__always) private func key(
    for coordinate: Coordinate, fields: Placemark.Fields, zones: borrowing FeatureSet, level: Int??,
    country: Int?, sea: Int??, regions: UnsafePointer<FeatureSet>?
  ) throws(PlaceDataError) -> PlacemarkKey {
    // The coastline's level (on land, in a lake), looked up only where the land or the sea is asked or it
    // decides the zone (outside every zone polygon). Found here rather than remembered by a closure: a
    // variable that an escaping closure changes was a heap allocation for every point.
    let asksLevel = !fields.isDisjoint(with: [.land, .sea]) || (fields.contains(.timeZone) && zones.isEmpty)
    let found = asksLevel ? level ?? lookups.coastLevel(at: coordinate) : nil
    let land = found.map { $0 % 2 == 1 } ?? false
    var key = PlacemarkKey(land: fields.contains(.land) && land, country: -1, timeZone: nil)
    if fields.contains(.country), let country { key.country = Int32(country) }
    if fields.contains(.sea) {
      key.water =
        land
        ? .land
        : water(
          at: coordinate, { SphereGeometry.unitVector(coordinate) },
          inLake: found.map { $0 % 2 == 0 } ?? false, sea: sea)
    }
    if fields.contains(.timeZone) {
      key.timeZone = try zone(at: coordinate, zones: zones, land: { land }) { () throws(PlaceDataError) in
        try closestPlace(to: SphereGeometry.unitVector(coordinate)).index
      }
    }
    if fields.contains(.region) {
      key.region = try region(at: coordinate, country: country, regions: regions)
    }
    return key
  }

  /// The search of one point of ``keys(for:fields:into:made:)`` for its nearest land and boundaries, where
  /// `fields` has them: from whether a time zone polygon holds it, its coastline level where it was looked
  /// up, its country and the region features holding it, and its key (whose region, where `fields` has it,
  /// is the boundaries' region).
  private func search(
    for coordinate: Coordinate, fields: Placemark.Fields, inZone: Bool, level: Int??, country: Int?,
    regions: UnsafePointer<FeatureSet>?, key: borrowing PlacemarkKey
  ) throws(PlaceDataError) -> PlacemarkSearch {
    let vector = SphereGeometry.unitVector(coordinate)
    // The coastline's level where the nearest land asks it (whose batch looks it up for every point), or
    // the boundary of a point outside every zone.
    func found() -> Int? { level ?? lookups.coastLevel(at: coordinate) }
    var search = PlacemarkSearch()
    if fields.contains(.nearestLand) {
      let found = found()
      if found.map({ $0 % 2 == 1 }) != true,
        let hit = lookups.nearestShore(to: coordinate, vector, inLake: found.map { $0 % 2 == 0 } ?? false)
      {
        search.shore = shore(hit)
      }
    }
    if fields.contains(.boundaries) {
      var region = key.region ?? .none
      if key.region == nil { region = try self.region(at: coordinate, country: country, regions: regions) }
      search.boundaries = boundaries(
        at: coordinate, vector, regionByPolygon: region.index >= 0 && region.source == .polygon,
        hasSubregion: region.subregion >= 0, inZone: inZone, land: { found().map { $0 % 2 == 1 } ?? false })
    }
    return search
  }

  /// The region key of a point in the country feature `country` (none without one): the region and the
  /// second-level region that ``region(at:_:country:nearestPlace:)`` and ``subregion(at:region:)`` name.
  /// `regions` are the region features holding the point where they were looked up before.
  private func region(
    at coordinate: Coordinate, country: Int?, regions: UnsafePointer<FeatureSet>?
  ) throws(PlaceDataError) -> PlacemarkKey.Region {
    guard let country else { return .none }
    // The point's unit vector, made where a search needs it (most points lie in a region polygon).
    var made: SIMD3<Double>?
    func vector() -> SIMD3<Double> {
      if let made { return made }
      let vector = SphereGeometry.unitVector(coordinate)
      made = vector
      return vector
    }
    let found = try regionIndex(at: coordinate, vector, country: country, regions: regions) {
      () throws(PlaceDataError) in try closestPlace(to: vector()).index
    }
    guard let found else { return .none }
    return PlacemarkKey.Region(
      index: Int32(found.index), source: found.source,
      subregion: subregionFeature(at: coordinate, region: found.index).map { Int32($0) } ?? -1)
  }

  /// The place nearest to a point (its unit vector), with its squared chord distance.
  private func closestPlace(
    to vector: SIMD3<Double>
  ) throws(PlaceDataError) -> (index: Int, chordSquared: Double) {
    guard let nearest = lookups.nearestPlace(to: vector), nearest.index >= 0 else {
      throw .malformed(path: lookups.layers.places.path, detail: "no places")
    }
    return nearest
  }

  /// The placemark a key and its search stand for: its land, country, region, time zone, water and nearest
  /// land named, its boundaries' distances, the nearest place empty.
  func placemark(of key: PlacemarkKey, search: PlacemarkSearch) -> Placemark {
    let water = key.water.map { self.water(of: $0) }
    var region: Placemark.Region?
    var subregion: Placemark.Region?
    if let found = key.region, found.index >= 0 {
      region = lookups.region(Int(found.index))
      region?.source = found.source
      if found.subregion >= 0 { subregion = self.subregion(Int(found.subregion)) }
    }
    return Placemark(
      latitude: 0, longitude: 0, land: key.land,
      country: key.country >= 0 ? lookups.country(Int(key.country)) : nil, region: region,
      subregion: subregion,
      sea: water?.sea, lake: water?.lake, inLake: water?.inLake ?? false, nearestPlace: .unasked,
      nearestLand: search.shore.map { nearestLand(of: $0) },
      timeZone: key.timeZone.map { timeZone(of: $0) } ?? Placemark.TimeZone(identifier: ""),
      boundaryKm: search.boundaries)
  }

  /// How far the nearest boundary of each layer is (``Placemark/Boundaries``): the region's only when a
  /// polygon gave it, the second-level region's only where there is one (`hasSubregion`), and the time
  /// zone's, at sea outside every zone, the nearer of the zones' edges and the nautical zone's meridian
  /// (``nauticalBoundaryAngle(_:)``). `inZone` says whether a zone polygon holds the point.
  func boundaries(
    at coordinate: Coordinate, _ vector: SIMD3<Double>, regionByPolygon: Bool, hasSubregion: Bool,
    inZone: Bool, land: () -> Bool
  ) -> Placemark.Boundaries {
    func kilometres(_ angle: Double?) -> Double? { angle.map { $0 * SphereGeometry.radiusKm } }
    var zone = lookups.boundaryAngle(.timeZones, to: coordinate, vector)
    if !inZone, !land() {
      let nautical = Self.nauticalBoundaryAngle(coordinate)
      zone = zone.map { min($0, nautical) } ?? nautical
    }
    return Placemark.Boundaries(
      country: kilometres(lookups.boundaryAngle(.countries, to: coordinate, vector)),
      region: regionByPolygon ? kilometres(lookups.boundaryAngle(.regions, to: coordinate, vector)) : nil,
      subregion: hasSubregion ? kilometres(lookups.boundaryAngle(.subregions, to: coordinate, vector)) : nil,
      timeZone: kilometres(zone))
  }

  /// The angle in radians from a point to the nearest meridian where ``ReverseGeocoder/oceanZone(longitude:)``
  /// changes: 7.5° + 15°·k, and the antimeridian (between `Etc/GMT-12` and `Etc/GMT+12`). A meridian is
  /// half a great circle, and the nearest is less than 90° of longitude away, so the angle is
  /// asin(cos φ · sin Δλ).
  static func nauticalBoundaryAngle(_ coordinate: Coordinate) -> Double {
    let longitude = coordinate.longitude
    let nearestMeridian = ((longitude - 7.5) / 15).rounded() * 15 + 7.5
    let delta = min(abs(longitude - nearestMeridian), 180 - abs(longitude))
    let phi = coordinate.latitude * .pi / 180
    return asin(min(1, cos(phi) * sin(delta * .pi / 180)))
  }

  /// The country feature containing a point, or the one whose border is nearest within `toleranceKm`
  /// (ties to the lower feature); within ``ReverseGeocoder/borderAccuracyKm`` of a border, the time
  /// zone's country when it is another (``zoneCountry(at:_:drawn:zone:)``).
  ///
  /// `drawn` is ``PlacemarkLookups/countryFeature(containing:)-(Coordinate)`` of the point where it was looked
  /// up before (nil where it was not), and `zone` its time zone as ``zoneCountry(at:_:drawn:zone:)`` takes
  /// it.
  func country(
    at coordinate: Coordinate, _ vector: SIMD3<Double>, toleranceKm: Double, drawn: Int?? = nil,
    zone: Int?? = nil
  ) -> Int? {
    if drawn == nil { lookups.prefetchCountry(at: coordinate) }
    let contained = drawn ?? lookups.countryFeature(containing: coordinate)
    guard
      let drawn = contained
        ?? lookups.countryBorder(nearestTo: coordinate, vector, within: toleranceKm / SphereGeometry.radiusKm)
    else { return nil }
    return zoneCountry(at: coordinate, vector, drawn: drawn, zone: zone) ?? drawn
  }

  /// The country of the point itself: ``country(at:_:toleranceKm:)`` within
  /// ``ReverseGeocoder/coastalToleranceKm``; off every outline and that far from them, where the point lies
  /// in a country's time zone (the zones reach some 22 km out to sea), the country of a GSHHG island
  /// (``ReverseGeocoder/islandSpanDegrees``) within the same tolerance, as ``Placemark/nearestLand`` names
  /// it, or where no outline is near that island either, the zone's country. So the atolls and reefs that
  /// Natural Earth draws kilometres off, or not at all, have their country (Tarawa, Nukunonu); the open sea
  /// has none.
  ///
  /// `drawn` and `zone` are what was looked up before, as ``country(at:_:toleranceKm:drawn:zone:)`` takes
  /// them.
  func ownCountry(
    at coordinate: Coordinate, _ vector: SIMD3<Double>, drawn: Int?? = nil, zone: Int?? = nil
  ) -> Int? {
    if let drawn = country(
      at: coordinate, vector, toleranceKm: ReverseGeocoder.coastalToleranceKm, drawn: drawn, zone: zone)
    {
      return drawn
    }
    guard lookups.mayHaveIsland(near: coordinate), let zone = lookups.timeZoneFeature(containing: coordinate),
      let code = lookups.zoneCountryCode(zone),
      let shore = lookups.nearestIsland(
        to: coordinate, vector, within: ReverseGeocoder.coastalToleranceKm / SphereGeometry.radiusKm)
    else { return nil }
    // Land that no outline is near (Nukunonu: Tokelau's outline has only its other atolls) is the zone's.
    return shoreCountry(shore.point)
      ?? (0..<lookups.layers.countries.polygons.featureCount).first { lookups.country($0).code == code }
  }

  /// Where a point's time zone is another country's (the zone's ``TimeZoneLayer/countryCode(_:)``) and
  /// it lies within ``ReverseGeocoder/borderAccuracyKm`` of a country border, the feature of the zone's
  /// country if its border is that near too; nil otherwise. A country that no zone is of (Kosovo) keeps
  /// the drawn answer. Where the borders are known to be farther (most points inland), or all to be the
  /// drawn country's own (most points near a coast), nothing is looked up: another country's border
  /// cannot be near. Else the zone is asked first: it agrees with the drawn country almost everywhere,
  /// and then no border is searched.
  ///
  /// `zone` is the first time zone feature holding the point where it was looked up before, for a point
  /// that ``asksZone(at:_:drawn:)``: nil where it was not.
  func zoneCountry(
    at coordinate: Coordinate, _ vector: SIMD3<Double>, drawn: Int, zone found: Int?? = nil
  )
    -> Int?
  {
    if found == nil, !asksZone(at: coordinate, vector, drawn: drawn) { return nil }
    let limit = ReverseGeocoder.borderAccuracyKm / SphereGeometry.radiusKm
    guard let zone = found ?? lookups.timeZoneFeature(containing: coordinate),
      let code = lookups.zoneCountryCode(zone), lookups.country(drawn).code != code,
      lookups.countryHasZone(drawn)
    else { return nil }
    // No border within the limit has none of the zone's country either: one search answers both.
    return lookups.countryBorder(nearestTo: coordinate, vector, within: limit) {
      lookups.country($0).code == code
    }
  }

  /// Whether ``zoneCountry(at:_:drawn:zone:)`` looks up the time zone of a point in the country feature
  /// `drawn`: false where every country border is known to lie farther than
  /// ``ReverseGeocoder/borderAccuracyKm``, or all those nearer to be the drawn country's own.
  func asksZone(at coordinate: Coordinate, _ vector: SIMD3<Double>, drawn: Int) -> Bool {
    // The cells first: a bit and a feature, where the clearance walks the countries' grid again.
    !lookups.countryBorders(near: coordinate, allOf: drawn)
      && !lookups.countryBorders(
        fartherThan: ReverseGeocoder.borderAccuracyKm / SphereGeometry.radiusKm, from: coordinate, vector)
  }

  /// The region polygon of the country containing the point, or whose border is within
  /// ``ReverseGeocoder/coastalToleranceKm``; else the region of the nearest populated place in the
  /// country (the nearest place of all when it is of the country), within
  /// ``ReverseGeocoder/regionSearchRadiusKm``.
  func region(
    at coordinate: Coordinate, _ vector: () -> SIMD3<Double>, country feature: Int,
    nearestPlace: () throws(PlaceDataError) -> Int
  ) throws(PlaceDataError)
    -> (region: Placemark.Region, index: Int)?
  {
    guard
      let found = try regionIndex(at: coordinate, vector, country: feature, nearestPlace: nearestPlace),
      var region = lookups.region(found.index)
    else { return nil }
    region.source = found.source
    return (region, found.index)
  }

  /// The index in the place layer of the region ``region(at:_:country:nearestPlace:)`` gives, and the rule
  /// that gave it, without making its name. `regions` are the region features holding the point where they
  /// were looked up before (nil where they were not); `vector` is asked for only by the searches.
  func regionIndex(
    at coordinate: Coordinate, _ vector: () -> SIMD3<Double>, country feature: Int,
    regions: UnsafePointer<FeatureSet>? = nil, nearestPlace: () throws(PlaceDataError) -> Int
  ) throws(PlaceDataError) -> (index: Int, source: Placemark.Region.Source)? {
    guard let value = lookups.countryCodeValue(feature) else { return nil }
    let contained =
      if let regions {
        lookups.regionFeature(among: regions.pointee, country: value)
      } else {
        lookups.regionFeature(containing: coordinate, country: value)
      }
    let polygon =
      contained
      ?? lookups.regionBorder(
        nearestTo: coordinate, vector(),
        within: ReverseGeocoder.coastalToleranceKm / SphereGeometry.radiusKm, country: value)
    if let index = polygon.flatMap({ lookups.regionIndex(ofFeature: $0) }), lookups.hasRegion(index) {
      return (index, .polygon)
    }
    let places = lookups.layers.places
    let nearestPlace = try nearestPlace()
    let regionPlace =
      places.countryCodeValue(at: nearestPlace) == value
      ? nearestPlace
      : lookups.nearestPlace(
        ofCountry: value, to: vector(),
        within: SphereGeometry.chordSquared(
          angle: ReverseGeocoder.regionSearchRadiusKm / SphereGeometry.radiusKm))
    guard let index = regionPlace.flatMap({ places.regionIndex(at: $0) }), lookups.hasRegion(index) else {
      return nil
    }
    return (index, .nearestPlace)
  }

  /// The second-level region of a point in a region (its index in the place layer): the division of that
  /// region holding the point, or whose border is within ``ReverseGeocoder/coastalToleranceKm``; nil where
  /// the data does not divide the country.
  func subregion(at coordinate: Coordinate, region index: Int) -> Placemark.Region? {
    subregionFeature(at: coordinate, region: index).map { subregion($0) }
  }

  /// A second-level region's feature as a placemark names it.
  func subregion(_ feature: Int) -> Placemark.Region {
    let subregions = lookups.layers.subregions
    return Placemark.Region(code: subregions.isoCode(feature), name: subregions.name(feature))
  }

  /// The feature of the second-level region ``subregion(at:region:)`` gives.
  func subregionFeature(at coordinate: Coordinate, region index: Int) -> Int? {
    let subregions = lookups.layers.subregions
    let places = lookups.layers.places
    guard subregions.countryCodeValues.contains(places.regionCountryCodeValue(index)) else { return nil }
    let region = places.region(index)
    return subregions.feature(
      at: coordinate, country: region.countryCode, admin1: region.code,
      toleranceKm: ReverseGeocoder.coastalToleranceKm)
  }

  /// What a point off land is in, a lake (`inLake`: its coastline level says so) or a sea, and the feature
  /// naming it. In a lake: the lake layer's name of its GSHHG lake, else the named marine polygon holding
  /// it. At sea: the lake layer's water that GSHHG draws as sea, else the first named marine polygon
  /// holding it, else the named marine polygon whose border is nearest (the only use of `vector`). `sea` is
  /// the named marine polygon holding it where that was looked up before (nil where it was not).
  func water(
    at coordinate: Coordinate, _ vector: () -> SIMD3<Double>, inLake: Bool, sea: Int?? = nil
  ) -> PlacemarkKey.Water {
    let containing = sea ?? lookups.seaFeature(containing: coordinate)
    guard inLake else {
      if let sea = lookups.lakeSeaFeature(containing: coordinate) { return .sea(.lake(Int32(sea))) }
      guard let sea = containing ?? lookups.nearestSeaFeature(to: coordinate, vector()) else {
        return .sea(.none)
      }
      return .sea(.marine(Int32(sea)))
    }
    if let lake = lookups.lakeFeature(containing: coordinate),
      let named = lookups.layers.lakes.feature(ofCoastFeature: lake, at: coordinate)
    {
      return .lake(.lake(Int32(named)))
    }
    return .lake(containing.map { .marine(Int32($0)) } ?? .none)
  }

  /// The sea field's values for a point's water.
  func water(of water: PlacemarkKey.Water) -> (sea: String?, lake: String?, inLake: Bool) {
    func name(_ name: PlacemarkKey.WaterName) -> String? {
      switch name {
      case .none: nil
      case .marine(let feature): lookups.sea(Int(feature))
      case .lake(let feature): lookups.layers.lakes.name(Int(feature))
      }
    }
    switch water {
    case .land: return (nil, nil, false)
    case .sea(let sea): return (name(sea), nil, false)
    case .lake(let lake): return (nil, name(lake), true)
    }
  }

  /// The zone of the time zone polygons holding the point (`zones`, in feature order), with the others
  /// that hold it too; where none does (gaps between simplified polygons), the nautical zone at sea and the
  /// nearest place's zone on land.
  func zone(
    at coordinate: Coordinate, zones: borrowing FeatureSet, land: () -> Bool,
    nearestPlace: () throws(PlaceDataError) -> Int
  ) throws(PlaceDataError) -> PlacemarkKey.Zone {
    // Most points lie in one zone: that answer without copying the set into an iterator.
    if let single = zones.single { return .polygon(single) }
    var members = zones.makeIterator()
    if let first = members.next() {
      guard let second = members.next() else { return .polygon(Int32(first)) }
      // A loop, not `map(lookups.timeZone)`: a method taken as a function holds its object, and so
      // counted a reference to the shared lookups for every point (closures written out do not).
      var others = [lookups.timeZone(second)]
      while let other = members.next() { others.append(lookups.timeZone(other)) }
      return .read(Placemark.TimeZone(identifier: lookups.timeZone(first), others: others))
    }
    if !land() { return .nautical(Int8(ReverseGeocoder.oceanZoneHours(longitude: coordinate.longitude))) }
    return .read(Placemark.TimeZone(identifier: lookups.layers.places.timeZone(at: try nearestPlace())))
  }

  /// The time zone a key's zone stands for.
  func timeZone(of zone: PlacemarkKey.Zone) -> Placemark.TimeZone {
    switch zone {
    case .polygon(let feature): Placemark.TimeZone(identifier: lookups.timeZone(Int(feature)))
    case .nautical(let hours): Placemark.TimeZone(identifier: ReverseGeocoder.oceanZone(hours: Int(hours)))
    case .read(let zone): zone
    }
  }

  // MARK: Nearest land

  /// Describes a shoreline point: its country and, where a place is near, its name.
  func nearestLand(_ shore: BoundaryHit) -> Placemark.NearestLand { nearestLand(of: self.shore(shore)) }

  /// A shoreline point as a key holds it: where it is, how far, and its description's features.
  func shore(_ shore: BoundaryHit) -> PlacemarkKey.Shore {
    let point = SphereGeometry.coordinate(shore.point)
    return PlacemarkKey.Shore(
      distanceKm: shore.angle * SphereGeometry.radiusKm, latitude: point.latitude, longitude: point.longitude,
      description: shoreDescription(shore.point))
  }

  /// The nearest land a key's shoreline point stands for: its country, its island, and its name (the
  /// place's where one is near, else the island's).
  func nearestLand(of shore: PlacemarkKey.Shore) -> Placemark.NearestLand {
    let described = shore.description
    let island = described.island.map { lookups.island($0) }
    return Placemark.NearestLand(
      distanceKm: shore.distanceKm, latitude: shore.latitude, longitude: shore.longitude,
      country: described.country.map { lookups.country($0) },
      name: described.place.map { lookups.layers.places.name(at: $0) } ?? island, island: island)
  }

  /// What was found for a shoreline point: remembered, or described now and remembered.
  func shoreDescription(_ point: SIMD3<Double>) -> ShoreDescription {
    if let remembered = lookups.shoreDescription(of: point) { return remembered }
    let described = describeShore(point)
    lookups.remember(described, of: point)
    return described
  }

  /// The country feature of a shoreline point, as ``describeShore(_:)`` finds it: remembered, or found
  /// alone (the island and the place a description adds cost more, and a country does not need them).
  func shoreCountry(_ vector: SIMD3<Double>) -> Int? {
    if let remembered = lookups.shoreDescription(of: vector) { return remembered.country }
    return country(
      at: SphereGeometry.coordinate(vector), vector, toleranceKm: ReverseGeocoder.landCountryToleranceKm)
  }

  /// The country feature, named island and nearby place of a shoreline point.
  func describeShore(_ vector: SIMD3<Double>) -> ShoreDescription {
    let point = SphereGeometry.coordinate(vector)
    let feature = country(at: point, vector, toleranceKm: ReverseGeocoder.landCountryToleranceKm)
    var found: Int? = nil
    if let feature, let value = lookups.countryCodeValue(feature) {
      let limit = SphereGeometry.chordSquared(
        angle: ReverseGeocoder.landNameRadiusKm / SphereGeometry.radiusKm)
      // The nearest place of all settles it when it is too far or of the same country.
      if let nearest = lookups.nearestPlace(to: vector),
        nearest.chordSquared >= limit || lookups.layers.places.countryCodeValue(at: nearest.index) == value
      {
        found = nearest.chordSquared >= limit ? nil : nearest.index
      } else {
        found = lookups.nearestPlace(ofCountry: value, to: vector, within: limit)
      }
    }
    return ShoreDescription(country: feature, island: island(at: point, vector), place: found)
  }

  /// The named island a shoreline point lies on: the island polygon containing it, else the one whose
  /// outline is nearest within ``ReverseGeocoder/islandToleranceKm`` (the island outlines come from
  /// another survey than the shorelines and are simplified).
  func island(at point: Coordinate, _ vector: SIMD3<Double>) -> Int? {
    lookups.islandFeature(containing: point)
      ?? lookups.islandOutline(
        nearestTo: point, vector, within: ReverseGeocoder.islandToleranceKm / SphereGeometry.radiusKm)
  }
}
