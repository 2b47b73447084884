-- wrk script of the Service rows (Benchmarks/service_area.py): each connection cycles over the request paths in
-- the file given after `--` (one per line), starting at its own offset; responses are counted by status; at the
-- end one line `WRKJSON {...}` gives the totals and the latency percentiles in microseconds.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

function init(args)
  paths = {}
  for line in io.lines(args[1]) do
    if #line > 0 then table.insert(paths, line) end
  end
  index = (id - 1) * 7
  statuses = {}
end

function request()
  index = index % #paths + 1
  return wrk.format("GET", paths[index])
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local merged = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      merged[status] = (merged[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(merged) do
    table.insert(parts, string.format('"%d": %d', status, count))
  end
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests": %d, "duration_us": %d, "bytes": %d, "p50_us": %d, "p95_us": %d, ' ..
    '"p99_us": %d, "max_us": %d, "connect_errors": %d, "read_errors": %d, "write_errors": %d, "timeouts": %d, ' ..
    '"statuses": {%s}}\n', summary.requests, summary.duration, summary.bytes, latency:percentile(50),
    latency:percentile(95), latency:percentile(99), latency.max, e.connect, e.read, e.write, e.timeout,
    table.concat(parts, ", ")))
end
