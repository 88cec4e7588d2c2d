import TunnelGeo

// Where you come out if you dig from Skjern: the antipode, and what is there, from the bundled data.
let skjern = try Coordinate(latitude: 55.95, longitude: 8.5)
let exit = skjern.antipode
let geocoder = ReverseGeocoder(data: try PlaceData())
let start = try geocoder.placemark(for: skjern)
let end = try geocoder.placemark(for: exit)
print("from: \(start.country?.name ?? "?") (\(skjern.formatted(.dms(secondsPlaces: 0))))")
print("to: \(end.land ? "land" : "water") at \(exit.formatted(.dms(secondsPlaces: 0))), \(end.ocean ?? "?")")
