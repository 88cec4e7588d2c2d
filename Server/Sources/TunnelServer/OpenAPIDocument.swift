import TunnelGeo
import TunnelReports

/// `/openapi.json`: what `tunnel serve` serves, as OpenAPI 3.0. Tests check it against the routes and the
/// answers (a route served but not described, or described but not served, fails them).
enum OpenAPIDocument {
  static let text = """
    {
      "openapi": "3.0.3",
      "info": {
        "title": "Tunnel",
        "version": "\(TunnelVersion.text)",
        "description": "If you dug straight through the Earth from here, where would you come out? Tunnel's own API under /v1 answers as the tunnel command does with --format json; /reverse, /search and /status speak Nominatim's dialect, /photon/api and /photon/reverse Photon's. Every answer comes from the place data bundled with Tunnel, offline. Errors are JSON: {\\"error\\":{\\"code\\":400,\\"message\\":\\"…\\"}} (Photon's routes: {\\"message\\":\\"…\\"}).",
        "license": {"name": "Data: GeoNames (CC BY 4.0), Natural Earth (public domain)"}
      },
      "paths": {
        "/v1/where": {
          "get": {
            "summary": "Where a point is: land or sea, country, region, nearest place, time zone",
            "operationId": "where",
            "parameters": [
              {"$ref": "#/components/parameters/q"}, {"$ref": "#/components/parameters/lat"},
              {"$ref": "#/components/parameters/lon"}, {"$ref": "#/components/parameters/precision"}
            ],
            "responses": {
              "200": {"description": "The placemark, as `tunnel where --format json` prints it", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Placemark"}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "500": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/v1/antipode": {
          "get": {
            "summary": "Both ends of the tunnel from a place, and the tunnel between them",
            "operationId": "antipode",
            "parameters": [
              {"$ref": "#/components/parameters/q"}, {"$ref": "#/components/parameters/lat"},
              {"$ref": "#/components/parameters/lon"}, {"$ref": "#/components/parameters/precision"}
            ],
            "responses": {
              "200": {"description": "As `tunnel antipode --format json` prints it", "content": {"application/json": {"schema": {"type": "object", "required": ["from", "to", "surfaceDistanceKm", "throughEarthKm", "tunnel"], "properties": {"from": {"$ref": "#/components/schemas/Placemark"}, "to": {"$ref": "#/components/schemas/Placemark"}, "surfaceDistanceKm": {"type": "number"}, "throughEarthKm": {"type": "number"}, "tunnel": {"$ref": "#/components/schemas/TunnelFacts"}}}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "500": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/v1/find": {
          "get": {
            "summary": "The places with a name, best first",
            "operationId": "find",
            "parameters": [
              {"name": "q", "in": "query", "required": true, "description": "A name in any script, with optional qualifiers after commas ('Springfield, IL')", "schema": {"type": "string", "minLength": 1, "pattern": "\\\\S"}},
              {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 10}},
              {"$ref": "#/components/parameters/precision"}
            ],
            "responses": {
              "200": {"description": "As `tunnel find --format json` prints it", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/FoundPlace"}}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "404": {"$ref": "#/components/responses/Error"},
              "500": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/v1/pairs": {
          "get": {
            "summary": "Pairs of places at opposite ends of the Earth, the closest first",
            "operationId": "pairs",
            "parameters": [
              {"name": "within", "in": "query", "description": "How far a place may be from the other's antipode, in kilometres", "schema": {"type": "number", "minimum": 0, "maximum": 20000, "default": 25}},
              {"name": "minPopulation", "in": "query", "description": "The fewest inhabitants a place of a pair may have", "schema": {"type": "integer", "minimum": 0, "maximum": 2147483647, "default": 10000}},
              {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 1000}},
              {"$ref": "#/components/parameters/precision"}
            ],
            "responses": {
              "200": {"description": "As `tunnel pairs --format json` prints it", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "required": ["distanceKm", "first", "second"], "properties": {"distanceKm": {"type": "number"}, "first": {"$ref": "#/components/schemas/FoundPlace"}, "second": {"$ref": "#/components/schemas/FoundPlace"}}}}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "500": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/v1/dig": {
          "get": {
            "summary": "A straight tunnel between two places",
            "operationId": "dig",
            "parameters": [
              {"name": "from", "in": "query", "required": true, "description": "One end: a coordinate or a place", "schema": {"type": "string", "minLength": 1, "pattern": "\\\\S"}},
              {"name": "to", "in": "query", "required": true, "description": "The other end", "schema": {"type": "string", "minLength": 1, "pattern": "\\\\S"}},
              {"$ref": "#/components/parameters/precision"}
            ],
            "responses": {
              "200": {"description": "As `tunnel dig --format json` prints it", "content": {"application/json": {"schema": {"type": "object", "required": ["from", "to", "surfaceDistanceKm", "throughEarthKm", "tunnel"], "properties": {"from": {"$ref": "#/components/schemas/End"}, "to": {"$ref": "#/components/schemas/End"}, "surfaceDistanceKm": {"type": "number"}, "throughEarthKm": {"type": "number"}, "tunnel": {"$ref": "#/components/schemas/TunnelFacts"}}}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "500": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/v1/map.svg": {
          "get": {
            "summary": "Both ends on Tunnel's own azimuthal maps, as `tunnel map --svg` draws them (they reach the poles)",
            "operationId": "mapPicture",
            "parameters": [
              {"$ref": "#/components/parameters/q"}, {"$ref": "#/components/parameters/lat"},
              {"$ref": "#/components/parameters/lon"},
              {"name": "width", "in": "query", "description": "The picture's width", "schema": {"type": "integer", "minimum": 200, "maximum": 2000, "default": 720}},
              {"name": "height", "in": "query", "description": "Each map's height", "schema": {"type": "integer", "minimum": 100, "maximum": 2000, "default": 300}},
              {"name": "span", "in": "query", "description": "Kilometres across each map's shorter side", "schema": {"type": "integer", "minimum": 10, "maximum": 20000, "default": 1000}},
              {"name": "end", "in": "query", "description": "One end's map alone, without captions: 'digger' (where you dig) or 'target' (where you come out)", "schema": {"type": "string", "enum": ["digger", "target"]}}
            ],
            "responses": {
              "200": {"description": "An SVG picture", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
              "400": {"$ref": "#/components/responses/Error"},
              "500": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/tiles/{z}/{x}/{y}.svg": {
          "get": {
            "summary": "A 256-pixel Web Mercator map tile drawn from the bundled data: sea, land, shores, borders, places",
            "operationId": "tile",
            "parameters": [
              {"$ref": "#/components/parameters/tileZ"}, {"$ref": "#/components/parameters/tileX"},
              {"$ref": "#/components/parameters/tileY"}
            ],
            "responses": {
              "200": {"$ref": "#/components/responses/Tile"}, "304": {"description": "Not modified"},
              "404": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/tiles/antipodal/{z}/{x}/{y}.svg": {
          "get": {
            "summary": "A tile of the antipodal overlay: the land of the other side of the Earth turned through it onto this one, on a transparent ground",
            "operationId": "antipodalTile",
            "parameters": [
              {"$ref": "#/components/parameters/tileZ"}, {"$ref": "#/components/parameters/tileX"},
              {"$ref": "#/components/parameters/tileY"}
            ],
            "responses": {
              "200": {"$ref": "#/components/responses/Tile"}, "304": {"description": "Not modified"},
              "404": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/": {
          "get": {
            "summary": "The Tunnel in a browser: two maps, the digger and the red X at its antipode, and the radar",
            "operationId": "page",
            "responses": {"200": {"description": "The page", "content": {"text/html": {"schema": {"type": "string"}}}}}
          }
        },
        "/index.html": {
          "get": {
            "summary": "The page, under its file name",
            "operationId": "pageFile",
            "responses": {"200": {"description": "The page", "content": {"text/html": {"schema": {"type": "string"}}}}}
          }
        },
        "/v1/batch": {
          "post": {
            "summary": "tunnel batch over HTTP: rows in, the same rows with placemarks out, streamed",
            "operationId": "batch",
            "parameters": [
              {"name": "input", "in": "query", "description": "The body's format; by default from Content-Type, else from its first bytes", "schema": {"type": "string", "enum": ["csv", "tsv", "jsonl", "geojson"]}},
              {"name": "format", "in": "query", "description": "The output's format; by default the input's", "schema": {"type": "string", "enum": ["csv", "tsv", "jsonl", "geojson"]}},
              {"name": "fields", "in": "query", "description": "Comma-separated fields to add (as tunnel batch --fields): land, country, region, subregion, sea, nearestPlace, nearestLand, timeZone, boundaryKm", "schema": {"type": "string", "pattern": "^(land|country|region|subregion|sea|nearestPlace|nearestLand|timeZone|boundaryKm)(,(land|country|region|subregion|sea|nearestPlace|nearestLand|timeZone|boundaryKm))*$"}},
              {"name": "antipode", "in": "query", "schema": {"type": "boolean", "default": false}},
              {"name": "skip_invalid", "in": "query", "schema": {"type": "boolean", "default": false}},
              {"name": "precision", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 15, "default": 9}},
              {"name": "lat_column", "in": "query", "schema": {"type": "string"}},
              {"name": "lon_column", "in": "query", "schema": {"type": "string"}},
              {"name": "coordinate_column", "in": "query", "schema": {"type": "string"}}
            ],
            "requestBody": {"required": true, "content": {
              "text/csv": {"schema": {"type": "string"}},
              "text/tab-separated-values": {"schema": {"type": "string"}},
              "application/jsonl": {"schema": {"type": "string"}},
              "application/geo+json": {"schema": {"type": "object"}}
            }},
            "responses": {
              "200": {"description": "The rows, as `tunnel batch` writes them; a bad row carries an error column", "content": {
                "text/csv": {"schema": {"type": "string"}},
                "text/tab-separated-values": {"schema": {"type": "string"}},
                "application/jsonl": {"schema": {"type": "string"}},
                "application/geo+json": {"schema": {"type": "object"}}
              }},
              "400": {"$ref": "#/components/responses/Error"},
              "403": {"$ref": "#/components/responses/Error"},
              "413": {"$ref": "#/components/responses/Error"},
              "415": {"$ref": "#/components/responses/Error"}
            }
          }
        },
        "/reverse": {"get": {"summary": "Nominatim's reverse geocoding", "operationId": "nominatimReverse", "parameters": [
          {"name": "lat", "in": "query", "required": true, "schema": {"type": "number", "minimum": -90, "maximum": 90}},
          {"name": "lon", "in": "query", "required": true, "schema": {"type": "number", "minimum": -180, "maximum": 360}},
          {"$ref": "#/components/parameters/nominatimFormat"},
          {"name": "zoom", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 18, "default": 18}},
          {"name": "addressdetails", "in": "query", "schema": {"type": "integer", "enum": [0, 1], "default": 1}}
        ], "responses": {"200": {"$ref": "#/components/responses/Nominatim"}, "400": {"$ref": "#/components/responses/NominatimError"}}}},
        "/reverse.php": {"get": {"summary": "/reverse under its older name", "operationId": "nominatimReversePHP", "parameters": [
          {"name": "lat", "in": "query", "required": true, "schema": {"type": "number", "minimum": -90, "maximum": 90}},
          {"name": "lon", "in": "query", "required": true, "schema": {"type": "number", "minimum": -180, "maximum": 360}},
          {"$ref": "#/components/parameters/nominatimFormat"}
        ], "responses": {"200": {"$ref": "#/components/responses/Nominatim"}, "400": {"$ref": "#/components/responses/NominatimError"}}}},
        "/search": {"get": {"summary": "Nominatim's search, by name", "operationId": "nominatimSearch", "parameters": [
          {"name": "q", "in": "query", "required": true, "schema": {"type": "string", "minLength": 1, "pattern": "\\\\S"}},
          {"$ref": "#/components/parameters/nominatimFormat"},
          {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 40, "default": 10}},
          {"name": "addressdetails", "in": "query", "schema": {"type": "integer", "enum": [0, 1], "default": 0}}
        ], "responses": {"200": {"$ref": "#/components/responses/Nominatim"}, "400": {"$ref": "#/components/responses/NominatimError"}}}},
        "/search.php": {"get": {"summary": "/search under its older name", "operationId": "nominatimSearchPHP", "parameters": [
          {"name": "q", "in": "query", "required": true, "schema": {"type": "string", "minLength": 1, "pattern": "\\\\S"}},
          {"$ref": "#/components/parameters/nominatimFormat"}
        ], "responses": {"200": {"$ref": "#/components/responses/Nominatim"}, "400": {"$ref": "#/components/responses/NominatimError"}}}},
        "/status": {"get": {"summary": "Nominatim's status: OK, or JSON with format=json", "operationId": "nominatimStatus", "parameters": [
          {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["text", "json"]}}
        ], "responses": {"200": {"description": "OK", "content": {"text/plain": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "object"}}}}, "400": {"$ref": "#/components/responses/NominatimError"}}}},
        "/status.php": {"get": {"summary": "/status under its older name", "operationId": "nominatimStatusPHP", "parameters": [
          {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["text", "json"]}}
        ], "responses": {"200": {"description": "OK", "content": {"text/plain": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "object"}}}}, "400": {"$ref": "#/components/responses/NominatimError"}}}},
        "/photon/api": {"get": {"summary": "Photon's search", "operationId": "photonSearch", "parameters": [
          {"name": "q", "in": "query", "required": true, "schema": {"type": "string", "minLength": 1, "pattern": "\\\\S"}},
          {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10}}
        ], "responses": {"200": {"$ref": "#/components/responses/Photon"}, "400": {"$ref": "#/components/responses/PhotonError"}}}},
        "/photon/reverse": {"get": {"summary": "Photon's reverse geocoding", "operationId": "photonReverse", "parameters": [
          {"name": "lat", "in": "query", "required": true, "schema": {"type": "number", "minimum": -90, "maximum": 90}},
          {"name": "lon", "in": "query", "required": true, "schema": {"type": "number", "minimum": -180, "maximum": 360}}
        ], "responses": {"200": {"$ref": "#/components/responses/Photon"}, "400": {"$ref": "#/components/responses/PhotonError"}}}},
        "/openapi.json": {"get": {"summary": "This document", "operationId": "openapi", "responses": {"200": {"description": "OpenAPI 3.0", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
        "/metrics": {"get": {"summary": "Request counts and latencies for Prometheus", "operationId": "metrics", "responses": {"200": {"description": "Prometheus's text format", "content": {"text/plain": {"schema": {"type": "string"}}}}}}}
      },
      "components": {
        "parameters": {
          "q": {"name": "q", "in": "query", "description": "A coordinate ('56.55 8.32', '56°33′N 8°19′E') or a place ('Skjern'); or give lat and lon", "schema": {"type": "string", "minLength": 1, "pattern": "\\\\S"}},
          "lat": {"name": "lat", "in": "query", "description": "Latitude in degrees, with lon instead of q", "schema": {"type": "number", "minimum": -90, "maximum": 90}},
          "lon": {"name": "lon", "in": "query", "description": "Longitude in degrees, with lat instead of q; past 180 it counts on round the globe (200 is 160 W)", "schema": {"type": "number", "minimum": -180, "maximum": 360}},
          "precision": {"name": "precision", "in": "query", "description": "Decimals of degrees (kilometres get three fewer)", "schema": {"type": "integer", "minimum": 0, "maximum": 15, "default": 9}},
          "nominatimFormat": {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["json", "jsonv2", "geojson", "geocodejson", "xml"]}},
          "tileZ": {"name": "z", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 0, "maximum": 12}},
          "tileX": {"name": "x", "in": "path", "required": true, "description": "From 0 to 2^z − 1", "schema": {"type": "integer", "minimum": 0}},
          "tileY": {"name": "y", "in": "path", "required": true, "description": "From 0 (north) to 2^z − 1", "schema": {"type": "integer", "minimum": 0}}
        },
        "responses": {
          "Error": {"description": "What was wrong", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "Tile": {"description": "An SVG tile, with an ETag (If-None-Match gets a 304) and Cache-Control", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
          "Nominatim": {"description": "Nominatim's answer in the format asked for", "content": {"application/json": {"schema": {}}, "application/geo+json": {"schema": {"type": "object"}}, "text/xml": {"schema": {"type": "string"}}}},
          "NominatimError": {"description": "Nominatim's error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}, "text/xml": {"schema": {"type": "string"}}}},
          "Photon": {"description": "A GeoJSON FeatureCollection", "content": {"application/json": {"schema": {"type": "object", "required": ["type", "features"], "properties": {"type": {"type": "string", "enum": ["FeatureCollection"]}, "features": {"type": "array", "items": {"type": "object"}}}}}}},
          "PhotonError": {"description": "Photon's error", "content": {"application/json": {"schema": {"type": "object", "required": ["message"], "properties": {"message": {"type": "string"}}}}}}
        },
        "schemas": {
          "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {"code": {"type": "integer"}, "message": {"type": "string"}, "suggestions": {"type": "array", "description": "Names a misspelt one may have meant (/v1/find)", "items": {"type": "string"}}}}}},
          "Placemark": {"type": "object", "required": ["latitude", "longitude", "land", "nearestPlace", "timeZone"], "properties": {
            "latitude": {"type": "number"}, "longitude": {"type": "number"}, "land": {"type": "boolean"},
            "headline": {"type": "string", "description": "The point in words, as the first line of tunnel where: a town only with its own country and near enough to name the point"},
            "country": {"type": "object", "nullable": true}, "region": {"type": "object", "nullable": true},
            "subregion": {"type": "object", "nullable": true, "description": "A US county or a French departement, where the data has one"},
            "sea": {"type": "string", "nullable": true}, "nearestPlace": {"type": "object"},
            "nearestLand": {"type": "object", "nullable": true}, "timeZone": {"type": "object", "required": ["identifier", "others"], "properties": {
              "identifier": {"type": "string"}, "others": {"type": "array", "description": "Other zones that claim the point where the source's zones overlap", "items": {"type": "string"}}}},
            "boundaryKm": {"type": "object", "nullable": true, "description": "How far the nearest country, region, subregion and time zone boundaries are, in kilometres", "properties": {
              "country": {"type": "number", "nullable": true}, "region": {"type": "number", "nullable": true},
              "subregion": {"type": "number", "nullable": true},
              "timeZone": {"type": "number", "nullable": true}}}}},
          "FoundPlace": {"type": "object", "required": ["name", "countryCode", "region", "latitude", "longitude", "population"], "properties": {
            "name": {"type": "string"}, "countryCode": {"type": "string"}, "region": {"type": "string", "nullable": true},
            "latitude": {"type": "number"}, "longitude": {"type": "number"}, "population": {"type": "integer"}}},
          "End": {"type": "object", "required": ["latitude", "longitude"], "properties": {"latitude": {"type": "number"}, "longitude": {"type": "number"}, "name": {"type": "string"}}},
          "TunnelFacts": {"type": "object", "required": ["deepestPoint", "fallSeconds"], "properties": {
            "deepestPoint": {"type": "object", "properties": {"depthKm": {"type": "number"}, "latitude": {"type": "number", "nullable": true}, "longitude": {"type": "number", "nullable": true}}},
            "fallSeconds": {"type": "object", "properties": {"uniform": {"type": "number"}, "prem": {"type": "number"}}}}}
        }
      }
    }
    """
}
