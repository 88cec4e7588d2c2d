-- wrk's script for Benchmarks/serve/bench.py: GET requests at random points, uniform on the sphere, seeded.
--   wrk -t2 -c32 -d10s -s Benchmarks/serve/random_points.lua http://127.0.0.1:8080 -- '/reverse?format=json' 7
-- Arguments after --: the path (with its own query, if any) and a seed. The path gets "lat=…&lon=…" appended, except
-- "/status", which is sent as it is. At the end it prints one line that bench.py reads:
--   result requests=N duration_us=N p50_us=N p99_us=N non2xx=N connect=N read=N write=N timeout=N

local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("id", thread_count)
end

local path, with_points, fixed_request

function init(args)
  path = args[1] or "/reverse?format=json"
  with_points = path ~= "/status"
  -- One stream of points per thread, the same on every run.
  math.randomseed(tonumber(args[2] or "7") * 1000 + id)
  fixed_request = wrk.format("GET", path)
end

function request()
  if not with_points then
    return fixed_request
  end
  local latitude = math.deg(math.asin(2 * math.random() - 1))
  local longitude = 360 * math.random() - 180
  local separator = path:find("?", 1, true) and "&" or "?"
  return wrk.format("GET", string.format("%s%slat=%.6f&lon=%.6f", path, separator, latitude, longitude))
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    "result requests=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), errors.status,
    errors.connect, errors.read, errors.write, errors.timeout))
end
