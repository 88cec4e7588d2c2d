/// The land, country and time zone of a point as the layers number them, before any name is read: what a
/// batch that writes only those fields needs of each point.
///
/// A ``Placemark`` is a few hundred bytes of strings; building one per point, copying it into the chunk's
/// answers and dropping its strings afterwards was most of a `--fields timeZone` batch above the cost of
/// reading and writing its rows. A key holds numbers (but for the rare zone read whole), and the batch
/// writes each value's columns once (the country of each feature, the zone of each polygon) and copies
/// them into every row that has it.
/// ``ReverseGeocoder/placemark(of:)`` reads a key into the placemark the same point gives.
package struct PlacemarkKey: Sendable {
  /// Whether the point is on land; false when ``Placemark/Fields/land`` was not asked for.
  package var land: Bool
  /// The country's feature in the country layer; -1 for none, or when ``Placemark/Fields/country`` was
  /// not asked for.
  package var country: Int32
  /// The time zone; nil when ``Placemark/Fields/timeZone`` was not asked for.
  package var timeZone: Zone?

  package init(land: Bool, country: Int32, timeZone: Zone?) {
    self.land = land
    self.country = country
    self.timeZone = timeZone
  }

  /// A time zone as the layers number it.
  package enum Zone: Sendable {
    /// The one zone polygon that holds the point: its feature in the time zone layer.
    case polygon(Int32)
    /// The nautical zone of a point at sea that no polygon holds: its offset in hours east, -12…12
    /// (``ReverseGeocoder/oceanZone(hours:)``).
    case nautical(Int8)
    /// Any other answer, read whole: where polygons overlap, or the nearest place's zone on land.
    case read(Placemark.TimeZone)
  }
}

extension ReverseGeocoder {
  /// The placemark a key stands for: its land, country and time zone named, the other fields empty (as
  /// ``Placemark/Fields`` describes), and no coordinate.
  package func placemark(of key: PlacemarkKey) throws(PlaceDataError) -> Placemark {
    PlacemarkAssembly(lookups: LayerLookups(layers: try placemarkLayers())).placemark(of: key)
  }

  /// How many features the country and time zone layers have: the values of ``PlacemarkKey/country`` and
  /// of ``PlacemarkKey/Zone/polygon(_:)``.
  package func keyFeatureCounts() throws(PlaceDataError) -> (countries: Int, timeZones: Int) {
    let layers = try placemarkLayers()
    return (layers.countries.polygons.featureCount, layers.zones.polygons.featureCount)
  }
}
